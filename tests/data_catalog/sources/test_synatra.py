"""synatra: {prompt, response} web steps, checked against ADP's own output."""

from __future__ import annotations

import pytest

from data_catalog.sources import get_converter
from data_catalog.sources.synatra import response_action
from schemas.steps import ApiAction, MessageAction, TextObservation, WebObservation
from tests.conftest import ADP_FIXTURES
from tests.data_catalog.sources.conversion_helpers import convert_lines, kinds, load

RAW = ADP_FIXTURES / "synatra/sample_raw.json"
STD = ADP_FIXTURES / "synatra/sample_std.json"


@pytest.fixture(scope="module")
def raws():
    return load(RAW)


@pytest.fixture(scope="module")
def records(raws):
    converter = get_converter("synatra")
    return [converter.convert(r) for r in raws]


def test_step_kinds_agree_with_adp(records):
    for record, std in zip(records, load(STD)):
        # Deliberate difference: ADP drops the program's docstring (the system instruction); we keep it first.
        assert record.trajectory[0] == TextObservation(
            content="You are given an observation of a web page, an objective and past actions, your goal is to generate the next action given the current web page",
            source="system",
        )
        assert kinds(record.trajectory[1:]) == kinds(std["content"])


def test_content_hash_ids_are_distinct_and_stable(raws, records):
    assert len({r.id for r in records}) == 5 and all(r.source.original_id is None for r in records)
    assert [get_converter("synatra").convert(r).id for r in raws] == [r.id for r in records]


def test_objective_page_and_action(records):
    record = records[0]
    assert record.task.instruction == "Block access to social media on my Mac while I'm working using Cold Turkey."
    page = record.trajectory[2]
    assert isinstance(page, WebObservation) and page.url is None
    assert page.axtree.startswith("Tab 0 (current): Cold Turkey - Block Distracting Websites\n\n[1]  'Cold Turkey")
    assert page.axtree.endswith("[26] StaticText '© 2023 Cold Turkey Software. All rights reserved.'")
    action = record.trajectory[3]
    assert (action.function, action.kwargs) == ("click", {"element_id": "93"})
    assert [r.trajectory[3].kwargs["element_id"] for r in records] == ["93", "23", "54", "18", "40"]
    # The chain of thought that ADP's description leaves out is kept in the reasoning.
    assert 'Perform the next action—click the "Install" button' in action.reasoning
    assert action.reasoning.startswith("# sub-task 4: Install browser extensions")
    assert record.details["past_actions"].startswith(
        "def solve():\n\t# sub-task 1: Download Cold Turkey Basic for macOS"
    )


def test_axtree_is_the_page_only(records):
    # ADP's axtree runs on past the page into the past actions (with element_id renamed bid).
    adp_axtree = load(STD)[0]["content"][1]["axtree"]
    ours = records[0].trajectory[2].axtree
    assert adp_axtree.startswith(ours)
    assert adp_axtree[len(ours) :].startswith("\n\n# Previous Actions\ndef solve():") and "solve()" not in ours


def test_response_shapes():
    assert response_action('# step 3: done\nstop(answer="42")') == MessageAction(
        content="42", reasoning="# step 3: done"
    )
    assert response_action("type(element_id='5', string='hi')\n# summary") == ApiAction(
        function="type", kwargs={"element_id": "5", "string": "hi"}, reasoning="# summary"
    )
    assert response_action("# only comments") == MessageAction(content="# only comments")


def test_bad_records_are_quarantined(raws, tmp_path):
    no_observation = {**raws[1], "prompt": raws[1]["prompt"].replace('observation = """', "page = ")}
    no_response = {"prompt": raws[2]["prompt"]}
    list_prompt = {**raws[3], "prompt": ["x"]}
    stats, records, quarantine = convert_lines(
        "synatra", [raws[0], no_observation, no_response, list_prompt, raws[0], raws[4]], tmp_path
    )
    assert (stats.read, stats.converted, stats.quarantined) == (6, 2, 4)
    errors = [row["error"] for row in quarantine]
    assert errors[0].startswith("prompt lacks the observation")
    assert errors[1:3] == ["missing field 'response'", "field 'prompt' is list, expected str"]
    assert errors[3].startswith("duplicate record ")  # the same step twice has the same content hash
    assert errors[3].endswith("the same content as item 0") and quarantine[3]["index"] == 4
