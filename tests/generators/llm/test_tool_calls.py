import pytest

from generators.llm.interface import ToolCall
from generators.llm.prompting import template_messages
from generators.llm.tool_calls import assistant_message, completion_from_text, normalize_tools, parse_tool_calls
from schemas.record import Tool

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
TOOLS = normalize_tools([WEATHER, Tool(name="book_flight", description="Book a flight", access="write")])


def test_normalize_accepts_tool_models_bare_functions_and_openai_dicts():
    bare = normalize_tools([{"name": "f", "parameters": {"type": "object", "properties": {"x": {"type": "integer"}}}}])
    assert bare == [
        {
            "type": "function",
            "function": {
                "name": "f",
                "description": "",
                "parameters": {"type": "object", "properties": {"x": {"type": "integer"}}},
            },
        }
    ]
    assert TOOLS[1]["function"] == {
        "name": "book_flight",
        "description": "Book a flight",
        "parameters": {"type": "object", "properties": {}},
    }
    with pytest.raises(ValueError, match="not a function tool"):
        normalize_tools([{"type": "retrieval"}])


def test_hermes_calls_are_parsed_and_removed_from_the_text():
    text = (
        'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n'
        '<tool_call>{"name": "book_flight", "arguments": "{\\"to\\": \\"Rome\\"}"}</tool_call>'
    )
    parsed = parse_tool_calls(text, TOOLS)
    assert parsed.content == "Let me check."
    assert [(c.name, c.arguments) for c in parsed.tool_calls] == [
        ("get_weather", {"city": "Paris"}),
        ("book_flight", {"to": "Rome"}),  # arguments given as a JSON string are decoded
    ]
    assert parsed.errors == []
    assert parsed.tool_calls[0].id != parsed.tool_calls[1].id
    # Ids are stable: the same reply parses to the same ids.
    assert parse_tool_calls(text, TOOLS).tool_calls == parsed.tool_calls


def test_malformed_hermes_call_stays_in_text_with_an_error():
    text = 'ok <tool_call>{"name": "get_weather", "arguments": {"city": }</tool_call> <tool_call>{"arguments": {}}</tool_call>'
    parsed = parse_tool_calls(text, TOOLS)
    assert parsed.tool_calls == []
    assert '{"name": "get_weather", "arguments": {"city": }' in parsed.content
    assert '{"arguments": {}}' in parsed.content
    assert len(parsed.errors) == 2
    assert parsed.errors[0].startswith("malformed <tool_call> block")
    assert "string 'name'" in parsed.errors[1]


def test_unterminated_call_is_reported():
    parsed = parse_tool_calls('<tool_call>{"name": "get_weather", "argum', TOOLS)
    assert parsed.tool_calls == []
    assert parsed.content == '<tool_call>{"name": "get_weather", "argum'
    assert parsed.errors == ["unterminated <tool_call> block (reply cut off?)"]


def test_plain_json_calls_single_list_and_fenced():
    one = parse_tool_calls('{"name": "get_weather", "arguments": {"city": "Oslo"}}', TOOLS)
    assert [(c.name, c.arguments) for c in one.tool_calls] == [("get_weather", {"city": "Oslo"})]
    assert one.content == ""
    many = parse_tool_calls(
        '```json\n[{"name": "get_weather", "parameters": {"city": "Oslo"}}, {"name": "book_flight", "arguments": {}}]\n```',
        TOOLS,
    )
    assert [c.name for c in many.tool_calls] == ["get_weather", "book_flight"]


def test_json_that_is_not_a_known_tool_call_stays_text():
    answer = '{"name": "Alice", "arguments": ["she", "disagreed"]}'
    assert parse_tool_calls(answer, TOOLS).tool_calls == []
    assert parse_tool_calls(answer, TOOLS).content == answer
    assert parse_tool_calls('{"answer": 4}', TOOLS).tool_calls == []
    assert parse_tool_calls("The weather is fine.", TOOLS).content == "The weather is fine."


def test_plain_json_call_with_bad_arguments_keeps_text_and_error():
    parsed = parse_tool_calls('{"name": "get_weather", "arguments": [1, 2]}', TOOLS)
    assert parsed.tool_calls == []
    assert parsed.content == '{"name": "get_weather", "arguments": [1, 2]}'
    assert parsed.errors == ["malformed JSON tool call: tool call 'get_weather': arguments must be a JSON object"]


def test_completion_marks_tool_calls_as_finish_reason():
    done = completion_from_text(
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>', "stop", TOOLS
    )
    assert done.finish_reason == "tool_calls"
    assert done.tool_calls[0].arguments == {"city": "Oslo"}
    without_tools = completion_from_text('<tool_call>{"name": "x", "arguments": {}}</tool_call>', "stop", None)
    assert without_tools.tool_calls == [] and without_tools.text.startswith("<tool_call>")


def _assistant_segment(rendered: str) -> str:
    """The text of the last assistant turn in a ChatML rendering."""
    segment = rendered.rsplit("<|im_start|>assistant\n", 1)[1]
    return segment.split("<|im_end|>", 1)[0]


@pytest.mark.parametrize(
    "calls",
    [
        [ToolCall(id="call_a", name="get_weather", arguments={"city": "São Paulo"})],
        [
            ToolCall(id="call_a", name="get_weather", arguments={"city": "Lima"}),
            ToolCall(
                id="call_b", name="book_flight", arguments={"to": "Rome", "seats": 2, "options": {"window": True}}
            ),
        ],
    ],
)
def test_tool_calls_round_trip_through_the_chat_template(smol_tokenizer, calls):
    conversation = [{"role": "user", "content": "Help me travel."}, assistant_message("Sure.", calls)]
    rendered = smol_tokenizer.apply_chat_template(template_messages(conversation), tools=TOOLS, tokenize=False)
    assert "<tools>" in rendered and '"name": "book_flight"' in rendered
    parsed = parse_tool_calls(_assistant_segment(rendered), TOOLS)
    assert parsed.errors == []
    assert parsed.content == "Sure."
    assert [(c.name, c.arguments) for c in parsed.tool_calls] == [(c.name, c.arguments) for c in calls]


def test_string_arguments_from_the_openai_wire_render_as_objects(smol_tokenizer):
    wire = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}
        ],
    }
    rendered = smol_tokenizer.apply_chat_template(
        template_messages([{"role": "user", "content": "hi"}, wire]), tools=TOOLS, tokenize=False
    )
    assert '{"name": "get_weather", "arguments": {"city": "Oslo"}}' in rendered
