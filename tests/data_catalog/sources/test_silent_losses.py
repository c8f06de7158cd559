"""Issue 38, item 2: inputs that converted wrongly or were lost whole, each on a literal input."""

from __future__ import annotations

import json

from data_catalog.convert import convert_files
from data_catalog.formats import detect
from data_catalog.sources import get_converter
from data_catalog.sources.base import ConvertOptions
from schemas.io import read_records


def test_atif_observation_with_a_null_content_part_keeps_the_trajectory():
    trajectory = {
        "schema_version": "ATIF-v1.6",
        "session_id": "s1",
        "agent": {"name": "terminus", "version": "2"},
        "steps": [
            {"step_id": 1, "source": "user", "message": "Count the files."},
            {
                "step_id": 2,
                "source": "agent",
                "message": "",
                "tool_calls": [{"tool_call_id": "c1", "function_name": "count", "arguments": {}}],
                "observation": {
                    "results": [{"source_call_id": "c1", "content": [None, {"type": "text", "text": "3 files"}]}]
                },
            },
            {"step_id": 3, "source": "agent", "message": "There are 3 files."},
        ],
    }
    record = get_converter("atif").convert(trajectory)
    result = record.trajectory[2]
    assert (result.source, result.tool_call_id, result.content) == ("tool", "c1", "3 files")
    assert record.trajectory[-1].content == "There are 3 files."


def test_the_reply_to_a_command_is_environment_in_sharegpt_as_in_mini_swe_agent():
    conversation = {
        "conversations": [
            {"from": "human", "value": "How many files are there?"},
            {"from": "gpt", "value": "Let me look.\n<execute>\nls | wc -l\n</execute>"},
            {"from": "human", "value": "3"},
            {"from": "gpt", "value": "There are 3 files."},
        ]
    }
    sharegpt = get_converter("sharegpt").convert(conversation).trajectory
    assert [s.class_ for s in sharegpt[1:3]] == ["code_action", "text_observation"]
    assert (sharegpt[2].source, sharegpt[2].content) == ("environment", "3")
    mini = (
        get_converter("mini_swe_agent")
        .convert(
            {
                "messages": [
                    {"role": "user", "content": "How many files are there?"},
                    {"role": "assistant", "content": "THOUGHT: look.\n```bash\nls | wc -l\n```"},
                    {"role": "user", "content": "3"},
                ]
            }
        )
        .trajectory
    )
    assert (mini[2].source, mini[2].content) == (sharegpt[2].source, sharegpt[2].content)


def test_a_bare_list_of_openai_messages_is_openai_chat_not_mini_swe_agent(tmp_path):
    messages = [
        {"role": "system", "content": "You are a weather bot."},
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "18C"},
        {"role": "assistant", "content": "18C in Paris."},
    ]
    path = tmp_path / "messages.json"
    path.write_text(json.dumps(messages))
    detection = detect(str(path))
    assert (detection.fmt, detection.layout) == ("openai_chat", "a bare list of chat completions with tool_calls")
    stats = convert_files(detection.fmt, [str(path)], tmp_path / "out.parquet")
    (record,) = read_records(tmp_path / "out.parquet")
    assert (stats.read, stats.converted) == (1, 1)
    assert (record.source.format, record.environment.kind) == ("openai_chat", "tool_use")
    assert [s.class_ for s in record.trajectory] == [
        "text_observation",
        "text_observation",
        "api_action",
        "text_observation",
        "message_action",
    ]
    plain = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]
    path.write_text(json.dumps(plain))
    assert detect(str(path)).fmt == "sharegpt"  # as {"messages": plain} is


_USER_ITEM = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Say hi."}]}
_ANSWER_ITEM = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Hi!"}]}


def test_a_responses_item_list_of_only_messages_is_openai_responses(tmp_path):
    path = tmp_path / "items.json"
    path.write_text(json.dumps([_USER_ITEM, _ANSWER_ITEM]))
    assert detect(str(path)).fmt == "openai_responses"
    stats = convert_files("openai_responses", [str(path)], tmp_path / "out.parquet")
    (record,) = read_records(tmp_path / "out.parquet")
    assert stats.converted == 1 and [s.class_ for s in record.trajectory] == ["text_observation", "message_action"]


def test_input_and_output_without_object_response_keeps_the_output(tmp_path):
    saved = {
        "input": [_USER_ITEM],
        "output": [
            {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": '{"q": "hi"}'},
            {"type": "function_call_output", "call_id": "c1", "output": "found"},
            _ANSWER_ITEM,
        ],
    }
    path = tmp_path / "saved.jsonl"
    path.write_text(json.dumps(saved) + "\n")
    assert detect(str(path)).fmt == "openai_responses"
    record = get_converter("openai_responses").convert(saved)
    assert [(s.class_, getattr(s, "function", None) or s.content) for s in record.trajectory] == [
        ("text_observation", "Say hi."),
        ("api_action", "lookup"),
        ("text_observation", "found"),
        ("message_action", "Hi!"),
    ]


def test_reasoning_is_kept_where_it_happened():
    thought = {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Greet back."}]}
    interrupted = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Stop."}]}
    items = [
        _USER_ITEM,
        thought,
        interrupted,
        _ANSWER_ITEM,
        {**thought, "summary": [{"type": "summary_text", "text": "Done."}]},
    ]
    record = get_converter("openai_responses").convert({"input": items})
    assert [(s.class_, s.content, getattr(s, "reasoning", None)) for s in record.trajectory] == [
        ("text_observation", "Say hi.", None),
        ("message_action", "", "Greet back."),
        ("text_observation", "Stop.", None),
        ("message_action", "Hi!", None),
        ("message_action", "", "Done."),
    ]


_SHELL_ARGUMENTS = {"command": ["bash", "-lc", "ls -a"], "workdir": "/repo", "timeout_ms": 10000}


def _shell_records():
    arguments = json.dumps(_SHELL_ARGUMENTS)
    chat = {
        "messages": [
            {"role": "user", "content": "List the repo."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "shell", "arguments": arguments}}],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "."},
        ]
    }
    items = {
        "input": [
            {"type": "message", "role": "user", "content": "List the repo."},
            {"type": "function_call", "call_id": "c1", "name": "shell", "arguments": arguments},
            {"type": "function_call_output", "call_id": "c1", "output": "."},
        ]
    }
    atif = {
        "schema_version": "ATIF-v1.5",
        "session_id": "s",
        "agent": {"name": "codex"},
        "steps": [
            {"step_id": 1, "source": "user", "message": "List the repo."},
            {
                "step_id": 2,
                "source": "agent",
                "message": "",
                "tool_calls": [{"tool_call_id": "c1", "function_name": "shell", "arguments": _SHELL_ARGUMENTS}],
                "observation": {"results": [{"source_call_id": "c1", "content": "."}]},
            },
        ],
    }
    sharegpt = {
        "conversations": [
            {"from": "human", "value": "List the repo."},
            {"from": "function_call", "value": json.dumps({"name": "shell", "arguments": _SHELL_ARGUMENTS})},
            {"from": "observation", "value": "."},
        ]
    }
    for fmt, raw in (("openai_chat", chat), ("openai_responses", items), ("atif", atif), ("sharegpt", sharegpt)):
        yield fmt, get_converter(fmt).convert(raw)


def test_a_shell_call_is_a_bash_code_action_in_every_format_whatever_its_other_arguments():
    for fmt, record in _shell_records():
        step = record.trajectory[1]
        assert (step.class_, step.language, step.content) == ("code_action", "bash", "ls -a"), fmt
        assert record.details["shell_call_options"] == {"1": {"workdir": "/repo", "timeout_ms": 10000}}, fmt
    plain = get_converter("openai_chat").convert(
        {
            "messages": [
                {"role": "user", "content": "x"},
                {
                    "role": "assistant",
                    "tool_calls": [
                        {"id": "c", "function": {"name": "bash", "arguments": '{"command": ["git", "log", "-1"]}'}}
                    ],
                },
            ]
        }
    )
    assert plain.trajectory[1].content == "git log -1" and "shell_call_options" not in plain.details


def test_codex_environment_context_is_not_the_task():
    context = (
        "<environment_context>\n  <cwd>/home/me/repo</cwd>\n  <approval_policy>on-request</approval_policy>\n"
        "  <sandbox_mode>workspace-write</sandbox_mode>\n  <shell>zsh</shell>\n</environment_context>"
    )
    agents = "# AGENTS.md instructions for /home/me/repo\n\n<INSTRUCTIONS>\nRun make test.\n</INSTRUCTIONS>"
    items = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": agents}]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": context}]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Fix the failing test."}]},
        _ANSWER_ITEM,
    ]
    record = get_converter("openai_responses").convert({"input": items})
    assert record.task.instruction == "Fix the failing test."
    assert record.trajectory[1].content == context  # kept as the agent saw it


def test_an_orphan_tool_result_can_be_kept_with_a_note(tmp_path):
    lines = [
        {
            "id": "r1",
            "messages": [
                {"role": "user", "content": "Weather?"},
                {"role": "tool", "tool_call_id": "lost", "content": "stale result"},
                {"role": "assistant", "content": "Sunny."},
            ],
        }
    ]
    path = tmp_path / "chats.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    by_default = convert_files("openai_chat", [str(path)], tmp_path / "strict.parquet")
    assert (by_default.converted, by_default.quarantined) == (0, 1)
    kept = convert_files(
        "openai_chat", [str(path)], tmp_path / "kept.parquet", options=ConvertOptions(extra={"orphan_results": "keep"})
    )
    (record,) = read_records(tmp_path / "kept.parquet")
    assert (kept.converted, kept.quarantined) == (1, 0)
    orphan = record.trajectory[1]
    assert (orphan.source, orphan.tool_call_id, orphan.content) == ("tool", None, "stale result")
    assert record.details["orphan_tool_results"] == [
        "messages[1]: tool result for tool_call_id 'lost' answers no earlier call"
    ]
    assert record.trajectory[2].content == "Sunny."
