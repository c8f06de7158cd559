"""Every blocking check of the asset graph can fail: each test here makes one fail (and pass) on literal input."""

from __future__ import annotations

import json

import polars as pl

from data_catalog.sources.base import ConvertOptions
from pipelines.assets.curate import duplicate_rate, schema_valid, sft_set_verified
from pipelines.assets.ingest import quarantine_check
from pipelines.assets.record_store import RecordSet
from pipelines.stages.ingest import INGEST, IngestConfig
from schemas.io import write_records
from tests.curation.helpers import trajectory_record
from tests.pipelines.cli_helpers import OS_STD


def test_schema_valid_fails_on_a_missing_row_a_foreign_schema_and_a_stale_verdict(tmp_path):
    good = trajectory_record("good", order_id="W1")
    path = tmp_path / "records.parquet"
    write_records([good], path)
    assert schema_valid(path, 1).passed is True
    assert schema_valid(path, 2).passed is False  # a row was lost on the way
    stale = trajectory_record("stale", order_id="W2")
    stale.verifier.result.origin = None  # a verdict the chain did not reach, left as it came
    write_records([good, stale], path)
    check = schema_valid(path, 2)
    assert check.passed is False and check.metadata["problem_not_reverified"].value == 1
    foreign = tmp_path / "foreign.parquet"
    pl.DataFrame({"id": ["x"], "text": ["hello"]}).write_parquet(foreign)
    assert schema_valid(foreign, 1).passed is False


def test_duplicate_rate_fails_above_its_maximum():
    assert duplicate_rate(8, 10, 0.8).passed is True
    assert duplicate_rate(9, 10, 0.8).passed is False
    assert duplicate_rate(0, 0, 0.8).passed is True


def test_quarantine_rate_fails_above_its_maximum(tmp_path):
    """Three ADP trajectories and two rows that are not (their content is no list of steps): 2 of 5 quarantined."""
    raw = tmp_path / "mixed.jsonl"
    rows = [*json.loads(OS_STD.read_text())[:3], {"id": "x", "content": "oops"}, {"id": "y", "content": "oops"}]
    raw.write_text("".join(json.dumps(row) + "\n" for row in rows))
    inputs = {"format": "adp", "paths": [str(raw)], "options": ConvertOptions()}
    for max_rate, expected in {0.5: True, 0.4: True, 0.3: False}.items():
        cfg = IngestConfig(max_quarantine_rate=max_rate)
        check = quarantine_check(INGEST.run(inputs, {"records": tmp_path / "mixed.parquet"}, cfg, None), cfg)
        assert check.passed is expected
        assert (check.metadata["quarantine_rate"].value, check.metadata["read"].value) == (0.4, 5)


def sft_check(tmp_path, records, accept_imported=False):
    path = tmp_path / "sft.parquet"
    write_records(records, path)
    return sft_set_verified(RecordSet([path]), accept_imported)


def test_computed_successes_pass_the_check(tmp_path):
    result = sft_check(tmp_path, [trajectory_record("a", order_id="W1"), trajectory_record("b", order_id="W2")])
    assert result.passed is True
    assert result.metadata["verdicts_computed"].value == 2


def test_a_success_only_the_source_vouches_for_fails_it_unless_accepted(tmp_path):
    imported = trajectory_record("a", order_id="W1")
    imported.verifier.result.origin = None
    assert sft_check(tmp_path, [imported]).passed is False
    assert sft_check(tmp_path, [imported]).metadata["verdicts_imported"].value == 1
    assert sft_check(tmp_path, [imported], accept_imported=True).passed is True


def test_a_failed_or_empty_sft_set_fails_it(tmp_path):
    assert sft_check(tmp_path, [trajectory_record("a", order_id="W1", passed=False)]).passed is False
    assert sft_check(tmp_path, []).passed is False
