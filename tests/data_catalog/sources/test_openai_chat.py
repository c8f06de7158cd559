"""The openai_chat converter on literal chat-completions conversations (no fixture exists for the format)."""

from __future__ import annotations

import json

import jsonschema
import pytest

from data_catalog.sources import get_converter
from data_catalog.sources.base import ConversionError, ConvertOptions
from schemas.adp import record_to_adp
from schemas.record import Tool
from schemas.steps import ApiAction, CodeAction, ImageObservation, MessageAction, TextObservation
from tests.conftest import ROOT
from tests.data_catalog.sources.conversion_helpers import convert_lines

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
            "required": ["city"],
        },
    },
}
TOOL_USE = {
    "id": "chatcmpl-9xYz",
    "model": "gpt-4o-2024-08-06",
    "tools": [WEATHER_TOOL],
    "messages": [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "What's the weather in Paris and in Oslo?"},
        {
            "role": "assistant",
            "content": "I'll check both cities.",
            "tool_calls": [
                {
                    "id": "call_a1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris", "unit": "c"}'},
                },
                {
                    "id": "call_b2",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": {"city": "Oslo"}},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_a1", "content": '{"temp": 18, "sky": "clear"}'},
        {"role": "tool", "tool_call_id": "call_b2", "name": "get_weather", "content": '{"temp": 4, "sky": "snow"}'},
        {"role": "assistant", "content": "Paris: 18°C and clear. Oslo: 4°C with snow."},
    ],
}


def convert(raw):
    return get_converter("openai_chat").convert(raw)


def test_tool_use_conversation():
    record = convert(TOOL_USE)
    assert record.trajectory == [
        TextObservation(content="You are a helpful assistant.", source="system"),
        TextObservation(content="What's the weather in Paris and in Oslo?", source="user"),
        # the text beside the calls is the first call's reasoning
        ApiAction(
            function="get_weather",
            kwargs={"city": "Paris", "unit": "c"},
            tool_call_id="call_a1",
            reasoning="I'll check both cities.",
        ),
        ApiAction(function="get_weather", kwargs={"city": "Oslo"}, tool_call_id="call_b2"),
        TextObservation(
            content='{"temp": 18, "sky": "clear"}', source="tool", name="get_weather", tool_call_id="call_a1"
        ),
        TextObservation(
            content='{"temp": 4, "sky": "snow"}', source="tool", name="get_weather", tool_call_id="call_b2"
        ),
        MessageAction(content="Paris: 18°C and clear. Oslo: 4°C with snow."),
    ]
    assert record.environment.kind == "tool_use"
    assert record.environment.tools == [
        Tool(
            name="get_weather",
            description="Current weather for a city.",
            parameters=WEATHER_TOOL["function"]["parameters"],
        )
    ]
    assert record.task.instruction == "What's the weather in Paris and in Oslo?"
    assert record.source.original_id == "chatcmpl-9xYz"
    assert record.id == get_converter("openai_chat").record_id("chatcmpl-9xYz", TOOL_USE)
    assert record.details == {"model": "gpt-4o-2024-08-06"}


def test_plain_chat_without_tools_or_id():
    raw = {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello! How can I help?"}]}
    record = convert(raw)
    assert record.environment.kind == "chat" and record.environment.tools == []
    assert record.trajectory == [
        TextObservation(content="Hi", source="user"),
        MessageAction(content="Hello! How can I help?"),
    ]
    assert record.source.original_id is None
    assert record.id == convert(json.loads(json.dumps(raw))).id  # content id: stable
    assert record.id != convert({"messages": [*raw["messages"][:1], {"role": "assistant", "content": "Hey"}]}).id


def test_tools_as_json_string_reasoning_content_and_parts():
    raw = {
        "tools": json.dumps([WEATHER_TOOL]),
        "messages": [
            {"role": "developer", "content": [{"type": "text", "text": "Be brief."}]},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}},
                ],
            },
            {"role": "assistant", "content": "A cat.", "reasoning_content": "The picture shows whiskers."},
        ],
    }
    record = convert(raw)
    assert record.trajectory == [
        TextObservation(content="Be brief.", source="system"),
        TextObservation(content="What is this?", source="user"),
        ImageObservation(content="https://example.com/cat.png", source="user"),
        MessageAction(content="A cat.", reasoning="The picture shows whiskers."),
    ]
    assert [t.name for t in record.environment.tools] == ["get_weather"]


def test_results_without_ids_answer_the_oldest_open_call():
    raw = {
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "get_weather", "arguments": '{"city": "Rome"}'},
            },
            {"role": "function", "name": "get_weather", "content": "sunny"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"type": "function", "function": {"name": "get_time", "arguments": ""}}],
            },
            {"role": "tool", "content": "12:00"},
        ]
    }
    steps = convert(raw).trajectory
    assert steps[1] == ApiAction(function="get_weather", kwargs={"city": "Rome"})
    assert steps[2] == TextObservation(content="sunny", source="tool", name="get_weather")
    assert steps[3] == ApiAction(function="get_time", kwargs={})
    assert steps[4] == TextObservation(content="12:00", source="tool", name="get_time")


def test_export_to_adp_validates_and_maps_tool_output_to_environment():
    schema = json.loads((ROOT.parent / "shared" / "adp-v1.schema.json").read_text())
    adp = record_to_adp(convert(TOOL_USE))
    jsonschema.validate(adp, schema)
    assert [s.get("source") for s in adp["content"] if s["class_"] == "text_observation"] == [
        "user",
        "environment",
        "environment",
    ]
    assert adp["details"]["system_prompt"] == "You are a helpful assistant."


@pytest.mark.parametrize(
    ("messages", "error"),
    [
        ([{"role": "narrator", "content": "x"}], "messages[0]: unknown role 'narrator'"),
        (
            [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "call_9", "content": "y"}],
            "messages[1]: tool result for tool_call_id 'call_9' answers no earlier call",
        ),
        ([{"role": "tool", "content": "y"}], "messages[0]: tool result answers no earlier call"),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "[1, 2]"}}]}],
            "messages[0] tool_calls[0]: arguments are JSON list, expected an object",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"arguments": "{}"}}]}],
            "messages[0] tool_calls[0] has no function name",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f"}}, "g()"]}],
            "messages[0] tool_calls[1] is str, expected an object",
        ),
        ([{"role": "user", "content": 5}], "messages[0]: content is int, expected a string or a list of parts"),
        ([{"role": "user", "content": "Hi", "name": 42}], "messages[0]: name is int, expected a string"),
        (
            [{"role": "assistant", "content": "ok", "reasoning_content": {"steps": 2}}],
            "messages[0]: reasoning_content is dict, expected a string",
        ),
        (
            [
                {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c", "name": ["f"], "content": "y"},
            ],
            "messages[1]: name is list, expected a string",
        ),
        (["hello"], "messages[0] is str, expected an object"),
    ],
)
def test_malformed_messages(messages, error):
    with pytest.raises(ConversionError) as info:
        convert({"messages": messages})
    assert str(info.value) == error


def test_bad_records_are_quarantined_with_reasons(tmp_path):
    bad_args = {
        "id": "b3",
        "messages": [
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{city: Paris"}}
                ],
            }
        ],
    }
    lines = [
        TOOL_USE,
        {"id": "b1", "conversation": []},
        {
            "id": "b2",
            "messages": [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "nope", "content": "y"}],
        },
        bad_args,
        {"id": "b4", "messages": [{"role": "wizard", "content": "x"}]},
        {"id": "b5", "messages": "hi"},
        {"id": "b6", "messages": []},
        {"id": "b7", "tools": [{"type": "function"}], "messages": [{"role": "user", "content": "x"}]},
        '{"id": "b8", "messages": [{"role": "user"',
        {"id": "ok2", "messages": [{"role": "user", "content": "Hi"}]},
    ]
    stats, records, quarantine = convert_lines("openai_chat", lines, tmp_path)
    assert (stats.read, stats.converted, stats.quarantined) == (10, 2, 8)
    assert [r.source.original_id for r in records] == ["chatcmpl-9xYz", "ok2"]
    errors = [q["error"] for q in quarantine]
    assert errors[0] == "missing field 'messages'"
    assert errors[1] == "messages[1]: tool result for tool_call_id 'nope' answers no earlier call"
    assert (
        errors[2].startswith("messages[0] tool_calls[0]: arguments are not valid JSON") and "{city: Paris" in errors[2]
    )
    assert errors[3] == "messages[0]: unknown role 'wizard'"
    assert errors[4] == "field 'messages' is str, expected list"
    assert errors[5] == "field 'messages' is empty"
    assert errors[6] == "tools[0] has no function name"
    assert errors[7].startswith("invalid JSON line")
    assert '"id":"b2"' in quarantine[1]["raw_excerpt"]


SWE_SMITH_SYSTEM = """You are a helpful assistant that can interact with a computer to solve tasks.

You have access to the following functions:

---- BEGIN FUNCTION #1: bash ----
Description: Execute a bash command in the terminal.

Parameters:
  (1) command (string, required): The bash command to execute.
---- END FUNCTION #1 ----

---- BEGIN FUNCTION #2: submit ----
Description: Finish the interaction when the task is complete.
No parameters are required for this function.
---- END FUNCTION #2 ----
"""
# SWE-smith trajectories: OpenHands' function markup in the assistant's text, results as "OBSERVATION:" user turns.
SWE_SMITH = {
    "instance_id": "arrow__1234",
    "resolved": True,
    "messages": [
        {"role": "system", "content": SWE_SMITH_SYSTEM},
        {"role": "user", "content": "<pr_description>\nFix the f-string format.\n</pr_description>"},
        {
            "role": "assistant",
            "content": "Let's find the Arrow class.\n\n<function=bash>\n<parameter=command>grep -rn 'class Arrow' /testbed</parameter>\n</function>",
        },
        {"role": "user", "content": "OBSERVATION:\n/testbed/arrow/arrow.py:88:class Arrow:"},
        {"role": "assistant", "content": "<function=submit>\n</function>"},
    ],
}


def test_openhands_function_markup_written_as_text():
    record = convert(SWE_SMITH)
    assert record.trajectory[2:] == [
        CodeAction(language="bash", content="grep -rn 'class Arrow' /testbed", reasoning="Let's find the Arrow class."),
        TextObservation(content="/testbed/arrow/arrow.py:88:class Arrow:", source="tool", name="bash"),
        ApiAction(function="submit", kwargs={}),
    ]
    assert [t.name for t in record.environment.tools] == ["bash", "submit"]
    assert record.environment.tools[0].parameters["properties"]["command"]["type"] == "string"
    assert record.details == {"instance_id": "arrow__1234"}  # resolved is the verdict:
    assert (record.verifier.kind, record.verifier.result.passed, record.verifier.result.score) == (
        "unit_tests",
        True,
        1.0,
    )
    off = get_converter("openai_chat", ConvertOptions(extra={"text_calls": "off"})).convert(SWE_SMITH)
    assert [s.class_ for s in off.trajectory[2:]] == ["message_action", "text_observation", "message_action"]
    assert off.trajectory[3].source == "user"


def test_fields_a_role_does_not_read_are_kept_and_empty_ones_it_could_are_not():
    record = convert(
        {
            "messages": [
                {"role": "system", "content": "Be brief.", "name": "policy", "tool_calls": None},
                {"role": "user", "content": "Hi", "name": "ann", "thoughts": "greets", "tool_call_id": ""},
                {
                    "role": "assistant",
                    "content": "Hello",
                    "name": "agent-1",
                    "reasoning_content": "be polite",
                    "reasoning": "an older summary",
                },
            ]
        }
    )
    assert record.trajectory[1].name == "ann" and record.trajectory[2].reasoning == "be polite"
    assert record.details["message_fields"] == {
        "0": {"name": "policy"},
        "1": {"thoughts": "greets"},
        "2": {"name": "agent-1", "reasoning": "an older summary"},
    }


def test_toucan_available_tools_and_fields_beside_messages():
    """Toucan-1.5M keeps its tool list in available_tools; a message's extra fields are kept, not dropped."""
    raw = {
        "id": "toucan_sample_0",
        "available_tools": [WEATHER_TOOL],
        "messages": [
            {"role": "user", "content": "Weather in Oslo?", "turn_id": 0},
            {
                "role": "assistant",
                "content": "",
                "function_call": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
            },
            {"role": "function", "name": "get_weather", "content": '{"temp": 4}'},
            {"role": "assistant", "content": "4°C.", "thoughts": "Report the temperature."},
        ],
    }
    record = convert(raw)
    assert [t.name for t in record.environment.tools] == ["get_weather"]
    assert record.trajectory[-1] == MessageAction(content="4°C.", reasoning="Report the temperature.")
    assert record.details == {"message_fields": {"0": {"turn_id": 0}}}
    with pytest.raises(ValueError, match="option text_calls must be auto or off, not 'maybe'"):
        get_converter("openai_chat", ConvertOptions(extra={"text_calls": "maybe"}))


def test_an_unclosed_function_tag_inside_a_json_string_makes_no_call():
    """An AgentLab step quotes "<function=browser>" in a JSON string: no browser({}) call is invented."""
    step = '{"think": "I could use <function=browser> here", "action": "click(bid=\\"149\\")"}'
    raw = {"messages": [{"role": "user", "content": "Open the cart."}, {"role": "assistant", "content": step}]}
    (last,) = convert(raw).trajectory[1:]
    assert isinstance(last, MessageAction) and last.content == step
    bare = {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "see <function=x> docs"}]}
    assert [s.class_ for s in convert(bare).trajectory] == ["text_observation", "message_action"]


def test_an_unframed_output_after_a_written_call_is_a_tool_observation():
    raw = {
        "messages": [
            {"role": "user", "content": "Fix the bug."},
            {"role": "assistant", "content": "<function=bash>\n<parameter=command>cat x.py</parameter>\n</function>"},
            {"role": "user", "content": "cat: x.py: No such file or directory"},
            {"role": "assistant", "content": "It is missing."},
            {"role": "user", "content": "Thanks, that is all."},
        ]
    }
    steps = convert(raw).trajectory
    assert [(s.class_, getattr(s, "source", None)) for s in steps] == [
        ("text_observation", "user"),
        ("code_action", None),
        ("text_observation", "tool"),
        ("message_action", None),
        ("text_observation", "user"),
    ]
    assert steps[2].content == "cat: x.py: No such file or directory"


def test_a_bash_tool_call_is_a_code_action_with_its_call_id():
    raw = {
        "messages": [
            {"role": "user", "content": "List files."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "a.py"},
        ]
    }
    steps = convert(raw).trajectory
    assert steps[1] == CodeAction(language="bash", content="ls", tool_call_id="c1")
    assert (steps[2].source, steps[2].tool_call_id, steps[2].name) == ("tool", "c1", "bash")


def test_resolved_false_is_a_failed_unit_test_verdict():
    record = convert({**SWE_SMITH, "resolved": False})
    assert (record.verifier.kind, record.verifier.result.passed, record.verifier.result.score) == (
        "unit_tests",
        False,
        0.0,
    )
    assert record.verifier.result.verifier == "swe-bench"
