"""The commands that read records take files of every schema version (the frozen examples of
tests/schemas/versions/) and refuse a newer version's in one line."""

from __future__ import annotations

import orjson
import pyarrow.parquet as pq
import pytest

from schemas.arrow_schema import RECORD_SCHEMA
from schemas.io import read_records
from schemas.versions import SCHEMA_VERSION
from tests.pipelines.cli_helpers import invoke, last_json
from tests.schemas.frozen_versions import NEWER, OLD_SHAPES, VERSIONS, newer_parquet


@pytest.mark.parametrize("shape", OLD_SHAPES)
@pytest.mark.parametrize("suffix", ["parquet", "jsonl"])
def test_verify_validate_and_show_read_files_of_every_earlier_version(shape, suffix, tmp_path):
    """The finding: verify refused 1.0 Parquet files written before scores.learner ('not a record Parquet file')."""
    path = VERSIONS / shape / f"records.{suffix}"
    result = invoke("verify", path, "-o", tmp_path / "verified.parquet", "--json")
    assert result.exit_code == 0, result.output
    summary = last_json(result)
    assert summary["records"] == 3 and summary["quarantined"] == 0 and summary["passed"] == 1
    verified = list(read_records(tmp_path / "verified.parquet"))
    assert pq.read_schema(tmp_path / "verified.parquet").equals(RECORD_SCHEMA)
    assert [r.schema_version for r in verified] == [SCHEMA_VERSION] * 3
    assert verified[2].verifier.result.origin == "computed"  # re-verified by the chain, whatever the shape had

    result = invoke("validate", path)
    assert result.exit_code == 0 and f"{path}: 3 records, all valid" in result.stderr
    rollout = next(r for r in read_records(path) if r.id.startswith("rollout-"))
    result = invoke("show", path, "--id", rollout.id)
    assert result.exit_code == 0 and rollout.id in result.stdout and SCHEMA_VERSION in result.stdout


@pytest.mark.parametrize("command", ["show", "validate", "verify", "export-adp"])
def test_a_file_of_a_newer_version_is_one_line_naming_the_version_for_every_command(command, tmp_path):
    newer = newer_parquet(tmp_path / "newer.parquet")
    result = invoke(command, newer, *(["-o", tmp_path / "out.jsonl"] if command in ("verify", "export-adp") else []))
    assert result.exit_code in (1, 2) and "Traceback" not in result.output, result.output
    assert result.stderr == f"error: {newer}: written by a newer aceforge (schema {NEWER}); upgrade aceforge\n"
    assert not (tmp_path / "out.jsonl").exists()


def test_verify_stops_at_a_jsonl_record_of_a_newer_version_instead_of_quarantining_it(tmp_path):
    first, second, _ = (r.model_dump(mode="json") for r in read_records(VERSIONS / "1.0-initial" / "records.jsonl"))
    newer = tmp_path / "newer.jsonl"
    newer.write_bytes(b"\n".join([orjson.dumps(first), orjson.dumps({**second, "schema_version": NEWER})]))
    result = invoke("verify", newer, "-o", tmp_path / "out.parquet")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr == f"error: {newer} row 1: written by a newer aceforge (schema {NEWER}); upgrade aceforge\n"
    assert not (tmp_path / "out.parquet").exists() and not (tmp_path / "out.quarantine.parquet").exists()
