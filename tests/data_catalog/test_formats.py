"""`--format auto` on every real sample in ../shared/fixtures: the format each was converted with in its own tests."""

from __future__ import annotations

import json

import pytest

from data_catalog.formats import DetectionError, candidates, detect
from tests.conftest import ADP_FIXTURES, FIXTURES, TAU_FIXTURES

RAW_FORMATS = {
    "agenttuning_alfworld": "sharegpt",
    "agenttuning_os": "sharegpt",
    "code_feedback": "sharegpt",
    "codeactinstruct": "sharegpt",
    "mini-coder": "mini_swe_agent",
    "nebius_SWE-agent-trajectories": "swe_agent",
    "nnetnav-live": "web_steps",
    "synatra": "synatra",
}
TAU2 = TAU_FIXTURES / "tau2-bench"
TAU_FILES = {
    TAU_FIXTURES / "tau-bench/historical_trajectories/gpt-4o-airline.excerpt.json": "tau_bench",
    TAU2 / "feature-gym/results/gpt-4.1_airline_default_gpt-4.1_1trials.json": "tau2_results",
    **{path: "tau2_tasks" for path in TAU2.glob("*/domains/*/tasks*.json")},
}
# τ² domain data beside the tasks (databases, splits): no format's records, so auto refuses them.
NOT_RECORDS = sorted(TAU2.glob("*/domains/*/*db.json")) + sorted(TAU2.glob("*/domains/*/split_tasks.json"))


def test_the_tables_cover_every_fixture():
    samples = {p for p in FIXTURES.rglob("*.json*")}
    covered = {
        *TAU_FILES,
        *NOT_RECORDS,
        *ADP_FIXTURES.glob("*/sample_raw.json*"),
        *ADP_FIXTURES.glob("*/sample_std.json"),
    }
    assert samples == covered and set(RAW_FORMATS) == {p.parent.name for p in ADP_FIXTURES.glob("*/sample_raw.json*")}


@pytest.mark.parametrize("dataset", sorted(RAW_FORMATS))
def test_adp_raw_samples_and_their_adp_conversions(dataset):
    (raw,) = (ADP_FIXTURES / dataset).glob("sample_raw.json*")
    assert detect(str(raw)).fmt == RAW_FORMATS[dataset]
    assert detect(str(ADP_FIXTURES / dataset / "sample_std.json")).fmt == "adp"


@pytest.mark.parametrize("path", sorted(TAU_FILES), ids=lambda p: str(p.relative_to(TAU_FIXTURES)))
def test_tau_files(path):
    assert detect(str(path)).fmt == TAU_FILES[path]


@pytest.mark.parametrize("path", NOT_RECORDS, ids=lambda p: str(p.relative_to(TAU_FIXTURES)))
def test_domain_data_is_refused(path):
    with pytest.raises(DetectionError, match="no registered format reads"):
        detect(str(path))


def test_chat_messages_go_where_they_are_read():
    """OpenAI's own call fields: openai_chat (sharegpt cannot read them); plain role/content turns:
    sharegpt (it reads the ReAct / CodeAct / markdown actions written in them)."""
    native = {"messages": [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f"}}]}]}
    plain = {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}
    assert candidates([native])[0].fmt == "openai_chat"
    assert candidates([plain])[0].fmt == "sharegpt"


def test_bad_lines_do_not_decide_the_format(tmp_path):
    """A cut first line is passed over and a record of no layout is outvoted: both are left to the conversion."""
    records = [json.dumps(r) for r in json.loads((ADP_FIXTURES / "agenttuning_os" / "sample_std.json").read_text())]
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join([records[0][:40], json.dumps({"id": "x", "dialog": []}), *records[1:5]]) + "\n")
    detection = detect(str(path))
    assert (detection.fmt, detection.records, detection.not_json, detection.unrecognized) == ("adp", 5, 1, 1)


def test_a_format_must_recognize_most_of_the_sample():
    adp = {"id": "a", "content": [{"class_": "message_action", "content": "hi"}]}
    odd = {"id": "x", "dialog": []}
    assert [c.fmt for c in candidates([adp, adp, odd])] == ["adp"]
    assert candidates([adp, odd]) == []  # one of two is not most
