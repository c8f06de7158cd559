"""Record files of every schema version read as the current version: frozen examples of each shape
(tests/schemas/versions/, written by the commits that had those shapes), nothing they hold dropped, and a file
of a newer version refused with one line."""

from __future__ import annotations

import re

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from schemas import arrow_schema
from schemas.arrow_schema import (
    RECORD_SCHEMA,
    STEP_TYPE,
    conform_record_batch,
    record_to_row,
    schema_differences,
    upgrade_record_batch,
)
from schemas.io import read_records, write_jsonl, write_records
from schemas.versions import HISTORY, KNOWN, SCHEMA_VERSION, NewerSchemaError, SchemaError
from tests.schemas.frozen_versions import LEARNER, NEWER, SHAPES, VERSIONS, newer_parquet

FILES = [VERSIONS / shape / f"records.{suffix}" for shape in SHAPES for suffix in ("parquet", "jsonl")]


def test_every_version_of_the_history_has_frozen_examples():
    assert HISTORY[-1].number == SCHEMA_VERSION and len(KNOWN) == len(HISTORY) >= 2
    assert {shape.split("-")[0] for shape in SHAPES} == {v.number for v in HISTORY}
    assert "1.0-initial" in SHAPES and "1.0-origin" in SHAPES and "1.0-learner" in SHAPES
    for shape in SHAPES:
        assert {p.name for p in (VERSIONS / shape).iterdir()} == {"PROVENANCE.md", "records.parquet", "records.jsonl"}


def test_the_parquet_examples_have_the_shapes_their_folders_name():
    scores = {shape: pq.read_schema(VERSIONS / shape / "records.parquet").field("scores").type for shape in SHAPES}
    assert scores["1.0-initial"].get_field_index("learner") == -1
    assert scores["1.0-origin"].get_field_index("learner") == -1
    assert scores["1.0-learner"] == RECORD_SCHEMA.field("scores").type


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_example_reads_as_the_current_version(path):
    converted, task, rollout = read_records(path)
    shape = path.parent.name
    assert [r.schema_version for r in (converted, task, rollout)] == [SCHEMA_VERSION] * 3
    assert converted.source.format == "tau_bench" and converted.verifier.result.provenance == "imported"
    assert task.id.startswith("retail-constraint_first-") and not task.trajectory
    assert rollout.lineage.parents == [task.id] and rollout.verifier.result.passed is True
    assert rollout.scores.accuracy == 1.0 and 0 < rollout.scores.complexity < 1
    assert task.scores.extra["pass_rate"] == 1.0
    # What a shape lacks reads as its default; what it has is there.
    assert rollout.verifier.result.origin == (None if shape == "1.0-initial" else "computed")
    assert (
        rollout.scores.learner == task.scores.learner == (None if shape in ("1.0-initial", "1.0-origin") else LEARNER)
    )


@pytest.mark.parametrize("shape", SHAPES)
def test_parquet_and_jsonl_of_one_shape_read_the_same_records(shape):
    assert list(read_records(VERSIONS / shape / "records.parquet")) == list(
        read_records(VERSIONS / shape / "records.jsonl")
    )


def _holds(old, new) -> bool:
    """Whether ``new`` holds everything ``old`` holds: every key and value of a dict (JSON text read as JSON),
    every item of a list; a null in ``old`` is a field it lacked or left empty."""
    if isinstance(old, str) and isinstance(new, str) and old != new and old[:1] in "{[":
        return _holds(orjson.loads(old), orjson.loads(new))
    if isinstance(old, dict):
        return isinstance(new, dict) and all(v is None or (k in new and _holds(v, new[k])) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(old) == len(new) and all(map(_holds, old, new))
    return old == new


@pytest.mark.parametrize("shape", SHAPES)
def test_reading_drops_nothing_an_example_holds(shape):
    folder = VERSIONS / shape
    rows = pq.read_table(folder / "records.parquet").to_pylist()
    lines = [orjson.loads(line) for line in (folder / "records.jsonl").read_bytes().splitlines()]
    for row, line, record in zip(rows, lines, read_records(folder / "records.parquet"), strict=True):
        for stored, now in ((row, record_to_row(record)), (line, record.model_dump(mode="json"))):
            assert stored.pop("schema_version") == shape.split("-")[0]
            assert _holds(stored, now), shape
    assert not _holds({"a": 1}, {"a": 2}) and not _holds('{"a": 1}', '{"b": 1}')  # the check can fail


@pytest.mark.parametrize("shape", SHAPES)
def test_an_upgraded_example_written_again_is_current_and_reads_back_the_same(shape, tmp_path):
    records = list(read_records(VERSIONS / shape / "records.parquet"))
    write_records(records, tmp_path / "now.parquet")
    write_jsonl(records, tmp_path / "now.jsonl")
    assert pq.read_schema(tmp_path / "now.parquet").equals(RECORD_SCHEMA)
    assert list(read_records(tmp_path / "now.parquet")) == list(read_records(tmp_path / "now.jsonl")) == records


def test_an_older_batch_is_conformed_to_the_current_schema_with_null_for_what_it_lacks():
    batch = next(pq.ParquetFile(VERSIONS / "1.0-initial" / "records.parquet").iter_batches())
    assert schema_differences(batch.schema) == (["trajectory.decision", "source.agent", "scores.learner"], [], [])
    now = conform_record_batch(batch.slice(1))  # a slice, as a reader may hand one over
    assert now.schema.equals(RECORD_SCHEMA) and now.column("scores").field("learner").null_count == 2
    rows = now.to_pylist()
    assert [row["scores"].pop("learner") for row in rows] == [None, None]
    assert [row["source"].pop("agent") for row in rows] == [None, None]
    assert {step.pop("decision") for row in rows for step in row["trajectory"]} == {None}
    assert rows == batch.slice(1).to_pylist()
    upgraded = upgrade_record_batch(batch)
    assert upgraded.column("schema_version").to_pylist() == [SCHEMA_VERSION] * 3


def test_a_step_field_a_later_version_adds_needs_only_its_line_in_the_history(monkeypatch):
    """What the next field on a step needs (say TextObservation.decision): older files lack it in every step."""
    rows = pq.read_table(VERSIONS / "1.0-learner" / "records.parquet").to_pylist()
    without = pa.list_(pa.struct([f for f in STEP_TYPE if f.name != "reasoning"]))
    old_schema = RECORD_SCHEMA.set(RECORD_SCHEMA.get_field_index("trajectory"), pa.field("trajectory", without))
    old = pa.RecordBatch.from_pylist(rows, schema=old_schema)
    assert schema_differences(old.schema).problems()[0] == "missing column 'trajectory.reasoning'"
    monkeypatch.setattr(arrow_schema, "ADDED_ARROW_FIELDS", frozenset({"trajectory.reasoning"}))
    assert (
        schema_differences(old.schema) == (["trajectory.reasoning"], [], [])
        and not schema_differences(old.schema).problems()
    )
    steps = [step for row in conform_record_batch(old).to_pylist() for step in row["trajectory"] or []]
    assert len(steps) == sum(len(row["trajectory"] or []) for row in rows) > 20
    assert {step["reasoning"] for step in steps} == {None}
    assert [s["content"] for s in steps] == [s["content"] for row in rows for s in row["trajectory"] or []]


def test_a_parquet_file_of_a_newer_version_is_refused_in_one_line_never_read_without_its_field(tmp_path):
    newer = newer_parquet(tmp_path / "newer.parquet")
    assert schema_differences(pq.read_schema(newer)).unknown == ["scores.mood"]
    with pytest.raises(NewerSchemaError) as refused:
        list(read_records(newer))
    assert str(refused.value) == f"{newer}: written by a newer aceforge (schema {NEWER}); upgrade aceforge"
    same_version = newer_parquet(tmp_path / "same.parquet", SCHEMA_VERSION)  # a field no version has
    with pytest.raises(NewerSchemaError, match=rf"field scores\.mood is in no record schema up to {SCHEMA_VERSION}"):
        list(read_records(same_version))


def test_a_jsonl_record_of_a_newer_version_or_with_an_unknown_field_is_refused_in_one_line(tmp_path):
    line = next(read_records(VERSIONS / "1.0-initial" / "records.jsonl")).model_dump(mode="json")
    newer = tmp_path / "newer.jsonl"
    newer.write_bytes(orjson.dumps({**line, "schema_version": NEWER}) + b"\n")
    with pytest.raises(NewerSchemaError) as refused:
        list(read_records(newer))
    assert str(refused.value) == f"{newer} row 0: written by a newer aceforge (schema {NEWER}); upgrade aceforge"
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_bytes(orjson.dumps({**line, "task": {**line["task"], "mood": "calm"}}) + b"\n")
    with pytest.raises(SchemaError) as refused:
        list(read_records(unknown))
    assert str(refused.value) == (
        f"{unknown} row 0: field task.mood is in no record schema up to {SCHEMA_VERSION} (the data says schema "
        f"{SCHEMA_VERSION}): written by a newer aceforge? upgrade aceforge"
    )
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(orjson.dumps({**line, "schema_version": "one"}) + b"\n")
    with pytest.raises(
        SchemaError, match=re.escape(f"unknown schema_version 'one' (this aceforge reads {', '.join(sorted(KNOWN))})")
    ):
        list(read_records(garbage))
