"""swe_agent: nebius SWE-agent trajectories, checked against ADP's own standardized output."""

from __future__ import annotations

import copy

import orjson
import pytest

from data_catalog.convert import convert_files
from data_catalog.sources import get_converter
from data_catalog.sources.swe_agent import split_command_block
from schemas.io import read_records
from schemas.steps import ApiAction, CodeAction, MessageAction, TextObservation
from tests.conftest import ADP_FIXTURES
from tests.data_catalog.sources.conversion_helpers import convert_lines, drop_adp_synthetic_finish, kinds, load
from tests.data_catalog.sources.fidelity import identity

RAW = ADP_FIXTURES / "nebius_SWE-agent-trajectories/sample_raw.json"
STD = ADP_FIXTURES / "nebius_SWE-agent-trajectories/sample_std.json"


@pytest.fixture(scope="module")
def raws():
    return load(RAW)


@pytest.fixture(scope="module")
def records(raws):
    converter = get_converter("swe_agent")
    return [converter.convert(r) for r in raws]


def test_step_kinds_agree_with_adp(records):
    adp = load(STD)
    assert [r.source.original_id for r in records] == [a["id"] for a in adp]
    for record, std in zip(records, adp):
        # Deliberate difference: ADP drops the system prompt; we keep it as the first step.
        assert record.trajectory[0].source == "system"
        assert kinds(record.trajectory[1:]) == kinds(drop_adp_synthetic_finish(std["content"]))
        # Same calls by name, in the same order.
        ours = [s.function for s in record.trajectory if isinstance(s, ApiAction)]
        assert ours == [s["function"] for s in std["content"] if s["class_"] == "api_action"]


def test_adp_synthetic_finish_is_not_in_the_raw_data(raws, records):
    # ADP ends every record with a user "success" turn and a <finish> message; the raw ends with `submit`.
    for raw, record in zip(raws, records):
        assert raw["trajectory"][-1]["text"].rstrip().endswith("```\nsubmit\n```")
        assert record.trajectory[-1] == ApiAction(
            function="submit", kwargs={}, reasoning=record.trajectory[-1].reasoning
        )


def test_observation_sources_differ_from_adp_on_purpose(records):
    # ADP labels terminal output as source "user" (PROVENANCE caveat 4); only the task turn is the user's.
    adp = load(STD)[0]["content"]
    assert {s["source"] for s in adp if s["class_"] == "text_observation"} == {"user"}
    observations = [s for s in records[0].trajectory if isinstance(s, TextObservation)]
    assert [s.source for s in observations[:3]] == ["system", "user", "environment"]
    assert {s.source for s in observations[2:]} == {"environment"}


def test_commands_become_typed_api_actions(records):
    steps = records[0].trajectory
    assert steps[2] == CodeAction(language="bash", content="ls -F", reasoning=steps[2].reasoning)
    assert steps[2].reasoning.startswith("To start addressing the issue, we need to locate the `image.py` file")
    assert (steps[4].function, steps[4].kwargs) == ("find_file", {"file_name": "image.py", "dir": "plumbum"})
    assert (steps[6].function, steps[6].kwargs) == ("open", {"path": "plumbum/cli/image.py"})
    opened = next(s for s in records[1].trajectory if isinstance(s, ApiAction) and s.function == "open")
    assert opened.kwargs == {"path": "oqupy/process_tensor.py", "line_number": 536}
    goto = next(s for s in records[4].trajectory if isinstance(s, ApiAction) and s.function == "goto")
    assert goto.kwargs == {"line_number": 122}


def test_edit_keeps_indentation_that_adp_strips(records):
    edit = [s for s in records[1].trajectory if isinstance(s, ApiAction) and s.function == "edit"][1]
    assert edit.kwargs["start_line"] == edit.kwargs["end_line"] == 536
    assert (
        edit.kwargs["replacement_text"] == "        if transform_in[0] == 0.0:  # check the first element of the array"
    )
    # ADP's value lost the leading spaces (and is pre-quoted): a Python edit with broken indentation.
    adp_edit = [s for s in load(STD)[1]["content"] if s.get("function") == "edit"][1]
    assert (
        adp_edit["kwargs"]["replacement_text"]
        == '"if transform_in[0] == 0.0:  # check the first element of the array\n"'
    )


def test_environment_task_and_verdict(records):
    record = records[0]
    assert [t.name for t in record.environment.tools] == [
        "open",
        "goto",
        "scroll_down",
        "scroll_up",
        "create",
        "submit",
        "search_dir",
        "search_file",
        "find_file",
        "edit",
    ]
    open_tool = record.environment.tools[0]
    assert (
        open_tool.parameters["required"] == ["path"]
        and open_tool.parameters["properties"]["line_number"]["type"] == "integer"
    )
    assert record.environment.kind == "swe_repo"
    assert record.task.instruction.startswith("SyntaxError in plumbum/cli/image.py\nimage.py contains the line")
    assert record.verifier.kind == "unit_tests" and record.verifier.result.passed is True
    assert record.details["exit_status"] == "submitted" and record.details["generated_patch"].startswith(
        "\ndiff --git a/plumbum/cli/image.py"
    )
    assert identity(record) == ("swe-agent", "swe-agent-llama-70b", None, []) and record.lineage.generator is None


def test_turn_without_command_block_is_a_message(raws):
    raw = copy.deepcopy(raws[0])
    raw["trajectory"][2]["text"] = "I am not sure what to do next."
    record = get_converter("swe_agent").convert(raw)
    assert record.trajectory[2] == MessageAction(content="I am not sure what to do next.")


def test_bad_records_are_quarantined(raws, tmp_path):
    unknown_role = copy.deepcopy(raws[0])
    unknown_role["trajectory"][3]["role"] = "tool"
    no_text = copy.deepcopy(raws[0])
    no_text["trajectory"][2]["text"] = None
    string_target = {**raws[1], "target": "true"}
    no_trajectory = {k: v for k, v in raws[2].items() if k != "trajectory"}
    stats, records, quarantine = convert_lines(
        "swe_agent", [raws[0], unknown_role, no_text, string_target, no_trajectory, raws[3]], tmp_path
    )
    assert (stats.read, stats.converted, stats.quarantined) == (6, 2, 4)
    assert [row["error"] for row in quarantine] == [
        "trajectory[3]: unknown role 'tool'",
        "trajectory[2]: text is NoneType, expected a string",
        "field 'target' is str, expected bool",
        "missing field 'trajectory'",
    ]
    # The same instance twice: the second copy is a duplicate id, not a second record.
    stats, records, quarantine = convert_lines("swe_agent", [raws[0], raws[0]], tmp_path)
    assert (stats.converted, stats.quarantined) == (1, 1) and (quarantine[0]["source"], quarantine[0]["index"]) == (
        str(tmp_path / "swe_agent.jsonl"),
        1,
    )
    assert quarantine[0]["error"] == f"duplicate record {records[0].id!r}: the same content as item 0"


def test_command_block_with_a_nested_fence():
    text = "DISCUSSION\nAdd an example to the README.\n```\nedit 3:3\n```python\nprint(1)\n```\nend_of_edit\n```"
    discussion, command = split_command_block(text)
    assert discussion == "Add an example to the README."
    assert command == "edit 3:3\n```python\nprint(1)\n```\nend_of_edit"


SYSTEM = """SETTING: You are an autonomous programmer.

COMMANDS:
open:
  docstring: opens the file at the given path in the editor.
  signature: open <path> [<line_number>]
  arguments:
    - path (string) [required]: the path to the file to open
    - line_number (integer) [optional]: the line number to move the window to

submit:
  docstring: submits your current code and terminates the session
  signature: submit
"""
# SWE-agent's own .traj as it writes it: trajectory / history / info, no instance_id or target.
NATIVE_TRAJ = {
    "environment": "swe_main",
    "trajectory": [{"action": "open src/app.py", "observation": "[File: src/app.py]", "thought": "Open it."}],
    "history": [
        {"role": "system", "content": SYSTEM, "agent": "primary"},
        {"role": "user", "content": "Here is a demonstration: ...", "agent": "primary", "is_demo": True},
        {
            "role": "user",
            "content": "We're currently solving the following issue within our repository. Here's the issue text:\nISSUE:\nCrash on empty input\n\nINSTRUCTIONS:\nFix it.",
            "agent": "primary",
        },
        {
            "role": "assistant",
            "content": "Open the app first.\n```\nopen src/app.py 12\n```",
            "thought": "Open the app first.",
            "action": "open src/app.py 12",
            "agent": "primary",
        },
        {"role": "user", "content": "[File: src/app.py (40 lines total)]", "agent": "primary"},
        {"role": "assistant", "content": "Done.\n```\nsubmit\n```", "agent": "primary"},
    ],
    "info": {
        "exit_status": "submitted",
        "submission": "diff --git a/src/app.py b/src/app.py\n",
        "model_stats": {"api_calls": 2},
    },
    "replay_config": '{"problem_statement": {"id": "acme__app-7", "text": "Crash on empty input"}}',
}


def test_native_traj_files_convert(tmp_path):
    path = tmp_path / "acme__app-7.traj"
    path.write_bytes(orjson.dumps(NATIVE_TRAJ, option=orjson.OPT_INDENT_2))
    stats = convert_files("swe_agent", [str(path)], tmp_path / "swe.parquet")
    (record,) = read_records(tmp_path / "swe.parquet")
    assert (stats.converted, stats.quarantined) == (1, 0)
    assert record.source.original_id == "acme__app-7" and record.task.instruction == "Crash on empty input"
    assert [s.class_ for s in record.trajectory] == [
        "text_observation",
        "text_observation",
        "text_observation",
        "api_action",
        "text_observation",
        "api_action",
    ]
    assert record.trajectory[1].source == "user" and record.trajectory[4].source == "environment"
    assert (record.trajectory[3].function, record.trajectory[3].kwargs) == (
        "open",
        {"path": "src/app.py", "line_number": 12},
    )
    assert [t.name for t in record.environment.tools] == ["open", "submit"]
    assert record.details["exit_status"] == "submitted" and record.details["submission"].startswith("diff --git")
    assert record.verifier.kind == "none" and record.lineage.usage == {"api_calls": 2}
    # Without a replay config the file's name is the instance id.
    path.write_bytes(orjson.dumps({k: v for k, v in NATIVE_TRAJ.items() if k != "replay_config"}))
    convert_files("swe_agent", [str(path)], tmp_path / "swe2.parquet")
    assert next(read_records(tmp_path / "swe2.parquet")).source.original_id == "acme__app-7"


def test_native_traj_with_function_calling():
    raw = {
        "history": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": [{"type": "text", "text": "<pr_description>\nFix it\n</pr_description>"}]},
            {
                "role": "assistant",
                "content": "Look around.",
                "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}
                ],
            },
            {"role": "tool", "content": [{"type": "text", "text": "app.py"}], "tool_call_ids": ["call_1"]},
        ],
        "info": {"exit_status": "exit_cost"},
    }
    record = get_converter("swe_agent").convert(raw)
    assert record.task.instruction == "Fix it"
    assert record.trajectory[2] == CodeAction(
        language="bash", content="ls", tool_call_id="call_1", reasoning="Look around."
    )
    assert record.trajectory[3] == TextObservation(content="app.py", source="tool", name="bash", tool_call_id="call_1")


def test_xml_command_turns_are_actions():
    """SWE-agent's XML parser writes the command in <command> tags (the .traj's `action` holds it too)."""
    text = "DISCUSSION\nLet's see the repository.\n<command>\nls -la\n</command>"
    assert split_command_block(text) == ("Let's see the repository.", "ls -la")
    raw = {
        "history": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": "ISSUE:\nCrash on empty input\n\nINSTRUCTIONS:\nFix it."},
            {"role": "assistant", "content": "Open it.\n<command>\nopen src/app.py 12\n</command>"},
            {"role": "user", "content": "[File: src/app.py]"},
            {"role": "assistant", "content": text},
        ],
        "info": {},
    }
    record = get_converter("swe_agent").convert(raw)
    assert [s.class_ for s in record.trajectory[2:]] == ["api_action", "text_observation", "code_action"]
    assert record.trajectory[2].kwargs == {"path": "src/app.py", "line_number": 12}
    assert (record.trajectory[4].content, record.trajectory[4].reasoning) == ("ls -la", "Let's see the repository.")


def test_an_in_context_demonstration_is_not_the_instruction():
    demo = (
        "Here is a demonstration of how to correctly accomplish this task.\n"
        "--- DEMONSTRATION ---\nISSUE:\nTimeDelta rounding\n\nINSTRUCTIONS:\n...\n--- END OF DEMONSTRATION ---"
    )
    raw = {
        "instance_id": "acme__app-7",
        "target": False,
        "trajectory": [
            {"role": "system", "system_prompt": SYSTEM, "text": SYSTEM},
            {"role": "user", "text": demo},
            {"role": "user", "text": "ISSUE:\nCrash on empty input\n\nINSTRUCTIONS:\nFix it."},
            {"role": "ai", "text": "Done.\n```\nsubmit\n```"},
        ],
    }
    record = get_converter("swe_agent").convert(raw)
    assert record.task.instruction == "Crash on empty input"
    assert [s.source for s in record.trajectory[1:3]] == ["user", "user"]


def test_a_bash_tool_call_is_a_code_action_like_a_bash_block():
    """One representation of shell commands: a bash tool call and a typed command are both CodeAction(bash)."""
    raw = {
        "history": [
            {"role": "user", "content": "<pr_description>\nFix it\n</pr_description>"},
            {
                "role": "assistant",
                "content": "Look.",
                "tool_calls": [{"id": "c1", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}],
            },
            {"role": "tool", "content": "a.py", "tool_call_ids": ["c1"]},
        ],
        "info": {},
    }
    step = get_converter("swe_agent").convert(raw).trajectory[1]
    assert (step.class_, step.language, step.content, step.tool_call_id) == ("code_action", "bash", "ls", "c1")


def test_a_demonstration_and_the_issue_in_one_turn():
    """The demonstration's own ISSUE: section comes first in the turn: the task is the text after it."""
    turn = (
        "Here is a demonstration of how to correctly accomplish this task.\n--- DEMONSTRATION ---\n"
        "ISSUE:\nTimeDelta rounding\n\nINSTRUCTIONS:\n...\n--- END OF DEMONSTRATION ---\n\n"
        "ISSUE:\nCrash on empty input\n\nINSTRUCTIONS:\nFix it."
    )
    raw = {
        "instance_id": "acme__app-7",
        "target": True,
        "trajectory": [{"role": "user", "text": turn}, {"role": "ai", "text": "Done.\n```\nsubmit\n```"}],
    }
    assert get_converter("swe_agent").convert(raw).task.instruction == "Crash on empty input"
