"""web_steps: nnetnav-live step rows grouped into trajectories, checked against ADP's own output."""

from __future__ import annotations

import copy

import orjson
import pytest

from data_catalog.convert import convert_files
from data_catalog.sources import get_converter
from data_catalog.sources.base import ConvertOptions, RawItem
from data_catalog.sources.web_steps import parse_action
from schemas.steps import ApiAction, MessageAction, TextObservation, WebObservation
from tests.conftest import ADP_FIXTURES
from tests.data_catalog.sources.conversion_helpers import convert_lines, kinds, load

RAW = ADP_FIXTURES / "nnetnav-live/sample_raw.json"
STD = ADP_FIXTURES / "nnetnav-live/sample_std.json"


@pytest.fixture(scope="module")
def rows():
    return load(RAW)


def _convert(rows, **options):
    converter = get_converter("web_steps", ConvertOptions(extra=options))
    return [r.record for r in converter.convert_stream(RawItem("sample", i, r) for i, r in enumerate(rows))]


@pytest.fixture(scope="module")
def records(rows):
    return _convert(rows)


def test_thirty_rows_make_five_trajectories_like_adp(records):
    adp = load(STD)
    assert (
        [r.source.original_id for r in records]
        == [a["id"] for a in adp]
        == ["openweb_6442", "openweb_4613", "openweb_786", "openweb_2984", "openweb_2992"]
    )
    for record, std in zip(records, adp):
        # Deliberate difference: ADP drops the system prompt; we keep it first.
        assert record.trajectory[0].source == "system"
        assert kinds(record.trajectory[1:]) == kinds(std["content"])
    assert [len(r.trajectory) for r in records] == [6, 20, 12, 12, 20]


def test_steps_hold_page_and_action(records):
    steps = records[0].trajectory
    assert steps[1] == TextObservation(
        content="Evaluate the limit of the expression (sin x - x)/x^3 as x approaches 0 using Wolfram Alpha.",
        source="user",
    )
    assert records[0].task.instruction == steps[1].content
    page = steps[2]
    assert isinstance(page, WebObservation) and page.url == "https://www.wolframalpha.com/"
    assert page.axtree.startswith("RootWebArea 'Wolfram|Alpha: Computational Intelligence', focused")
    assert page.axtree == load(STD)[0]["content"][1]["axtree"]
    action = steps[3]
    assert (action.function, action.kwargs) == (
        "type",
        {"id": "89", "content": "limit ((sin x - x)/x^3) as x->0", "press_enter_after": 1},
    )
    assert action.reasoning.startswith("Let's think step-by-step. The current webpage is the Wolfram Alpha homepage")
    assert steps[5] == MessageAction(content="-1/6", reasoning=steps[5].reasoning)


def test_differences_from_adp_actions_are_deliberate(records):
    std = load(STD)[0]["content"]
    # ADP reads `type [89] [...] [1]` as press_enter_after "0" (it needs four "[" for the flag); the raw says 1.
    assert std[2]["kwargs"] == {"bid": '"89"', "text": '"limit ((sin x - x)/x^3) as x->0"', "press_enter_after": "0"}
    assert records[0].trajectory[3].kwargs["press_enter_after"] == 1
    # ADP wraps the final answer in <finish> tags; we keep the answer as the message.
    assert std[-1]["content"] == "<finish> -1/6 </finish>" and records[0].trajectory[-1].content == "-1/6"


def test_actions_in_order_of_previous_actions(records):
    actions = [
        (s.function, s.kwargs) if isinstance(s, ApiAction) else ("stop", s.content)
        for s in records[4].trajectory
        if s.class_ != "web_observation" and s.class_ != "text_observation"
    ]
    assert [a[0] for a in actions] == ["type", "scroll", "click", "scroll", "click", "click", "type", "click", "stop"]
    assert actions[1][1] == {"direction": "down"}
    assert records[4].details["n_tokens"] == [5089, 5091, 1816, 2768, 10908, 10917, 10940, 1886, 8589]
    assert "step_numbers" not in records[4].details


def test_shuffled_rows_are_put_back_in_order(rows):
    group = [r for r in rows if r["id"] == "openweb_786"]
    record = _convert(list(reversed(group)))[0]
    assert [s.url for s in record.trajectory if isinstance(s, WebObservation)][:2] == [
        "https://www.apple.com/",
        "https://support.apple.com/?cid=gn-ols-home-hp-tab",
    ]
    assert record.id == _convert(group)[0].id  # the id hashes the rows, whatever their order


def test_a_json_array_of_rows_counts_rows_and_trajectories(rows, tmp_path):
    path = tmp_path / "steps.json"
    path.write_bytes(orjson.dumps(rows))
    stats = convert_files("web_steps", [str(path)], tmp_path / "web.parquet")
    assert (stats.raw_items, stats.read, stats.converted, stats.quarantined) == (30, 5, 5, 0)
    assert stats.as_dict()["raw_items"] == 30 and stats.as_dict()["read"] == 5


def test_interleaved_trajectories_within_the_window_are_grouped(rows):
    a = [r for r in rows if r["id"] == "openweb_6442"]
    b = [r for r in rows if r["id"] == "openweb_786"]
    records = _convert([a[0], b[0], b[1], a[1], *b[2:]])
    assert [(r.source.original_id, len(r.trajectory)) for r in records] == [("openweb_6442", 6), ("openweb_786", 12)]


def test_a_row_after_its_trajectory_was_written_is_quarantined(rows, tmp_path):
    a = [r for r in rows if r["id"] == "openweb_6442"]
    b = [r for r in rows if r["id"] == "openweb_786"]
    stats, records, quarantine = convert_lines("web_steps", [a[0], *b, a[1]], tmp_path, open_groups="1")
    # read counts trajectories (two, plus the late row on its own), rows the step rows: both reported.
    assert (stats.raw_items, stats.read, stats.converted, stats.quarantined) == (7, 3, 2, 1)
    assert quarantine[0]["index"] == 6
    assert quarantine[0]["error"].startswith(
        "step of trajectory 'openweb_6442' comes after that trajectory was written"
    )
    assert records[0].details["n_tokens"] == [5102]


def test_action_shapes():
    assert parse_action("so ```click [12]```.") == ApiAction(function="click", kwargs={"id": "12"}, reasoning="so")
    assert parse_action("```type [7] [a [b] c] [0]```").kwargs == {
        "id": "7",
        "content": "a [b] c",
        "press_enter_after": 0,
    }
    assert parse_action("```goto [https://x.org]```").kwargs == {"url": "https://x.org"}
    assert parse_action("```tab_focus [2]```").kwargs == {"tab_index": 2}
    # The argument names itself (nnetnav-wa writes it so): its value is what follows the "=".
    assert parse_action("```scroll [direction=down]```").kwargs == {"direction": "down"}
    assert parse_action("```tab_focus [tab_index=3]```").kwargs == {"tab_index": 3}
    assert parse_action("```goto [https://x.org/?q=a]```").kwargs == {"url": "https://x.org/?q=a"}
    assert parse_action("```go_back```") == ApiAction(function="go_back", kwargs={})
    # Not an action of this action space (or no code span): the turn is kept as a message.
    assert parse_action("```fill [3] [x]```") == MessageAction(content="```fill [3] [x]```")
    assert parse_action("I give up") == MessageAction(content="I give up")


def test_bad_rows_are_quarantined(rows, tmp_path):
    group = [r for r in rows if r["id"] == "openweb_6442"]
    no_page = copy.deepcopy(group[1])
    no_page["messages"][1]["content"] = "just some text"
    extra_role = copy.deepcopy(group[1])
    extra_role["messages"].append({"role": "tool", "content": "x"})
    no_id = {k: v for k, v in group[1].items() if k != "id"}
    stats, records, quarantine = convert_lines(
        "web_steps", [group[0], no_page, extra_role, no_id, "{oops", group[1]], tmp_path
    )
    assert (stats.raw_items, stats.read, stats.converted, stats.quarantined) == (6, 5, 1, 4)
    assert [row["error"] for row in quarantine][:4] == [
        "user turn lacks the URL / OBJECTIVE / PREVIOUS ACTIONS sections of a rendered page",
        "messages[3]: unexpected role 'tool' (a step is one system, user and assistant turn)",
        "missing field 'id'",
        quarantine[3]["error"],
    ]
    assert quarantine[3]["error"].startswith("invalid JSON line")
    assert len(records[0].trajectory) == 6 and records[0].details.get("step_numbers") is None


def test_open_groups_must_be_a_positive_integer():
    with pytest.raises(ValueError, match="option open_groups must be a positive integer, not '0'"):
        get_converter("web_steps", ConvertOptions(extra={"open_groups": "0"}))
