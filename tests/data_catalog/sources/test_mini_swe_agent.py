"""mini_swe_agent: mini-coder trajectories, checked against ADP's own standardized output."""

from __future__ import annotations

import copy

import orjson
import pytest
from pydantic import TypeAdapter

from data_catalog.convert import convert_files
from data_catalog.sources import get_converter
from data_catalog.sources.mini_swe_agent import assistant_step
from schemas.io import read_records
from schemas.steps import ApiAction, CodeAction, MessageAction, Step, TextObservation
from tests.conftest import ADP_FIXTURES
from tests.data_catalog.sources.conversion_helpers import convert_lines, drop_adp_synthetic_finish, kinds, load
from tests.data_catalog.sources.fidelity import identity

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
    assert identity(record) == ("mini-swe-agent", "qwen3-coder-30b", None, []) and record.lineage.generator is None


def _step(text):
    return TypeAdapter(Step).validate_python(assistant_step(text))


def test_assistant_turn_shapes():
    assert _step("THOUGHT: look\n\n```bash\nls\n```") == CodeAction(language="bash", content="ls", reasoning="look")
    two = "THOUGHT: both\n```bash\nls\n```\n```bash\npwd\n```"
    assert _step(two) == MessageAction(content=two)
    call = "THOUGHT: run it\n<function=bash>\n<parameter=command>\npytest -q\n</parameter>\n</function>"
    assert _step(call) == CodeAction(language="bash", content="pytest -q", reasoning="run it")
    edit = "<function=str_replace_editor>\n<parameter=command>view</parameter>\n<parameter=path>/a.py</parameter>\n</function>"
    assert _step(edit) == ApiAction(function="str_replace_editor", kwargs={"command": "view", "path": "/a.py"})


def test_bad_records_are_quarantined(raw, tmp_path):
    unknown_role = copy.deepcopy(raw)
    unknown_role["messages"][3]["role"] = "robot"
    stray_result = copy.deepcopy(raw)
    stray_result["messages"][3]["role"] = "tool"
    number_content = copy.deepcopy(raw)
    number_content["messages"][2]["content"] = 7
    no_user = {**raw, "id": "no-user", "messages": [m for m in raw["messages"] if m["role"] != "user"]}
    text_verified = {**raw, "id": "x", "verified": "yes"}
    no_messages = {"id": "y", "patch": ""}
    string_message = {"id": "z", "messages": ["hi"]}
    lines = [unknown_role, stray_result, number_content, no_user, text_verified, no_messages, string_message, raw]
    stats, records, quarantine = convert_lines("mini_swe_agent", lines, tmp_path)
    assert (stats.read, stats.converted, stats.quarantined) == (8, 1, 7)
    assert [row["error"] for row in quarantine] == [
        "messages[3]: unknown role 'robot'",
        "messages[3]: tool result answers no earlier call",
        "messages[2]: content is int, expected a string or a list of parts",
        "messages have no user turn (the task)",
        "field 'verified' is str, expected bool",
        "missing field 'messages'",
        "messages[0] is str, expected an object",
    ]
    assert records[0].source.original_id == raw["id"]


# mini-swe-agent v2's own save file (<instance>.traj.json): its command fence is ```mswea_bash_command.
SAVED_V2 = {
    "info": {
        "model_stats": {"instance_cost": 0.02, "api_calls": 2},
        "config": {"model": {"model_name": "anthropic/claude-sonnet-4-5"}},
        "mini_version": "2.0.0",
        "exit_status": "Submitted",
        "submission": "diff --git a/x.py b/x.py\n",
    },
    "messages": [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "<pr_description>\nFix x\n</pr_description>"},
        {
            "role": "assistant",
            "content": "THOUGHT: Look at x.\n\n```mswea_bash_command\ncat x.py\n```",
            "extra": {"actions": [{"command": "cat x.py"}], "cost": 0.01},
        },
        {
            "role": "user",
            "content": "<returncode>0</returncode>\n<output>\nx = 1\n</output>",
            "extra": {"returncode": 0},
        },
        {
            "role": "assistant",
            "content": "THOUGHT: Submit.\n\n```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```",
        },
        {
            "role": "exit",
            "content": "diff --git a/x.py b/x.py\n",
            "extra": {"exit_status": "Submitted", "submission": "diff --git a/x.py b/x.py\n"},
        },
    ],
    "trajectory_format": "mini-swe-agent-1.1",
}


def test_saved_trajectory_file(tmp_path):
    path = tmp_path / "psf__requests-1963.traj.json"
    path.write_bytes(orjson.dumps(SAVED_V2, option=orjson.OPT_INDENT_2))
    stats = convert_files("mini_swe_agent", [str(path)], tmp_path / "mini.parquet")
    (record,) = read_records(tmp_path / "mini.parquet")
    assert (stats.converted, stats.quarantined) == (1, 0)
    assert record.source.original_id == "psf__requests-1963" and record.task.instruction == "Fix x"
    assert record.trajectory[2] == CodeAction(language="bash", content="cat x.py", reasoning="Look at x.")
    assert [s.class_ for s in record.trajectory] == [
        "text_observation",
        "text_observation",
        "code_action",
        "text_observation",
        "code_action",
    ]  # the exit message is not a step
    assert record.details["exit_status"] == "Submitted" and record.details["submission"].startswith("diff --git")
    assert record.verifier.kind == "none"  # no verdict in the file
    assert identity(record) == ("mini-swe-agent", "anthropic/claude-sonnet-4-5", "2.0.0", [])
    assert record.lineage.usage == {"instance_cost": 0.02, "api_calls": 2}


def test_bare_message_list_and_tool_calling_mode(tmp_path):
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Fix y"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_7", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_7", "content": "<returncode>0</returncode>\n<output>\ny.py\n</output>"},
    ]
    path = tmp_path / "messages.json"
    path.write_bytes(orjson.dumps(messages, option=orjson.OPT_INDENT_2))
    stats = convert_files("mini_swe_agent", [str(path)], tmp_path / "bare.parquet")
    (record,) = read_records(tmp_path / "bare.parquet")
    assert (stats.read, stats.converted) == (1, 1)  # one conversation, not four records
    assert record.trajectory[2] == CodeAction(language="bash", content="ls", tool_call_id="call_7")
    assert (record.trajectory[3].source, record.trajectory[3].tool_call_id) == ("tool", "call_7")


def test_verdict_carries_the_exit_status(raw):
    record = get_converter("mini_swe_agent").convert({**raw, "info": {"exit_status": "Submitted"}})
    assert record.verifier.result.evidence == {"verified": True, "exit_status": "Submitted"}
    assert record.details["exit_status"] == "Submitted"
