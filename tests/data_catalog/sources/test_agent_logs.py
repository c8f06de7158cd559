"""Readers of the agent tools people run every day, on small real excerpts (samples/<name>/PROVENANCE.md):
auto detection, and a fidelity test per reader that reads the expected content straight from the file."""

from __future__ import annotations

import ast
import json

import pytest

from data_catalog.convert import convert_files
from data_catalog.formats import detect
from schemas.io import read_records
from tests.data_catalog.sources.fidelity import (
    EXPECTED,
    SAMPLES,
    Item,
    assert_faithful,
    convert,
    identity,
    lines,
    step_texts,
)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_auto_picks_each_sample_format(name):
    detection = detect(str(SAMPLES / name))
    assert (detection.fmt, detection.layout) == EXPECTED[name][:2]


def _anthropic_items(role: str, content) -> list[Item]:
    """What one Anthropic message holds, block by block."""
    if isinstance(content, str):
        return [Item("user" if role == "user" else "text", content)] if content.strip() else []
    items = []
    for block in content:
        kind = block["type"]
        if kind == "thinking":
            items.append(Item("thinking", block["thinking"]))
        elif kind == "text" and block["text"].strip():
            items.append(Item("user" if role == "user" else "text", block["text"]))
        elif kind == "tool_use":
            items.append(Item("call", block["name"], block["input"], block["id"]))
        elif kind == "tool_result":
            items.append(Item("result", block["content"], call_id=block["tool_use_id"]))
    return items


def test_claude_code_session(tmp_path):
    (record,) = convert("claude_code/session.jsonl", tmp_path)
    events = lines("claude_code/session.jsonl")
    messages = [e for e in events if e["type"] in ("user", "assistant") and not e.get("isSidechain")]
    items = [item for e in messages for item in _anthropic_items(e["message"]["role"], e["message"]["content"])]
    assert_faithful(record, items, shell={"Bash": "command"})
    assert sum(item.kind == "thinking" for item in items) == 2 and all(
        item.text not in step_texts(record) for item in items if item.kind == "thinking"
    )  # thinking is reasoning, never text
    assert record.trajectory[-1].content == messages[-1]["message"]["content"][0]["text"]  # the last answer
    assert (record.source.format, record.source.original_id) == ("claude_code", events[5]["sessionId"])
    # The agent's identity: the CLI's version on each event, the model on each assistant message.
    assert {e["version"] for e in messages} == {"2.1.39"}
    assert {e["message"]["model"] for e in messages if e["type"] == "assistant"} == {"claude-opus-4-6"}
    assert identity(record) == ("claude-code", "claude-opus-4-6", "2.1.39", [])
    assert record.lineage.generator is None
    assert record.task.instruction.startswith("Work on bead spotter-dov.")
    not_steps = {k: sum(e["type"] == k for e in events) for k in ("progress", "file-history-snapshot")}
    assert record.details["events_not_steps"] == not_steps
    first_call = record.trajectory[1]
    assert (first_call.class_, first_call.content) == ("code_action", "bd show spotter-dov")
    assert record.details["shell_call_options"]["1"] == {"description": "Show spotter-dov issue details"}


def _responses_items(payload: dict) -> list[Item]:
    """What one Responses item of a Codex rollout holds."""
    kind = payload["type"]
    if kind == "message":
        texts = [part["text"] for part in payload["content"]]
        role = {"user": "user", "developer": "system", "assistant": "text"}[payload["role"]]
        return [Item(role, text) for text in texts]
    if kind == "reasoning":
        return [Item("thinking", part["text"]) for part in payload["summary"]]
    if kind == "function_call":
        try:
            arguments = json.loads(payload["arguments"])
        except json.JSONDecodeError:
            arguments = {"arguments": payload["arguments"]}
        return [Item("call", payload["name"], arguments, payload["call_id"])]
    if kind == "function_call_output":
        return [Item("result", payload["output"], call_id=payload["call_id"])]
    raise AssertionError(f"the sample has no {kind} item")


def test_codex_cli_rollout(tmp_path):
    (record,) = convert("codex_cli/rollout.jsonl", tmp_path)
    events = lines("codex_cli/rollout.jsonl")
    meta = events[0]["payload"]
    items = [Item("system", meta["base_instructions"]["text"])]
    items += [item for e in events if e["type"] == "response_item" for item in _responses_items(e["payload"])]
    assert_faithful(record, items)
    thinking = [item.text for item in items if item.kind == "thinking"]
    assert len(thinking) == 6 and all(t not in step_texts(record) for t in thinking)
    last = next(e["payload"] for e in reversed(events) if e["payload"].get("role") == "assistant")
    assert record.trajectory[-1].content == last["content"][0]["text"]  # the final answer
    assert record.source.original_id == meta["id"]
    assert meta["cli_version"] == "0.104.0-alpha.1"
    assert {e["payload"]["model"] for e in events if e["type"] == "turn_context"} == {"gpt-5.3-codex"}
    assert identity(record) == ("codex", "gpt-5.3-codex", "0.104.0-alpha.1", [])
    assert record.lineage.generator == {"reasoning_effort": "medium"}
    assert record.lineage.usage["total_tokens"] == 299496  # the last token_count
    assert record.details["unparsed_arguments"] == 5  # the fixture's arguments are redacted text
    assert sum(record.details["events_not_steps"].values()) == sum(e["type"] == "event_msg" for e in events)


def test_codex_cli_shell_calls_and_environment_context():
    from data_catalog.sources import get_converter

    context = "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"
    lines_ = [
        {"timestamp": "t", "type": "session_meta", "payload": {"id": "s1", "cli_version": "0.46.0", "cwd": "/repo"}},
        {
            "timestamp": "t",
            "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": context}]},
        },
        {
            "timestamp": "t",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Run the tests."}],
            },
        },
        {
            "timestamp": "t",
            "type": "response_item",
            "payload": {
                "type": "local_shell_call",
                "call_id": "c1",
                "action": {
                    "type": "exec",
                    "command": ["bash", "-lc", "pytest -q"],
                    "working_directory": "/repo",
                    "timeout_ms": 120000,
                },
            },
        },
        {
            "timestamp": "t",
            "type": "response_item",
            "payload": {"type": "local_shell_call_output", "call_id": "c1", "output": "3 passed"},
        },
        {
            "timestamp": "t",
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "call_id": "c2",
                "arguments": json.dumps({"command": ["git", "status"], "workdir": "/repo"}),
            },
        },
        {
            "timestamp": "t",
            "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": "c2", "output": "clean"},
        },
        {
            "timestamp": "t",
            "type": "response_item",
            "payload": {"type": "reasoning", "summary": [{"type": "summary_text", "text": "All green."}]},
        },
    ]
    record = get_converter("codex_cli").convert(lines_)
    assert record.task.instruction == "Run the tests."
    shells = [(s.class_, s.language, s.content) for s in record.trajectory if s.class_ == "code_action"]
    assert shells == [("code_action", "bash", "pytest -q"), ("code_action", "bash", "git status")]
    assert record.details["shell_call_options"] == {
        "2": {"working_directory": "/repo", "timeout_ms": 120000},
        "4": {"workdir": "/repo"},
    }
    assert (record.trajectory[-1].class_, record.trajectory[-1].reasoning) == ("message_action", "All green.")


def _gemini_result(call: dict) -> str:
    parts = [
        p["functionResponse"]["response"]["output"] if "functionResponse" in p else p["text"] for p in call["result"]
    ]
    return "\n".join(parts)


def test_gemini_cli_session(tmp_path):
    (record,) = convert("gemini_cli/session.json", tmp_path)
    session = json.loads((SAMPLES / "gemini_cli/session.json").read_text())
    items = []
    for msg in session["messages"]:
        if msg["type"] == "user":
            items.append(Item("user", msg["content"]))
            continue
        items += [Item("thinking", t["description"]) for t in msg.get("thoughts", [])]
        calls = msg.get("toolCalls", [])
        items += [Item("call", c["name"], c["args"], c["id"]) for c in calls]
        items += [Item("result", _gemini_result(c), call_id=c["id"]) for c in calls]
        if not calls:
            items.append(Item("text", msg["content"]))
    assert_faithful(record, items)
    assert all(item.text not in step_texts(record) for item in items if item.kind == "thinking")
    assert record.source.original_id == session["sessionId"]
    # Two models answered, in this order; the file does not say the CLI's version.
    models = [m["model"] for m in session["messages"] if m["type"] == "gemini"]
    assert list(dict.fromkeys(models)) == ["gemini-2.5-pro", "gemini-2.0-flash"]
    assert identity(record) == ("gemini-cli", "gemini-2.5-pro", None, ["gemini-2.0-flash"])
    assert record.lineage.generator is None
    assert record.lineage.usage["total"] == 8440 + 8515 + 9048


def test_gemini_cli_jsonl_log_is_replayed():
    from data_catalog.sources import get_converter

    log = [
        {"sessionId": "g1", "projectHash": "h", "startTime": "t0", "kind": "main"},
        {"id": "u1", "timestamp": "t1", "type": "user", "content": [{"text": "delete the temp files"}]},
        {"id": "a1", "timestamp": "t2", "type": "gemini", "content": "Sure.", "model": "gemini-2.5-pro"},
        {"$rewindTo": "u1"},
        {"id": "u2", "timestamp": "t3", "type": "user", "content": "list the temp files"},
        {"id": "i1", "timestamp": "t4", "type": "info", "content": "Loaded cached credentials."},
        {
            "id": "a2",
            "timestamp": "t5",
            "type": "gemini",
            "content": "",
            "thoughts": [{"subject": "Listing", "description": "Use the shell.", "timestamp": "t5"}],
            "toolCalls": [
                {
                    "id": "run_shell_command-1",
                    "name": "run_shell_command",
                    "args": {"command": "ls /tmp", "description": "List temp files"},
                    "result": [
                        {
                            "functionResponse": {
                                "id": "run_shell_command-1",
                                "name": "run_shell_command",
                                "response": {"output": "a.tmp"},
                            }
                        }
                    ],
                    "status": "success",
                }
            ],
        },
        {"$set": {"lastUpdated": "t6"}},
    ]
    record = get_converter("gemini_cli").convert(log)
    assert [(s.class_, getattr(s, "content", None)) for s in record.trajectory] == [
        ("text_observation", "list the temp files"),
        ("code_action", "ls /tmp"),
        ("text_observation", "a.tmp"),
    ]
    assert record.trajectory[1].reasoning == "Listing\nUse the shell."
    assert record.details["events_not_steps"] == {"info": 1} and record.details["lastUpdated"] == "t6"


def test_inspect_ai_eval_log(tmp_path):
    (record,) = convert("inspect_ai/eval_log.json", tmp_path)
    log = json.loads((SAMPLES / "inspect_ai/eval_log.json").read_text())
    (sample,) = log["samples"]
    items = []
    for msg in sample["messages"]:
        if msg["role"] == "user":
            items.append(Item("user", msg["content"]))
        elif msg["role"] == "tool":
            items.append(Item("result", msg["content"], call_id=msg["tool_call_id"]))
        elif msg.get("tool_calls"):
            items.append(Item("text", msg["content"]))  # the lead-in to its call
            items += [Item("call", c["function"], c["arguments"], c["id"]) for c in msg["tool_calls"]]
        else:
            items.append(Item("text", msg["content"]))
    assert_faithful(record, items, shell={"bash": "cmd"})
    assert record.trajectory[-1].content == "done"
    assert record.source.original_id == "inspect_test_utils/guess_number/0/1"
    assert (log["eval"]["model"], log["eval"]["packages"]["inspect_ai"]) == (
        "hardcoded/hardcoded",
        "0.3.135.dev2+g715e750e",
    )
    assert identity(record) == ("inspect_ai", "hardcoded/hardcoded", "0.3.135.dev2+g715e750e", [])
    assert record.lineage.generator == {
        "task": "inspect_test_utils/guess_number",
        "solvers": ["use_tools", "generate"],
    }
    assert record.task.expected_outputs == {"target": sample["target"]}
    assert (record.verifier.kind, record.verifier.result.score, record.verifier.result.verifier) == (
        "reward",
        0.0,
        "inspect:closeness_log",
    )


def test_inspect_ai_reasoning_images_and_tool_errors():
    from data_catalog.sources import get_converter

    sample = {
        "id": "q1",
        "epoch": 2,
        "input": "What is in the picture?",
        "target": "C",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is in the picture?"},
                    {"type": "image", "image": "data:image/png;base64,AAAA"},
                ],
            },
            {
                "role": "assistant",
                "content": [{"type": "reasoning", "reasoning": "Zoom in first."}, {"type": "text", "text": "Zooming."}],
                "tool_calls": [{"id": "t1", "function": "zoom", "arguments": {"factor": 2}}],
            },
            {
                "role": "tool",
                "tool_call_id": "t1",
                "function": "zoom",
                "content": "",
                "error": {"type": "timeout", "message": "timed out"},
            },
            {
                "role": "assistant",
                "content": [{"type": "reasoning", "reasoning": "Guess."}, {"type": "text", "text": "A cat."}],
            },
        ],
        "scores": {"match": {"value": "C", "answer": "A cat."}},
    }
    record = get_converter("inspect_ai").convert(sample)
    assert [s.class_ for s in record.trajectory] == [
        "text_observation",
        "image_observation",
        "api_action",
        "text_observation",
        "message_action",
    ]
    assert record.trajectory[2].reasoning == "Zoom in first.\n\nZooming."
    assert (record.trajectory[4].content, record.trajectory[4].reasoning) == ("A cat.", "Guess.")
    assert record.details["tool_errors"] == [{"tool_call_id": "t1", "type": "timeout", "message": "timed out"}]
    assert (record.verifier.result.passed, record.verifier.result.score) == (True, 1.0)


def test_anthropic_messages_request_and_response(tmp_path):
    (record,) = convert("anthropic_messages/request.json", tmp_path)
    request = json.loads((SAMPLES / "anthropic_messages/request.json").read_text())
    items = [item for m in request["messages"] for item in _anthropic_items(m["role"], m["content"])]
    assert_faithful(record, items)
    assert [t.name for t in record.environment.tools] == ["get_weather"]
    assert record.environment.tools[0].parameters == request["tools"][0]["input_schema"]
    assert identity(record) == (None, request["model"], None, []) and request["model"] == "claude-haiku-4-5"
    assert record.lineage.generator is None
    (answer,) = convert("anthropic_messages/response.json", tmp_path / "response")
    response = json.loads((SAMPLES / "anthropic_messages/response.json").read_text())
    assert_faithful(answer, _anthropic_items("assistant", response["content"]))
    assert answer.source.original_id == response["id"] and answer.lineage.usage == response["usage"]


def test_anthropic_thinking_is_reasoning_and_stays_before_an_interruption(tmp_path):
    messages = [
        {"role": "user", "content": "Plan the trip."},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "Start with flights.", "signature": "s"}]},
        {"role": "user", "content": "Stop, hotels first."},
        {
            "role": "assistant",
            "content": [
                {"type": "redacted_thinking", "data": "xyz"},
                {"type": "text", "text": "Searching hotels."},
                {"type": "tool_use", "id": "t1", "name": "search_hotels", "input": {"city": "Rome"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "t1",
                    "content": [{"type": "text", "text": "3 hotels"}],
                    "is_error": False,
                }
            ],
        },
    ]
    path = tmp_path / "messages.json"
    path.write_text(json.dumps(messages))
    assert detect(str(path)).fmt == "anthropic_messages"  # a bare list with Anthropic blocks
    stats = convert_files("anthropic_messages", [str(path)], tmp_path / "out.parquet")
    (record,) = read_records(tmp_path / "out.parquet")
    assert stats.converted == 1
    assert [
        (s.class_, getattr(s, "content", None), s.reasoning if hasattr(s, "reasoning") else None)
        for s in record.trajectory
    ] == [
        ("text_observation", "Plan the trip.", None),
        ("message_action", "", "Start with flights."),
        ("text_observation", "Stop, hotels first.", None),
        ("api_action", None, "Searching hotels."),
        ("text_observation", "3 hotels", None),
    ]
    assert record.details["thinking_blocks_without_text"] == 1


def test_smolagents_memory_steps(tmp_path):
    (record,) = convert("smolagents/memory_steps.json", tmp_path)
    steps = json.loads((SAMPLES / "smolagents/memory_steps.json").read_text())
    items = []
    for step in steps:
        if "task" in step:
            items.append(Item("user", step["task"]))
        elif "step_number" in step:
            items.append(Item("thinking", step["model_output"]))
            (call,) = step["tool_calls"]
            items.append(Item("call", "python_interpreter", {"code": call["function"]["arguments"]}, call["id"]))
            items.append(Item("result", step["observations"], call_id=call["id"]))
        else:
            items.append(Item("text", str(step["output"])))
    assert_faithful(record, items, shell={"python_interpreter": ("python", "code")})
    assert [s.language for s in record.trajectory if s.class_ == "code_action"] == ["python", "python"]
    assert record.trajectory[-1].content == "330"  # the final answer
    assert record.lineage.usage == {"input_tokens": 4400, "output_tokens": 88, "total_tokens": 4488}


def test_smolagents_benchmark_row_messages(tmp_path):
    (record,) = convert("smolagents/benchmark_run.jsonl", tmp_path)
    (row,) = lines("smolagents/benchmark_run.jsonl")
    items, last_id = [], None
    for msg in row["intermediate_steps"]:
        text = msg["content"][0]["text"]
        if msg["role"] in ("system", "user"):
            items.append(Item(msg["role"], text))
        elif msg["role"] == "tool-call":
            (call,) = ast.literal_eval(text.removeprefix("Calling tools:\n"))
            items.append(Item("call", call["function"]["name"], call["function"]["arguments"], call["id"]))
            last_id = call["id"]
        else:
            items.append(Item("result", text.removeprefix("Observation:\n"), call_id=last_id))
    assert_faithful(record, items)
    assert record.task.instruction == row["question"] and record.task.expected_outputs == {"true_answer": "sunny"}
    assert identity(record) == ("smolagents", row["model_id"], None, [])
    assert row["model_id"] == "Qwen/Qwen2.5-Coder-32B-Instruct"
    assert record.lineage.generator == {"agent_type": "tool-calling"}
    assert record.details["answer"] == row["answer"]


def _agents_items(state: dict) -> list[Item]:
    items = [Item("user", state["original_input"])]
    for generated in state["generated_items"]:
        raw = generated["raw_item"]
        if generated["type"] == "tool_approval_item":
            continue  # the same call, waiting for approval
        if raw["type"] == "function_call":
            items.append(Item("call", raw["name"], json.loads(raw["arguments"]), raw["call_id"]))
        elif raw["type"] == "custom_tool_call":
            items.append(Item("call", raw["name"], {"input": raw["input"]}, raw["call_id"]))
        else:
            items.append(Item("result", raw["output"], call_id=raw["call_id"]))
    return items


@pytest.mark.parametrize("name", ["v1_9_custom_tool_call_and_tool_origin", "v1_13_pending_tool_approval"])
def test_openai_agents_run_state(name, tmp_path):
    (record,) = convert(f"openai_agents/{name}.json", tmp_path)
    state = json.loads((SAMPLES / f"openai_agents/{name}.json").read_text())
    assert_faithful(record, _agents_items(state))
    assert identity(record) == ("openai-agents", None, None, [])  # the state names no model, no SDK version
    assert record.lineage.generator == {
        "agent_name": "compat-agent",
        "state_schema": state["$schemaVersion"],
    }
    approvals = [g["raw_item"]["call_id"] for g in state["generated_items"] if g["type"] == "tool_approval_item"]
    assert record.details.get("pending_approvals", []) == approvals


def test_a_session_log_without_messages_is_quarantined_with_why(tmp_path):
    lines_ = [
        {"type": "summary", "summary": "Fixing the parser", "leafUuid": "u9"},
        {"type": "file-history-snapshot", "messageId": "m1", "snapshot": {}, "isSnapshotUpdate": False},
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines_))
    assert detect(str(path)).fmt == "claude_code"
    stats = convert_files("claude_code", [str(path)], tmp_path / "out.parquet")
    assert (stats.read, stats.converted, stats.quarantined) == (1, 0, 1)
    assert stats.top_errors(1) == [("the session's N line(s) hold no message", 1)]


def test_a_server_tool_result_in_the_assistant_content_is_the_call_result():
    from data_catalog.sources import get_converter

    response = {
        "type": "message",
        "role": "assistant",
        "id": "msg_1",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "server_tool_use", "id": "srv_1", "name": "web_search", "input": {"query": "aceforge"}},
            {
                "type": "web_search_tool_result",
                "tool_use_id": "srv_1",
                "content": [{"type": "web_search_result", "url": "https://example.org", "title": "Example"}],
            },
            {"type": "text", "text": "Found one page."},
        ],
    }
    steps = get_converter("anthropic_messages").convert(response).trajectory
    assert [(s.class_, getattr(s, "tool_call_id", None)) for s in steps] == [
        ("api_action", "srv_1"),
        ("text_observation", "srv_1"),
        ("message_action", None),
    ]
    assert json.loads(steps[1].content)["url"] == "https://example.org"


def test_claude_code_harness_turns_are_system_and_sidechains_are_counted():
    from data_catalog.sources import get_converter

    base = {"sessionId": "s1", "version": "2.0.76", "cwd": "/repo"}
    events = [
        {
            **base,
            "type": "user",
            "uuid": "u0",
            "isCompactSummary": True,
            "message": {"role": "user", "content": "This session continues a previous one: ..."},
        },
        {
            **base,
            "type": "user",
            "uuid": "u1",
            "isMeta": True,
            "message": {"role": "user", "content": "Caveat: the messages below were generated by local commands."},
        },
        {**base, "type": "user", "uuid": "u2", "message": {"role": "user", "content": "Rename foo to bar."}},
        {
            **base,
            "type": "assistant",
            "uuid": "a1",
            "isSidechain": True,
            "message": {
                "id": "m0",
                "role": "assistant",
                "model": "claude-haiku-4-5",
                "content": [{"type": "text", "text": "subagent"}],
            },
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a2",
            "message": {
                "id": "m1",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": "Done."}],
            },
        },
    ]
    record = get_converter("claude_code").convert(events)
    assert [(s.class_, getattr(s, "source", None)) for s in record.trajectory] == [
        ("text_observation", "system"),
        ("text_observation", "system"),
        ("text_observation", "user"),
        ("message_action", None),
    ]
    assert record.task.instruction == "Rename foo to bar."
    assert record.details["events_not_steps"] == {"sidechain": 1}
    assert identity(record) == ("claude-code", "claude-sonnet-4-5", "2.0.76", [])


def test_claude_code_subagent_file_is_a_session_of_its_own():
    from data_catalog.sources import get_converter

    base = {"sessionId": "s1", "version": "2.1.39", "isSidechain": True, "agentId": "a2898e3"}
    events = [
        {
            **base,
            "type": "user",
            "uuid": "u1",
            "parentUuid": None,
            "message": {"role": "user", "content": "Read session_live.ex."},
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a1",
            "message": {
                "id": "m1",
                "role": "assistant",
                "model": "claude-sonnet-4-5-20250929",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/repo/session_live.ex"}}
                ],
            },
        },
        {
            **base,
            "type": "user",
            "uuid": "u2",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "defmodule SessionLive do"}],
            },
        },
    ]
    record = get_converter("claude_code").convert(events)
    assert [s.class_ for s in record.trajectory] == ["text_observation", "api_action", "text_observation"]
    assert record.details["agentId"] == "a2898e3" and "events_not_steps" not in record.details
