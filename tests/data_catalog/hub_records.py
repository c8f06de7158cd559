"""A record file for the Hub export tests: real ADP samples (with their licences) plus synthesized tasks.

Trajectories come from ../shared/fixtures/adp converted by the real converter,
each source with the licence its upstream card states (PROVENANCE.md; one left
without a licence, as "unspecified" there). Tasks follow the task/rollout
contract: no trajectory steps, a synthesizer seed in task.metadata, and one
rollout per task whose lineage names the task as parent and a generator seed.
"""

from __future__ import annotations

from pathlib import Path

from data_catalog.convert import convert_files
from data_catalog.sources.base import ConvertOptions
from schemas.io import read_records, write_records
from schemas.record import AgentRecord, Environment, Lineage, Source, Task, Verifier, VerifierResult, stable_id
from schemas.steps import MessageAction, TextObservation
from tests.conftest import ADP_FIXTURES

# (fixture dir, licence as the upstream card states it)
ADP_SOURCES = {
    "code_feedback": "Apache-2.0",
    "nebius_SWE-agent-trajectories": "CC-BY-4.0",
    "mini-coder": "MIT",
    "agenttuning_os": None,
}
ADP_ROWS = 10 + 5 + 1 + 5
TASKS = 6  # and as many rollouts


def synth_task(n: int) -> AgentRecord:
    return AgentRecord(
        id=f"task-{stable_id('retail', n)}",
        environment=Environment(kind="tool_world", name="retail"),
        task=Task(
            instruction=f"Cancel order #{n} and tell me the refund.",
            constraints=[{"kind": "order_status", "order": n, "status": "cancelled"}],
            metadata={"task_kind": "cancel", "seed": 100 + n, "synthesizer": "template"},
        ),
        verifier=Verifier(kind="constraints"),
        source=Source(dataset="synth_retail", format="synth_tasks", original_id=str(n), license="CC0-1.0"),
        lineage=Lineage(generator={"synthesizer": "template", "seed": 100 + n}, config_hash="cfg-tasks"),
    )


def rollout(task: AgentRecord, n: int) -> AgentRecord:
    passed = n % 2 == 0
    return task.model_copy(
        update={
            "id": f"rollout-{stable_id(task.id, 0)}",
            "details": {"rollout_index": 0},  # as generators/rollouts records one: the task is its parent
            "trajectory": [
                TextObservation(content=task.task.instruction, source="user"),
                MessageAction(content=f"Order #{n} is cancelled; the refund is on its way."),
            ],
            "verifier": Verifier(kind="constraints", result=VerifierResult(passed=passed, score=float(passed))),
            "source": Source(dataset="synth_retail", format="rollouts", original_id=task.id, license="CC0-1.0"),
            "lineage": Lineage(
                generator={"backend": "transformers", "model": "SmolLM2-135M-Instruct", "seed": 7 + n},
                parents=[task.id],
                pipeline_version="0.1.0",
                config_hash="cfg-rollouts",
            ),
        }
    )


def adp_records(workdir: Path) -> list[AgentRecord]:
    records = []
    for name, license in ADP_SOURCES.items():
        out = workdir / f"{name}.parquet"
        options = ConvertOptions(dataset=name.replace("-", "_"), license=license)
        stats = convert_files("adp", [str(ADP_FIXTURES / name / "sample_std.json")], out, options=options)
        assert stats.quarantined == 0, stats.errors
        records += list(read_records(out))
    return records


def mixed_records(workdir: Path) -> Path:
    """ADP trajectories, then TASKS tasks each followed by its rollout, in one Parquet file."""
    workdir.mkdir(parents=True, exist_ok=True)
    records = adp_records(workdir)
    for n in range(TASKS):
        task = synth_task(n)
        records += [task, rollout(task, n)]
    path = workdir / "mixed.parquet"
    write_records(records, path)
    return path


def trajectories_only(workdir: Path) -> Path:
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / "adp.parquet"
    write_records(adp_records(workdir), path)
    return path
