"""The adp converter: every ADP sample_std.json imports, exports back to the same ADP v1 steps
(validated by ADP's JSON schema), and survives a round trip through Parquet."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from data_catalog.sources import get_converter
from data_catalog.sources.base import ConvertOptions
from schemas.adp import record_to_adp
from schemas.io import read_records, write_records
from tests.conftest import ADP_FIXTURES, ROOT
from tests.data_catalog.sources.conversion_helpers import convert_lines, load

STD_FILES = sorted(ADP_FIXTURES.glob("*/sample_std.json"))
ADP_SCHEMA = json.loads((ROOT.parent / "shared" / "adp-v1.schema.json").read_text())


def test_every_fixture_dataset_is_covered():
    assert {p.parent.name for p in STD_FILES} >= {
        "agenttuning_alfworld",
        "agenttuning_os",
        "codeactinstruct",
        "code_feedback",
        "synatra",
        "nnetnav-live",
    }


@pytest.mark.parametrize("path", STD_FILES, ids=lambda p: p.parent.name)
def test_export_reproduces_the_input_and_validates(path: Path, tmp_path):
    converter = get_converter("adp")
    originals = load(path)
    records = [converter.convert(raw) for raw in originals]
    for raw, record in zip(originals, records):
        exported = record_to_adp(record)
        jsonschema.validate(exported, ADP_SCHEMA)
        assert exported == {"id": raw["id"], "content": raw["content"], "details": raw["details"]}
    out = tmp_path / "adp.parquet"
    assert write_records(records, out) == len(records)
    back = list(read_records(out))
    assert back == records
    assert [record_to_adp(r)["content"] for r in back] == [raw["content"] for raw in originals]


def test_reasoning_is_adp_description():
    raw = load(ADP_FIXTURES / "agenttuning_os" / "sample_std.json")[0]
    record = get_converter("adp").convert(raw)
    assert (
        record.trajectory[1].reasoning
        == raw["content"][1]["description"]
        == "To count the files in /etc, I need to print all the files in it."
    )
    assert record.task.instruction == raw["content"][0]["content"]
    assert record.source.original_id == "os_42" and record.source.format == "adp"


def test_bad_records_are_quarantined_with_reasons(tmp_path):
    good = load(ADP_FIXTURES / "agenttuning_os" / "sample_std.json")[0]
    lines = [
        good,
        {"id": "b1"},
        {"id": "b2", "content": "not a list"},
        {"id": "b3", "content": [{"class_": "teleport_action", "where": "mars"}]},
        {"id": "b4", "content": [{"class_": "api_action", "kwargs": {}}]},
        {"content": []},
        '{"id": "b6", "content": [',
    ]
    stats, records, quarantine = convert_lines("adp", lines, tmp_path)
    assert (stats.read, stats.converted, stats.quarantined) == (7, 1, 6)
    assert records[0].source.original_id == "os_42"
    errors = [q["error"] for q in quarantine]
    assert errors[0] == "missing field 'content'"
    assert errors[1] == "field 'content' is str, expected list"
    assert "teleport_action" in errors[2] and errors[2].startswith("ValidationError")
    assert "function" in errors[3] and "Field required" in errors[3]
    assert errors[4] == "missing field 'id'"
    assert errors[5].startswith("invalid JSON line")


def test_ids_survive_an_adp_round_trip_of_another_format(tmp_path):
    """export-adp then convert --format adp: the same record id, whatever --dataset says; an edited export
    is other content and gets an id of its own."""
    raw = {"id": "c1", "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}
    record = get_converter("openai_chat", ConvertOptions(dataset="chats")).convert(raw)
    exported = json.loads(json.dumps(record_to_adp(record)))
    back = get_converter("adp", ConvertOptions(dataset="other")).convert(exported)
    assert back.id == record.id
    exported["content"][1]["content"] = "Hello there"
    assert get_converter("adp", ConvertOptions(dataset="other")).convert(exported).id != record.id
