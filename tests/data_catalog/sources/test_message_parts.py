"""LLaMA-Factory v1 message parts in openai_chat and sharegpt, records whose every step is empty, and the environment
kind a chat record's tools and actions give.

The v1 samples below have the shape of LLaMA-Factory's ``data/v1_sft_demo.jsonl`` and of what its v1
converter writes for tool calls (``{type: tool_call, value: "<JSON {name, arguments}>"}``).
"""

from __future__ import annotations

import json

import pytest

from data_catalog.sources.chat_common import environment_kind
from data_catalog.sources.step_dicts import api_call as api_call_step
from data_catalog.sources.step_dicts import code, message, observation
from schemas.record import Tool
from tests.data_catalog.sources.conversion_helpers import convert_lines

V1_PLAIN = {
    "messages": [
        {"role": "user", "content": [{"type": "text", "value": "Who are you?"}], "loss_weight": 0.0},
        {
            "role": "assistant",
            "content": [{"type": "text", "value": "I am an AI assistant."}],
            "loss_weight": 1.0,
        },
    ]
}
V1_TOOLS = {
    "tools": json.dumps([{"name": "get_weather", "parameters": {"type": "object", "properties": {}}}]),
    "messages": [
        {"role": "user", "content": [{"type": "text", "value": "Weather in Oslo?"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "reasoning", "value": "I should look it up."},
                {"type": "tool_call", "value": json.dumps({"name": "get_weather", "arguments": {"city": "Oslo"}})},
            ],
        },
        {"role": "tool", "content": [{"type": "text", "value": '{"temp": 4}'}]},
        {"role": "assistant", "content": [{"type": "text", "value": "4 degrees."}]},
    ],
}


@pytest.mark.parametrize("fmt", ["openai_chat", "sharegpt"])
def test_v1_text_parts_are_read(fmt, tmp_path):
    stats, records, _ = convert_lines(fmt, [V1_PLAIN], tmp_path)
    assert stats.converted == 1
    steps = records[0].trajectory
    assert [s.content for s in steps] == ["Who are you?", "I am an AI assistant."]
    assert records[0].task.instruction == "Who are you?"


@pytest.mark.parametrize("fmt", ["openai_chat", "sharegpt"])
def test_v1_reasoning_and_tool_call_parts(fmt, tmp_path):
    stats, records, _ = convert_lines(fmt, [V1_TOOLS], tmp_path)
    assert stats.converted == 1
    steps = records[0].trajectory
    assert [s.class_ for s in steps] == ["text_observation", "api_action", "text_observation", "message_action"]
    call = steps[1]
    assert (call.function, call.kwargs, call.reasoning) == ("get_weather", {"city": "Oslo"}, "I should look it up.")
    assert (steps[2].source, steps[2].name, steps[2].content) == ("tool", "get_weather", '{"temp": 4}')
    assert [t.name for t in records[0].environment.tools] == ["get_weather"]


@pytest.mark.parametrize("fmt", ["openai_chat", "sharegpt"])
def test_a_record_whose_every_step_is_empty_is_quarantined(fmt, tmp_path):
    empty = {"messages": [{"role": "user", "content": ""}, {"role": "assistant", "content": [{"type": "text"}]}]}
    stats, records, quarantined = convert_lines(fmt, [empty, V1_PLAIN], tmp_path)
    assert (stats.converted, stats.quarantined) == (1, 1)
    assert quarantined[0]["error"].startswith("every step is empty (2 steps")


def test_empty_steps_in_a_non_chat_format_are_quarantined(tmp_path):
    empty = {"instance_id": "x", "model": "m", "messages": [{"role": "user", "content": " "}], "verified": True}
    stats, _, quarantined = convert_lines("mini_swe_agent", [empty], tmp_path)
    assert stats.quarantined == 1
    assert "every step is empty" in quarantined[0]["error"]


def test_a_reasoning_part_outside_an_assistant_message_is_named(tmp_path):
    bad = {"messages": [{"role": "user", "content": [{"type": "reasoning", "value": "hm"}]}]}
    _, _, quarantined = convert_lines("openai_chat", [bad], tmp_path)
    assert quarantined[0]["error"] == "messages[0]: a 'reasoning' part outside an assistant message"


@pytest.mark.parametrize(
    ("languages", "api_call", "kind"),
    [
        ((), False, "chat"),
        (("bash", "bash"), False, "shell"),
        (("bash", "python"), False, "code_sandbox"),
        (("python", "bash"), False, "code_sandbox"),
        (("bash",), True, "tool_use"),
    ],
)
def test_the_environment_kind_follows_the_actions_taken(languages, api_call, kind):
    steps = [observation("task", "user"), *(code(language, "x") for language in languages)]
    steps += [api_call_step("lookup", {})] if api_call else [message("done")]
    assert environment_kind([], steps) == kind
    assert environment_kind([Tool(name="lookup")], steps[:1]) == "tool_use"  # a declared tool is enough
