"""Schema 1.3 moved an imported agent's identity from lineage.generator to source.agent: literal records as the
1.2 readers wrote them read, migrate and export with the identity in its new place, and aceforge's own records
(whose generator is its backend) keep their generator."""

from __future__ import annotations

import copy

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from schemas.arrow_schema import RECORD_SCHEMA, SOURCE_TYPE, record_to_row, upgrade_record_batch
from schemas.io import read_records
from schemas.migrate import MIGRATED, migrate_file
from schemas.record import load_record
from schemas.versions import SCHEMA_VERSION


def _old(fmt: str, generator: dict | None) -> dict:
    """A record as the 1.2 reader of ``fmt`` wrote it to JSONL (the fields it had no value for left out)."""
    return {
        "id": f"{fmt}-1",
        "schema_version": "1.2",
        "trajectory": [{"class_": "message_action", "content": "done"}],
        "source": {"dataset": "sessions", "format": fmt, "original_id": "s1", "license": None, "uri": None},
        "lineage": {"generator": generator, "parents": [], "usage": {"output_tokens": 7}},
    }


CLAUDE_CODE = _old("claude_code", {"agent": "claude-code", "version": "2.1.39", "model": "claude-opus-4-6"})
CODEX = _old(
    "codex_cli",
    {"agent": "codex", "version": "0.104.0", "model": ["gpt-5-codex", "gpt-5"], "reasoning_effort": "medium"},
)
OPENHANDS = _old("openhands", {"agent": "CodeActAgent", "model": "openai/llama-4"})
ANTHROPIC = _old("anthropic_messages", {"model": "claude-haiku-4-5"})
ATIF = _old("atif", {"agent": "terminus-2", "version": "2.0.0", "model": "gpt-5"})
TAU2 = _old("tau2_results", {"agent_info": {"implementation": "llm_agent", "llm": "gpt-4.1"}, "seed": 300})
ROLLOUT = _old("aceforge_rollout", {"agent": {"name": "llm", "version": "1"}, "backend": {"model": "m"}, "seed": 3})


def _agent(framework, model=None, version=None, other_models=()) -> dict:
    return {"framework": framework, "model": model, "version": version, "other_models": list(other_models)}


def test_an_old_readers_identity_moves_to_source_agent_and_its_settings_stay_in_the_generator():
    cases = [
        (CLAUDE_CODE, _agent("claude-code", "claude-opus-4-6", "2.1.39"), None),
        (CODEX, _agent("codex", "gpt-5-codex", "0.104.0", ["gpt-5"]), {"reasoning_effort": "medium"}),
        (OPENHANDS, _agent("openhands", "openai/llama-4"), {"agent_class": "CodeActAgent"}),
        (ANTHROPIC, _agent(None, "claude-haiku-4-5"), None),
        (ATIF, _agent("terminus-2", "gpt-5", "2.0.0"), None),
        (TAU2, _agent("tau2-bench", "gpt-4.1"), TAU2["lineage"]["generator"]),
    ]
    for old, agent, generator in cases:
        before = copy.deepcopy(old)
        record = load_record(old)
        assert old == before  # the stored data is not changed in place
        assert record.schema_version == SCHEMA_VERSION == "1.3"
        assert record.source.agent.model_dump() == agent, old["source"]["format"]
        assert record.lineage.generator == generator, old["source"]["format"]
        assert record.lineage.usage == {"output_tokens": 7} and record.source.original_id == "s1"


def test_records_with_no_identity_to_move_keep_their_generator():
    rollout = load_record(ROLLOUT)  # aceforge's own: its generator names its policy and backend
    assert rollout.source.agent is None and rollout.lineage.generator == ROLLOUT["lineage"]["generator"]
    plain = load_record(_old("sharegpt", None))
    assert plain.source.agent is None and plain.lineage.generator is None
    # A current record is read as it is: a generator that happens to name an agent is not moved again.
    current = {**CLAUDE_CODE, "schema_version": SCHEMA_VERSION}
    assert load_record(current).lineage.generator == CLAUDE_CODE["lineage"]["generator"]


def _old_parquet_batch(records: list[dict]) -> pa.RecordBatch:
    """``records`` as a 1.2 Parquet file held them: source without its agent field."""
    old_source = pa.struct([f for f in SOURCE_TYPE if f.name != "agent"])
    schema = RECORD_SCHEMA.set(RECORD_SCHEMA.get_field_index("source"), pa.field("source", old_source))
    rows = []
    for data in records:
        row = record_to_row(load_record({**data, "schema_version": SCHEMA_VERSION}))  # the same values, then:
        row.update(schema_version="1.2", lineage=orjson.dumps(data["lineage"]).decode())
        row["source"].pop("agent")
        rows.append(row)
    return pa.RecordBatch.from_pylist(rows, schema=schema)


def test_aceforge_migrate_rewrites_old_files_with_the_identity_moved(tmp_path):
    jsonl = tmp_path / "old.jsonl"
    jsonl.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in (CLAUDE_CODE, ROLLOUT)))
    parquet = tmp_path / "old.parquet"
    pq.write_table(pa.Table.from_batches([_old_parquet_batch([CLAUDE_CODE, ROLLOUT])]), parquet)
    for path in (jsonl, parquet):
        assert migrate_file(path).action == MIGRATED
        if path.suffix == ".jsonl":
            stored = [orjson.loads(line) for line in path.read_bytes().splitlines()]
        else:
            assert pq.read_schema(path).equals(RECORD_SCHEMA)
            stored = pq.read_table(path).to_pylist()
        assert [r["schema_version"] for r in stored] == [SCHEMA_VERSION] * 2
        assert stored[0]["source"]["agent"] == _agent("claude-code", "claude-opus-4-6", "2.1.39")
        lineage = stored[0]["lineage"]
        assert (orjson.loads(lineage) if isinstance(lineage, str) else lineage)["generator"] is None
        assert stored[1]["source"]["agent"] is None
        claude, rollout = read_records(path)
        assert claude.source.agent.framework == "claude-code" and rollout.lineage.generator["seed"] == 3


def test_hub_shards_copy_old_rows_with_the_identity_moved():
    upgraded = upgrade_record_batch(_old_parquet_batch([CLAUDE_CODE, ROLLOUT]))
    assert upgraded.schema.equals(RECORD_SCHEMA)
    claude, rollout = upgraded.to_pylist()
    assert claude["schema_version"] == rollout["schema_version"] == SCHEMA_VERSION
    assert claude["source"]["agent"] == _agent("claude-code", "claude-opus-4-6", "2.1.39")
    assert orjson.loads(claude["lineage"])["generator"] is None
    assert rollout["source"]["agent"] is None and orjson.loads(rollout["lineage"])["generator"]["seed"] == 3
