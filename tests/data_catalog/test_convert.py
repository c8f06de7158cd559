"""convert_files: counts kept where things happen, ids that never collide, duplicates traced to file and
line, quarantine reasons grouped by kind, and the same output from worker processes."""

from __future__ import annotations

from dataclasses import replace

import orjson
import pytest

from data_catalog import convert_chunks
from data_catalog.convert import CountMismatch, convert_files, error_kind
from data_catalog.sources import get_converter
from data_catalog.sources.base import ConvertOptions
from data_catalog.sources.reader import read_raw_chunks
from data_catalog.sources.web_steps import WebStepsConverter
from runtime import executor
from runtime.executor import ProcessExecutor
from schemas.io import iter_parquet_rows, read_records
from tests.conftest import ADP_FIXTURES


def write_jsonl(path, rows):
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    return str(path)


def chat(text: str, record_id: str = "c1") -> dict:
    return {"id": record_id, "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": text}]}


def test_two_sources_reusing_an_original_id_keep_both_records(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", [chat("Hello from A")])
    b = write_jsonl(tmp_path / "b.jsonl", [chat("Hello from B")])
    stats = convert_files("openai_chat", [a, b], tmp_path / "chats.parquet")
    records = list(read_records(tmp_path / "chats.parquet"))
    assert (stats.converted, stats.quarantined) == (2, 0)
    assert [r.source.original_id for r in records] == ["c1", "c1"] and records[0].id != records[1].id
    # The dataset is the output's stem (as --dataset's help says), not the format's name.
    assert {r.source.dataset for r in records} == {"chats"} and records[0].id.startswith("chats-")


def test_the_same_content_twice_is_one_record_and_a_traced_duplicate(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", [chat("Same"), chat("Other", "c2")])
    b = write_jsonl(tmp_path / "b.jsonl", [chat("Same")])
    stats = convert_files("openai_chat", [a, b], tmp_path / "out.parquet")
    (row,) = iter_parquet_rows(stats.quarantine)
    first = next(read_records(tmp_path / "out.parquet"))
    assert (stats.read, stats.converted, stats.quarantined) == (3, 2, 1)
    assert (row["source"], row["index"]) == (b, 0)
    assert row["error"] == f"duplicate record {first.id!r}: the same content as item 0 of {a}"
    assert orjson.loads(row["raw_excerpt"]) == chat("Same")


def test_adp_datasets_that_reuse_ids_keep_every_distinct_trajectory(tmp_path):
    """Several ADP datasets number their records "0", "1", ... in each file: only true repeats are duplicates."""
    os_std = orjson.loads((ADP_FIXTURES / "agenttuning_os/sample_std.json").read_bytes())
    alf_std = orjson.loads((ADP_FIXTURES / "agenttuning_alfworld/sample_std.json").read_bytes())
    lines = [{**os_std[0], "id": "0"}, {**alf_std[0], "id": "0"}, {**os_std[0], "id": "0"}]
    path = write_jsonl(tmp_path / "adp.jsonl", lines)
    stats = convert_files("adp", [path], tmp_path / "adp.parquet")
    records = list(read_records(tmp_path / "adp.parquet"))
    (row,) = iter_parquet_rows(stats.quarantine)
    assert (stats.converted, stats.quarantined) == (2, 1)
    assert [r.source.original_id for r in records] == ["0", "0"] and records[0].id != records[1].id
    assert (row["source"], row["index"]) == (path, 2) and row["error"].endswith("the same content as item 0")
    assert row["raw_excerpt"].startswith(orjson.dumps(lines[2])[:1000].decode())  # the line itself, not its id


def test_read_is_counted_where_it_is_read_so_a_lost_record_is_an_error(tmp_path, monkeypatch):
    real = convert_chunks.convert_chunk

    def lossy(converter, chunk):  # a bug that drops a converted record silently
        result = real(converter, chunk)
        return replace(result, batch=result.batch.slice(1), ids=result.ids[1:], positions=result.positions[1:])

    monkeypatch.setattr(convert_chunks, "convert_chunk", lossy)
    path = write_jsonl(tmp_path / "in.jsonl", [chat("a"), chat("b", "c2"), chat("c", "c3")])
    with pytest.raises(CountMismatch, match="3 read but 2 converted"):
        convert_files("openai_chat", [path], tmp_path / "out.parquet")


def test_a_grouping_format_that_loses_a_trajectory_is_an_error(tmp_path, monkeypatch):
    class LossyGroups(WebStepsConverter):
        def convert_stream(self, items):
            yield from list(super().convert_stream(items))[1:]

    monkeypatch.setattr("data_catalog.sources.get_converter", lambda fmt, options: LossyGroups(options))
    rows = ADP_FIXTURES / "nnetnav-live/sample_raw.json"
    with pytest.raises(CountMismatch, match="30 raw items read but 28 in records and quarantine"):
        convert_files("web_steps", [str(rows)], tmp_path / "out.parquet")


def test_failures_are_summed_by_kind_with_example_positions(tmp_path):
    unanswered = [
        {"id": f"r{i}", "messages": [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": f"call_{i}"}]}
        for i in range(100)
    ]
    roles = [{"id": f"s{i}", "messages": [{"role": "robot", "content": "beep"}]} for i in range(2)]
    path = write_jsonl(tmp_path / "bad.jsonl", unanswered + roles)
    stats = convert_files("openai_chat", [path], tmp_path / "bad.parquet")
    unanswered_kind = "messages[N]: tool result for tool_call_id '…' answers no earlier call"
    assert stats.top_errors(3) == [(unanswered_kind, 100), ("messages[N]: unknown role 'robot'", 2)]
    assert stats.examples[unanswered_kind] == [f"{path}:0", f"{path}:1", f"{path}:2"]
    assert stats.examples["messages[N]: unknown role 'robot'"] == [f"{path}:100", f"{path}:101"]


def test_error_kinds_drop_particulars_and_keep_names():
    assert error_kind("missing field 'content'") == "missing field 'content'"
    assert error_kind("invalid JSON line: unexpected character: line 1 column 7 (char 6)") == (
        "invalid JSON line: unexpected character: line N column N (char N)"
    )
    pydantic = "ValidationError: 1 validation error for AgentRecord\ntrajectory.3.api_action.function\n  Field required [type=missing, input_value={}, input_type=dict]"
    assert error_kind(pydantic) == "ValidationError: trajectory.N.api_action.function: Field required"


@pytest.mark.parametrize("layout", ["jsonl", "json_array", "two_files"])
def test_workers_write_the_same_output_as_one_process(tmp_path, monkeypatch, layout):
    raw = orjson.loads((ADP_FIXTURES / "codeactinstruct/sample_raw.json").read_bytes())
    rows = [{**r, "id": f"{r['id']}-{i}"} for i in range(40) for r in raw]
    rows += [{"id": "bad"}, rows[0]]  # a bad record and a repeat of the first, at 200 and 201
    if layout == "json_array":
        (tmp_path / "in.json").write_bytes(orjson.dumps(rows))
        inputs = [str(tmp_path / "in.json")]
    elif layout == "two_files":
        inputs = [write_jsonl(tmp_path / "a.jsonl", rows[:101]), write_jsonl(tmp_path / "b.jsonl", rows[101:])]
    else:
        inputs = [write_jsonl(tmp_path / "in.jsonl", rows)]
    same = ConvertOptions(dataset="codeact")
    one = convert_files("sharegpt", inputs, tmp_path / "one.parquet", options=same)
    monkeypatch.setattr("data_catalog.sources.reader.CHUNK_BYTES", 16_000)  # many chunks, several per worker
    two = convert_files("sharegpt", inputs, tmp_path / "two.parquet", options=same, executor=ProcessExecutor(2))
    assert two.workers == 2 and (two.read, two.converted, two.quarantined) == (one.read, one.converted, 2) == (
        202,
        200,
        2,
    )
    assert list(iter_parquet_rows(tmp_path / "two.parquet")) == list(iter_parquet_rows(tmp_path / "one.parquet"))
    quarantine = list(iter_parquet_rows(two.quarantine))
    assert quarantine == list(iter_parquet_rows(one.quarantine))
    assert [(r["source"], r["index"]) for r in quarantine] == [
        (inputs[-1], i) for i in ((99, 100) if layout == "two_files" else (200, 201))
    ]


def test_a_worker_hands_its_batch_over_through_the_spool_or_pickled_when_it_is_full(tmp_path):
    raw = orjson.loads((ADP_FIXTURES / "codeactinstruct/sample_raw.json").read_bytes())
    path = write_jsonl(tmp_path / "in.jsonl", raw)
    converter = get_converter("sharegpt", ConvertOptions(dataset="codeact"))
    (chunk,) = read_raw_chunks(path, converter.items)
    result = convert_chunks.convert_chunk(converter, chunk)
    spool = tmp_path / "spool"
    spool.mkdir()
    handed = executor._spooled(result, str(spool / "7"))
    assert handed[1] == str(spool / "7") and len(handed[0]) < result.batch.nbytes  # the columns went to the file
    assert executor._unspooled(*handed).batch.equals(result.batch) and not list(spool.iterdir())
    fallback = executor._spooled(result, str(tmp_path / "no such folder" / "8"))  # cannot be written: pickled
    assert fallback[1] is None and executor._unspooled(*fallback).batch.equals(result.batch)


@pytest.mark.parametrize("model_refuses", [False, True])
def test_a_batch_arrow_refuses_is_converted_record_by_record_from_the_chunk(tmp_path, monkeypatch, model_refuses):
    # convert_chunk lets each raw value go once its row is made; when Arrow refuses the chunk's rows, each record
    # is read from the chunk again and goes through the validating model: kept if it validates, else quarantined.
    path = write_jsonl(tmp_path / "in.jsonl", [chat("first", "a"), chat("second", "b"), chat("third", "c")])
    converter = get_converter("openai_chat", ConvertOptions(dataset="in"))
    convert_row, convert = converter.convert_row, converter.convert

    def bad_row_for_b(raw):
        record_id, row = convert_row(raw)
        return record_id, {**row, "num_steps": "two"} if raw["id"] == "b" else row

    def refuses_b(raw):
        if model_refuses and raw["id"] == "b":
            raise ValueError("record b is wrong")
        return convert(raw)

    monkeypatch.setattr(converter, "convert_row", bad_row_for_b)
    monkeypatch.setattr(converter, "convert", refuses_b)
    (chunk,) = read_raw_chunks(path, converter.items)
    result = convert_chunks.convert_chunk(converter, chunk)
    kept = ["a", "c"] if model_refuses else ["a", "b", "c"]
    assert [source["original_id"] for source in result.batch.column("source").to_pylist()] == kept
    assert result.positions == [(i, i) for i in ((0, 2) if model_refuses else (0, 1, 2))]
    assert result.batch.column("num_steps").to_pylist() == [2] * len(kept)
    assert [(index, error) for index, error, _ in result.quarantined] == (
        [(1, "ValueError: record b is wrong")] if model_refuses else []
    )
    if model_refuses:
        assert '"id":"b"' in result.quarantined[0][2]  # the raw record's excerpt
