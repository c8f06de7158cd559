"""mini_swe_agent: mini-coder trajectories, checked against ADP's own standardized output."""

from __future__ import annotations

import copy

import pytest

from data_catalog.sources import get_converter
from data_catalog.sources.mini_swe_agent import assistant_step
from schemas.steps import ApiAction, CodeAction, MessageAction, TextObservation
from tests.conftest import ADP_FIXTURES
from tests.data_catalog.sources.conversion_helpers import convert_lines, drop_adp_synthetic_finish, kinds, load

RAW = ADP_FIXTURES / "mini-coder/sample_raw.json"
STD = ADP_FIXTURES / "mini-coder/sample_std.json"


@pytest.fixture(scope="module")
def raw():
    return load(RAW)[0]


@pytest.fixture(scope="module")
def record(raw):
    return get_converter("mini_swe_agent").convert(raw)


def test_step_kinds_agree_with_adp(record):
    std = load(STD)[0]
    assert record.source.original_id == std["id"] == "mozilla__bleach.73871d76.func_pm_remove_cond__lq60cp3u"
    # Deliberate differences: we keep the system prompt (ADP drops it) and add no synthetic finish turns.
    assert record.trajectory[0].source == "system"
    assert kinds(record.trajectory[1:]) == kinds(drop_adp_synthetic_finish(std["content"]))
    assert len(record.trajectory) == 17


def test_bash_turns_become_code_actions_with_thoughts(record):
    step = record.trajectory[2]
    assert step == CodeAction(language="bash", content="ls -la bleach/", reasoning=step.reasoning)
    assert step.reasoning.startswith("I need to examine the HTML serializer code")
    assert [s.content for s in record.trajectory if isinstance(s, CodeAction)][
        3
    ] == "sed -i 's/            pass/            yield stoken/' bleach/html5lib_shim.py"
    # The final turn calls submit; ADP keeps "THOUGHT: " in its description, we strip it like every other thought.
    assert record.trajectory[-1] == ApiAction(function="submit", kwargs={}, reasoning=record.trajectory[-1].reasoning)
    assert record.trajectory[-1].reasoning.startswith("Perfect! The fix has been successfully implemented")
    assert load(STD)[0]["content"][-3]["description"].startswith("THOUGHT: Perfect!")


def test_observations_are_kept_as_the_agent_saw_them(record):
    # ADP strips the <returncode>/<output> wrapper (losing the exit code); we keep the turn verbatim.
    observation = record.trajectory[5]
    assert observation == TextObservation(
        content="<returncode>0</returncode>\n<output>\n720:class BleachHTMLSerializer(HTMLSerializer):\n</output>",
        source="environment",
    )
    assert load(STD)[0]["content"][4]["content"] == "720:class BleachHTMLSerializer(HTMLSerializer):"


def test_task_verdict_and_details(record):
    assert record.task.instruction == "Fix the bug in the HTML serializer that causes it to return empty output."
    assert record.trajectory[1] == TextObservation(content=record.task.instruction, source="user")
    assert record.verifier.kind == "unit_tests" and record.verifier.result.passed is True
    assert record.details["patch"].startswith("diff --git a/bleach/html5lib_shim.py")
    assert record.lineage.generator == {"agent": "mini-swe-agent", "model": "qwen3-coder-30b"}


def test_assistant_turn_shapes():
    assert assistant_step("THOUGHT: look\n\n```bash\nls\n```") == CodeAction(
        language="bash", content="ls", reasoning="look"
    )
    two = "THOUGHT: both\n```bash\nls\n```\n```bash\npwd\n```"
    assert assistant_step(two) == MessageAction(content=two)
    call = "THOUGHT: run it\n<function=bash>\n<parameter=command>\npytest -q\n</parameter>\n</function>"
    assert assistant_step(call) == CodeAction(language="bash", content="pytest -q", reasoning="run it")
    edit = "<function=str_replace_editor>\n<parameter=command>view</parameter>\n<parameter=path>/a.py</parameter>\n</function>"
    assert assistant_step(edit) == ApiAction(function="str_replace_editor", kwargs={"command": "view", "path": "/a.py"})


def test_bad_records_are_quarantined(raw, tmp_path):
    unknown_role = copy.deepcopy(raw)
    unknown_role["messages"][3]["role"] = "tool"
    list_content = copy.deepcopy(raw)
    list_content["messages"][2]["content"] = [{"type": "text", "text": "hi"}]
    no_user = {**raw, "id": "no-user", "messages": [m for m in raw["messages"] if m["role"] != "user"]}
    text_verified = {**raw, "id": "x", "verified": "yes"}
    no_messages = {"id": "y", "patch": ""}
    string_message = {"id": "z", "messages": ["hi"]}
    lines = [unknown_role, list_content, no_user, text_verified, no_messages, string_message, raw]
    stats, records, quarantine = convert_lines("mini_swe_agent", lines, tmp_path)
    assert (stats.read, stats.converted, stats.quarantined) == (7, 1, 6)
    assert [row["error"] for row in quarantine] == [
        "messages[3]: unknown role 'tool'",
        "messages[2]: content is list, expected a string",
        "messages have no user turn (the task)",
        "field 'verified' is str, expected bool",
        "missing field 'messages'",
        "messages[0] is str, expected an object",
    ]
    assert records[0].source.original_id == raw["id"]
