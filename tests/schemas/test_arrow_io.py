"""Parquet and JSONL IO: a record with every step kind round-trips exactly; ids are stable across runs."""

from __future__ import annotations

import os
import subprocess
import sys

import pyarrow.parquet as pq

from schemas.arrow_schema import RECORD_SCHEMA, STATISTICS_COLUMNS
from schemas.io import read_records, write_records
from schemas.record import (
    record_id,
    stable_id,
)
from tests.conftest import ROOT
from tests.schemas.records import full_record


def test_every_step_kind_round_trips_through_parquet(tmp_path):
    records = [full_record(i) for i in range(3)]
    out = tmp_path / "r.parquet"
    assert write_records(records, out) == 3
    assert pq.read_schema(out).remove_metadata() == RECORD_SCHEMA
    back = list(read_records(out, batch_size=2))
    assert back == records
    assert {type(s).__name__ for s in back[0].trajectory} == {
        "TextObservation",
        "MessageAction",
        "ApiAction",
        "CodeAction",
        "ImageObservation",
        "WebObservation",
    }
    assert back[0].trajectory[8].viewport_size == (1280, 720)


def test_record_files_keep_min_max_statistics_only_for_scalar_columns(tmp_path):
    out = tmp_path / "r.parquet"
    write_records([full_record(i) for i in range(3)], out)
    row_group = pq.ParquetFile(out).metadata.row_group(0)
    with_statistics = {
        row_group.column(i).path_in_schema for i in range(row_group.num_columns) if row_group.column(i).is_stats_set
    }
    assert with_statistics == set(STATISTICS_COLUMNS)
    assert "instruction" not in with_statistics and "id" in with_statistics


def test_every_step_kind_round_trips_through_jsonl(tmp_path):
    records = [full_record(i) for i in range(3)]
    out = tmp_path / "r.jsonl"
    assert write_records(records, out) == 3
    assert list(read_records(out)) == records


def test_parquet_write_is_atomic_and_leaves_no_temp_files(tmp_path):
    write_records([full_record()], tmp_path / "a.parquet")
    assert [p.name for p in tmp_path.iterdir()] == ["a.parquet"]


def test_ids_are_stable_across_runs():
    """The same input gives the same id in a fresh interpreter with another hash seed."""
    here = [
        record_id("demo", "sharegpt", 13461),
        record_id("demo", "sharegpt", None, fallback={"b": [1, 2], "a": "x"}),
        stable_id("a", 1, None),
    ]
    code = (
        "from schemas.record import record_id, stable_id;"
        "print(record_id('demo', 'sharegpt', 13461));"
        "print(record_id('demo', 'sharegpt', None, fallback={'a': 'x', 'b': [1, 2]}));"
        "print(stable_id('a', 1, None))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    there = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    ).stdout.split()
    assert there == here
    assert here[0] != record_id("demo", "sharegpt", 13462) and here[0] != record_id("other", "sharegpt", 13461)
