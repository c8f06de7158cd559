"""Rows written straight from a chat converter's data equal the rows of the validated records, and a record
whose values Arrow refuses is quarantined with the model's reason while the rest of its chunk is written."""

from __future__ import annotations

import orjson
import pytest

from data_catalog.convert import convert_files
from data_catalog.sources import FORMATS, get_converter
from data_catalog.sources.chat_common import ChatConverter, chat_data
from schemas.arrow_schema import record_to_row, row_to_record
from schemas.io import iter_parquet_rows, read_records
from tests.conftest import ADP_FIXTURES, TAU_FIXTURES

SHAREGPT = ["agenttuning_alfworld", "agenttuning_os", "codeactinstruct", "code_feedback"]


def openai_samples() -> list[dict]:
    runs = orjson.loads((TAU_FIXTURES / "tau-bench/historical_trajectories/gpt-4o-airline.excerpt.json").read_bytes())
    return [{"id": f"{r['task_id']}-{r['trial']}", "messages": r["traj"], "model": "gpt-4o"} for r in runs]


@pytest.mark.parametrize("dataset", SHAREGPT)
def test_sharegpt_rows_from_data_are_the_rows_of_the_validated_records(dataset):
    converter = get_converter("sharegpt")
    for raw in orjson.loads((ADP_FIXTURES / dataset / "sample_raw.json").read_bytes()):
        record = converter.convert(raw)
        record_id, row = converter.convert_row(raw)
        assert record_id == record.id
        assert row_to_record(row) == record
        assert row.keys() == record_to_row(record).keys()


def test_openai_chat_rows_from_data_are_the_rows_of_the_validated_records():
    converter = get_converter("openai_chat")
    for raw in openai_samples():
        record = converter.convert(raw)
        assert row_to_record(converter.convert_row(raw)[1]) == record and record.environment.kind == "tool_use"


class UncheckedNames(ChatConverter):
    """A chat format that copies each message's name unchecked: the slip Arrow's typed conversion catches."""

    name = "unchecked_names"
    description = "test double"

    def record_data(self, raw):
        steps = [
            {"class_": "text_observation", "content": m["content"], "source": "user", "name": m.get("name"),
             "tool_call_id": None}
            for m in raw["messages"]
        ]  # fmt: skip
        return chat_data(self, raw, steps, [], ("messages",))


@pytest.fixture
def unchecked_names():
    FORMATS.register(UncheckedNames.name, UncheckedNames)
    yield UncheckedNames.name
    FORMATS.unregister(UncheckedNames.name)


def test_a_value_arrow_refuses_is_quarantined_with_the_models_reason(tmp_path, unchecked_names):
    good = {"id": "ok", "messages": [{"content": "Hi"}, {"content": "Hello"}]}
    bad = {"id": "bad", "messages": [{"content": "Hi", "name": 42}, {"content": "?"}]}
    path = tmp_path / "chats.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in (good, bad, {**good, "id": "ok2"})))
    stats = convert_files(unchecked_names, [str(path)], tmp_path / "chats.parquet")
    (row,) = iter_parquet_rows(stats.quarantine)
    assert (stats.converted, stats.quarantined) == (2, 1)
    assert [r.source.original_id for r in read_records(tmp_path / "chats.parquet")] == ["ok", "ok2"]
    assert row["index"] == 1 and row["error"].startswith("ValidationError") and "name" in row["error"]
