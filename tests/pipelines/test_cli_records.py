"""`aceforge validate`, `show` and `export-adp` on converted real samples."""

from __future__ import annotations

import json

import jsonschema
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from data_catalog.convert import convert_files
from schemas.arrow_schema import RECORD_SCHEMA
from schemas.io import read_records
from tests.conftest import FIXTURES
from tests.data_catalog.sources.fidelity import SAMPLES
from tests.pipelines.cli_helpers import OS_STD, TAU_RUNS, invoke

ADP_SCHEMA = json.loads((FIXTURES.parent / "adp-v1.schema.json").read_text())


@pytest.fixture
def tau_parquet(tmp_path):
    out = tmp_path / "tau.parquet"
    assert convert_files("tau_bench", [str(TAU_RUNS)], out).converted == 8
    return out


def test_validate_accepts_a_converted_file(tau_parquet):
    result = invoke("validate", tau_parquet)
    assert result.exit_code == 0
    assert "8 records, all valid" in result.stderr


def test_validate_lists_rows_that_do_not_parse_and_duplicate_ids(tau_parquet, tmp_path):
    rows = pq.read_table(tau_parquet).to_pylist()
    rows[2]["trajectory"][0]["class_"] = "bogus_step"
    rows[5]["environment"] = '{"kind": 3}'
    rows[6]["id"] = rows[7]["id"]
    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.Table.from_pylist(rows, schema=RECORD_SCHEMA), bad)
    result = invoke("validate", bad)
    assert result.exit_code == 1
    listed = result.stdout.strip().splitlines()
    assert [line.split(":")[0] for line in listed] == [
        f"row 2 (id {rows[2]['id']})",
        f"row 5 (id {rows[5]['id']})",
        f"row 7 (id {rows[7]['id']})",
    ]
    assert "bogus_step" in listed[0] and "duplicate record id" in listed[2]
    assert "3 bad row(s)" in result.stderr


def test_validate_rejects_a_foreign_schema(tmp_path):
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"id": ["a"], "text": ["hello"]}), other)
    result = invoke("validate", other)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {other} is a Parquet file of other columns (id, text), not records;")
    # A record file of another shape: every difference, not the first four.
    near = tmp_path / "near.parquet"
    pq.write_table(pa.table({"id": ["a"], "trajectory": ["[]"], "text": ["hello"]}), near)
    result = invoke("validate", near)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert (
        "schema does not match the record schema" in result.stderr and "missing column 'environment'" in result.stderr
    )
    assert "unexpected column 'text'" in result.stderr and "more" not in result.stderr


def test_validate_reports_an_unreadable_file(tmp_path):
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 this is not parquet")
    result = invoke("validate", broken)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{broken} is not a Parquet file (a Parquet file cut short: 24 bytes and no footer)" in result.stderr


def test_validate_checks_jsonl_records_too(tau_parquet, tmp_path):
    from schemas.io import read_records, write_jsonl

    good = tmp_path / "tau.jsonl"
    write_jsonl(read_records(tau_parquet), good)
    assert invoke("validate", good).exit_code == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good.read_text() + '{"id": "x"}\n')
    result = invoke("validate", bad)
    assert result.exit_code == 1 and result.stdout.startswith("row 8 (id x): ") and "source" in result.stdout


def test_validate_usage_errors(tmp_path):
    assert invoke("validate", tmp_path / "none.parquet").exit_code == 2
    (tmp_path / "x.csv").write_text("a,b\n")
    assert invoke("validate", tmp_path / "x.csv").exit_code == 2


def test_show_renders_e_q_tau_v_of_the_chosen_record(tau_parquet):
    raw = json.loads(TAU_RUNS.read_text())
    result = invoke("show", tau_parquet, "--id", "4/0", "--max-chars", "0")  # the original id: task 4, trial 0
    assert result.exit_code == 0, result.output
    shown = result.stdout
    target = next(r for r in raw if r["task_id"] == 4)
    tools = {c["function"]["name"] for m in target["traj"] for c in m.get("tool_calls") or []}
    assert all(name in shown for name in tools)
    for heading in ("E  environment", "q  task", "τ  trajectory", "v  verifier"):
        assert heading in shown
    assert "4/0" in shown and "passed=False score=0.0" in shown


def test_show_names_the_agent_of_an_imported_session(tmp_path):
    convert_files("claude_code", [str(SAMPLES / "claude_code" / "session.jsonl")], tmp_path / "cc.parquet")
    shown = invoke("show", tmp_path / "cc.parquet").stdout
    assert "claude-code 2.1.39 on claude-opus-4-6" in shown


def test_show_first_record_and_unknown_id(tau_parquet):
    first = invoke("show", tau_parquet)
    assert first.exit_code == 0 and "τ  trajectory" in first.stdout
    missing = invoke("show", tau_parquet, "--id", "no-such-id")
    assert missing.exit_code == 1 and "no record with id 'no-such-id'" in missing.stderr


def test_show_refuses_an_original_id_that_several_records_share(tmp_path):
    raw = tmp_path / "chats.jsonl"
    lines = [
        {"id": 1, "messages": [{"role": "user", "content": "first"}, {"role": "assistant", "content": "a"}]},
        {"id": 1, "messages": [{"role": "user", "content": "second"}, {"role": "assistant", "content": "b"}]},
    ]
    raw.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "chats.parquet"
    assert convert_files("openai_chat", [str(raw)], out).converted == 2
    ids = [record.id for record in read_records(out)]
    shared = invoke("show", out, "--id", "1")
    assert shared.exit_code == 1 and "2 records have original id '1'" in shared.stderr
    assert all(record_id in shared.stderr for record_id in ids)
    second = invoke("show", out, "--id", ids[1])
    assert second.exit_code == 0 and "second" in second.stdout


def test_export_adp_writes_jsonl_that_adp_schema_accepts(tmp_path):
    src = OS_STD
    parquet = tmp_path / "os.parquet"
    convert_files("adp", [str(src)], parquet)
    out = tmp_path / "sub" / "os.adp.jsonl"
    result = invoke("export-adp", parquet, "-o", out)
    assert result.exit_code == 0 and "wrote 5 ADP records" in result.stderr
    exported = [json.loads(line) for line in out.read_text().splitlines()]
    original = json.loads(src.read_text())
    assert [e["id"] for e in exported] == [str(o["id"]) for o in original]
    assert [[s["class_"] for s in e["content"]] for e in exported] == [
        [s["class_"] for s in o["content"]] for o in original
    ]
    for record in exported:
        jsonschema.validate(record, ADP_SCHEMA)


def test_export_adp_of_tau_records_keeps_verdict_and_call_ids_for_the_round_trip(tau_parquet, tmp_path):
    out = tmp_path / "tau.adp.jsonl"
    assert invoke("export-adp", tau_parquet, "-o", out).exit_code == 0
    exported = [json.loads(line) for line in out.read_text().splitlines()]
    for record in exported:
        jsonschema.validate(record, ADP_SCHEMA)
        assert all(isinstance(v, str) for v in record["details"].values())  # ADP v1: details are strings
    first = exported[0]["details"]
    assert json.loads(first["aceforge.verifier"])["result"]["score"] == 0.0
    assert any("tool_call_id" in fields for fields in json.loads(first["aceforge.steps"]).values())
    # Back through the adp format: the same E, q, τ (call ids, tool sources, system prompt), v, lineage, details.
    back = tmp_path / "back.parquet"
    assert invoke("convert", "-f", "adp", out, "-o", back, "--no-catalog").exit_code == 0
    for original, restored in zip(read_records(tau_parquet), read_records(back)):
        for part in ("environment", "task", "trajectory", "verifier", "lineage", "details"):
            assert getattr(restored, part) == getattr(original, part), part
        assert restored.source.original_id == original.source.original_id
