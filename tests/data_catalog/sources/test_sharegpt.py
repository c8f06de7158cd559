"""The sharegpt converter on ADP's real samples (react, codeact, markdown) and on literal inputs.

Each fixture's conversion is compared with ADP's own sample_std.json, step kind
by step kind (and observation source). ADP's known defects are undone on ADP's
side in ``adp_steps`` and each one is pinned by a test that names it.
"""

from __future__ import annotations

import pytest

from data_catalog.sources import get_converter
from data_catalog.sources.base import ConversionError, ConvertOptions
from schemas.steps import ApiAction, CodeAction, MessageAction, TextObservation
from tests.conftest import ADP_FIXTURES
from tests.data_catalog.sources.conversion_helpers import convert_lines, load

# dataset -> the dialect auto-detection must find
FIXTURE_DIALECTS = {
    "agenttuning_alfworld": "react",
    "agenttuning_os": "react",
    "codeactinstruct": "codeact",
    "code_feedback": "markdown",
}
# The user turns ADP's converters append when a trajectory "does not end in a finish" (caveat 1).
ADP_CANNED_SUCCESS = {
    "Congratulations! You have successfully solved the task.",
    "Your solution has been verified as correct. ",
    "Well done on successfully completing the task!",
    "Your implementation satisfies the task requirements.",
    "Task completed successfully.",
}
# Caveat 4: ADP labels environment output "user". Here, by dataset: the step kinds after which
# ADP's "user" observation is really environment output (alfworld: the game's reply to an
# action; codeactinstruct: every "Observation:" turn, after code or a proposed solution).
ADP_MISLABELLED_AFTER = {
    "agenttuning_alfworld": {"api_action"},
    "codeactinstruct": {"code_action", "message_action"},
}


def pairs(dataset: str) -> list[tuple[dict, dict]]:
    raw = load(ADP_FIXTURES / dataset / "sample_raw.json")
    std = load(ADP_FIXTURES / dataset / "sample_std.json")
    assert [str(r["id"]) for r in raw] == [s["id"] for s in std]
    return list(zip(raw, std))


def convert(raw: dict, **options: str):
    return get_converter("sharegpt", ConvertOptions(extra=options)).convert(raw)


def ran(raw: dict) -> list[bool]:
    """For each raw turn: is the next one the output of code it ran ("Execution result:")?"""
    turns = raw.get("conversations") or raw["messages"]
    return [i + 1 < len(turns) and turns[i + 1]["content"].startswith("Execution result:") for i in range(len(turns))]


def expected_dialect(dataset: str, raw: dict) -> str:
    """code_feedback: markdown when some fenced code ran, else plain (its snippets are only shown)."""
    if dataset != "code_feedback":
        return FIXTURE_DIALECTS[dataset]
    turns = raw["messages"]
    return "markdown" if any(r and "```" in t["content"] for t, r in zip(turns, ran(raw))) else "plain"


def adp_steps(dataset: str, std: dict, raw: dict) -> list[tuple[str, str | None]]:
    """ADP's (class_, source) sequence with its known defects undone."""
    content = std["content"]
    if content[-2]["class_"] == "text_observation" and content[-2]["content"] in ADP_CANNED_SUCCESS:
        content = content[:-2]  # caveat 1: the synthetic finish pair is not in the raw data
    # code_feedback (one ADP step per raw turn): ADP makes every fenced block code, also a snippet
    # that nothing ran (the next turn is the user's next request); that is a message, not an action.
    shown_only = [not r for r in ran(raw)] if dataset == "code_feedback" else [False] * len(content)
    out = []
    for i, step in enumerate(content):
        source = step.get("source")
        if source == "user" and i and content[i - 1]["class_"] in ADP_MISLABELLED_AFTER.get(dataset, ()):
            source = "environment"
        kind = "message_action" if step["class_"] == "code_action" and shown_only[i] else step["class_"]
        out.append((kind, source))
    return out


def our_steps(record) -> list[tuple[str, str | None]]:
    """Our (class_, source) sequence, in ADP's granularity: ADP drops system prompts (caveat 5),
    and turns each assistant reply into exactly one action (the first code block, or the whole
    reply as a message), where we keep every block and the prose after it as further actions."""
    out = []
    for step in record.trajectory:
        if isinstance(step, TextObservation) and step.source == "system":
            continue
        if not isinstance(step, TextObservation) and out and out[-1][0] != "text_observation":
            continue  # a further action of the same reply
        out.append((step.class_, getattr(step, "source", None)))
    return out


@pytest.mark.parametrize("dataset", sorted(FIXTURE_DIALECTS))
def test_step_kinds_agree_with_adp(dataset):
    for raw, std in pairs(dataset):
        record = convert(raw)
        assert record.details["dialect"] == expected_dialect(dataset, raw)
        assert our_steps(record) == adp_steps(dataset, std, raw), raw["id"]


@pytest.mark.parametrize("dataset", ["agenttuning_alfworld", "agenttuning_os", "codeactinstruct"])
def test_forced_dialect_gives_the_same_steps(dataset):
    for raw, _ in pairs(dataset):
        assert convert(raw, dialect=FIXTURE_DIALECTS[dataset]).trajectory == convert(raw).trajectory


def test_forced_markdown_reads_every_block_as_code_auto_only_the_blocks_that_ran():
    for raw, _ in pairs("code_feedback"):
        forced = [s for s in convert(raw, dialect="markdown").trajectory if isinstance(s, CodeAction)]
        auto = [s for s in convert(raw).trajectory if isinstance(s, CodeAction)]
        turns_with_code = [t for t in raw["messages"] if t["role"] == "assistant" and "```" in t["content"]]
        assert len(forced) >= len(turns_with_code) and all(step in forced for step in auto)
    shown = next(raw for raw, _ in pairs("code_feedback") if raw["id"] == 46263)
    assert [type(s) for s in convert(shown).trajectory[:2]] == [TextObservation, MessageAction]
    assert [type(s) for s in convert(shown, dialect="markdown").trajectory[:3]] == [
        TextObservation,
        CodeAction,
        MessageAction,
    ]


@pytest.mark.parametrize("dataset", ["agenttuning_os", "codeactinstruct", "code_feedback"])
def test_code_actions_match_adp(dataset):
    """Code, language and reasoning of each reply's first code action equal ADP's code and description."""
    for raw, std in pairs(dataset):
        steps = convert(raw).trajectory
        ours = [
            s for s, prev in zip(steps[1:], steps) if isinstance(s, CodeAction) and isinstance(prev, TextObservation)
        ]
        shown_only = [not r for r in ran(raw)] if dataset == "code_feedback" else [False] * len(std["content"])
        theirs = [s for s, shown in zip(std["content"], shown_only) if s["class_"] == "code_action" and not shown]
        assert [(s.language, s.content, s.reasoning or "") for s in ours] == [
            (s["language"], s["content"], (s["description"] or "").strip()) for s in theirs
        ]


def test_alfworld_actions_match_adp_api_with_plain_values():
    """Function and keyword names as ADP's alfworld api; values without ADP's pre-quoting (caveat 3)."""
    for raw, std in pairs("agenttuning_alfworld"):
        ours = [(s.function, s.kwargs) for s in convert(raw).trajectory if isinstance(s, ApiAction)]
        theirs = [
            (s["function"], {k: v.strip('"') for k, v in s["kwargs"].items()})
            for s in std["content"]
            if s["class_"] == "api_action"
        ]
        assert ours == theirs
    first = next(s for s in convert(pairs("agenttuning_alfworld")[0][0]).trajectory if isinstance(s, ApiAction))
    assert first == ApiAction(
        function="go",
        kwargs={"location": "shelf 1"},
        reasoning="My task is to put two spraybottle in the toilet. I'll start by looking around to find the spraybottles.",
    )


def test_alfworld_feedback_is_environment_not_user():
    raw, std = pairs("agenttuning_alfworld")[0]
    steps = convert(raw).trajectory
    assert [s.source for s in steps if isinstance(s, TextObservation)][:3] == ["user", "user", "environment"]
    assert steps[4] == TextObservation(
        content="On the shelf 1, you see a soapbottle 2, a spraybottle 2, and a spraybottle 1.", source="environment"
    )
    assert std["content"][4]["source"] == "user"  # what ADP says


def test_codeact_observations_are_environment_not_user():
    for raw, std in pairs("codeactinstruct"):
        ours = [s for s in convert(raw).trajectory if isinstance(s, TextObservation) and s.source == "environment"]
        framed = [t["content"] for t in raw["conversations"] if t["content"].startswith("Observation:\n")]
        assert [s.content for s in ours] == [t[len("Observation:\n") :] for t in framed]
        adp = [
            s
            for s in std["content"][1:]
            if s["class_"] == "text_observation" and s["content"] not in ADP_CANNED_SUCCESS
        ]
        assert {s["source"] for s in adp} == {"user"}  # ADP's label for the same turns


def test_os_terminal_output_and_answers():
    raw, _ = pairs("agenttuning_os")[0]
    steps = convert(raw).trajectory
    assert steps[1] == CodeAction(
        language="bash", content="ls /etc", reasoning="To count the files in /etc, I need to print all the files in it."
    )
    assert steps[4] == TextObservation(content="220", source="environment")
    assert steps[5] == MessageAction(content="220", reasoning="Now I get the answer, it is 220.")
    assert steps[6].source == "user" and steps[6].content.startswith("Now, I will start a new problem")


def test_system_prompt_kept():
    for raw, std in pairs("codeactinstruct"):
        first = convert(raw).trajectory[0]
        assert first == TextObservation(content=raw["conversations"][0]["content"], source="system")
        assert all(s.get("source") != "system" for s in std["content"])  # ADP dropped it


def test_no_synthetic_finish_turns():
    """Our trajectories end where the raw conversation ends; ADP appends canned turns to most."""
    appended = 0
    for dataset in FIXTURE_DIALECTS:
        for raw, std in pairs(dataset):
            steps = convert(raw).trajectory
            turns = raw.get("conversations") or raw["messages"]
            assert not any(getattr(s, "content", None) in ADP_CANNED_SUCCESS for s in steps)
            assert "<finish>" not in str(getattr(steps[-1], "content", ""))
            assert sum(isinstance(s, TextObservation) for s in steps) == sum(t["role"] != "assistant" for t in turns)
            appended += std["content"][-2]["content"] in ADP_CANNED_SUCCESS
    assert appended >= 10  # the defect is really there to undo


def test_markdown_keeps_every_code_block_and_trailing_prose():
    raw = next(r for r, _ in pairs("code_feedback") if r["id"] == 49434)
    reply = convert(raw).trajectory[1:3]
    assert [type(s) for s in reply] == [CodeAction, CodeAction]  # ADP keeps only the first
    assert reply[1].reasoning == "Now, let's execute the code to encrypt the given text string."
    assert reply[1].content.endswith("encrypted_text = caesar_cipher(plaintext)\nencrypted_text")
    raw = next(r for r, _ in pairs("code_feedback") if r["id"] == 46263)
    steps = convert(raw, dialect="markdown").trajectory
    assert [type(s) for s in steps[:3]] == [TextObservation, CodeAction, MessageAction]
    assert steps[1].language == "javascript" and steps[2].content  # the explanation after the code, dropped by ADP
    assert steps[2].content in raw["messages"][1]["content"]


def test_int_ids_become_strings():
    raw, std = pairs("code_feedback")[0]
    record = convert(raw)
    assert raw["id"] == 13461 and record.source.original_id == "13461" == std["id"]
    assert record.id == get_converter("sharegpt").record_id("13461", raw)
    assert record.environment.kind == "code_sandbox" and record.task.instruction == raw["messages"][0]["content"]


def test_plain_orca_style_with_system_field():
    raw = {
        "id": "orca-1",
        "system": "You are an AI assistant. Provide a detailed answer.",
        "conversations": [
            {"from": "human", "value": "Translate to French: good morning"},
            {"from": "gpt", "value": "Bonjour. ```is not code here``` — just prose."},
        ],
    }
    record = convert(raw)
    assert record.details == {"dialect": "plain"}
    assert record.trajectory == [
        TextObservation(content=raw["system"], source="system"),
        TextObservation(content="Translate to French: good morning", source="user"),
        MessageAction(content="Bonjour. ```is not code here``` — just prose."),
    ]
    assert record.environment.kind == "chat" and record.task.instruction == "Translate to French: good morning"


def test_plain_dialect_keeps_framed_user_text_as_user():
    raw = {
        "conversations": [
            {"from": "human", "value": "Observation: the sky is blue. Why?"},
            {"from": "gpt", "value": "Rayleigh scattering."},
        ]
    }
    assert convert(raw, dialect="plain").trajectory[0].source == "user"
    assert convert(raw, dialect="codeact").trajectory[0].source == "environment"


def test_function_call_and_observation_turns_with_tools():
    raw = {
        "conversations": [
            {"from": "human", "value": "What is 2+3?"},
            {"from": "function_call", "value": '{"name": "add", "arguments": {"a": 2, "b": 3}}'},
            {"from": "observation", "value": "5"},
            {"from": "gpt", "value": "2+3 is 5."},
        ],
        "tools": '[{"name": "add", "description": "Add two numbers", "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}}]',
        "category": "math",
    }
    record = convert(raw)
    assert record.trajectory[1:] == [
        ApiAction(function="add", kwargs={"a": 2, "b": 3}),
        TextObservation(content="5", source="tool", name="add"),
        MessageAction(content="2+3 is 5."),
    ]
    assert [t.name for t in record.environment.tools] == ["add"] and record.environment.kind == "tool_use"
    assert record.details == {"category": "math", "dialect": "plain"}
    assert record.id == convert(dict(raw)).id  # no id: a content id, the same every time
    assert record.id != convert({**raw, "category": "algebra"}).id


def test_react_text_actions_outside_the_alfworld_grammar():
    def action(text: str):
        return convert(
            {"conversations": [{"from": "human", "value": "Buy a lamp."}, {"from": "gpt", "value": text}]}
        ).trajectory[1]

    assert action("Thought: search first.\nAction: search[desk lamp]") == ApiAction(
        function="search", kwargs={"argument": "desk lamp"}, reasoning="search first."
    )
    assert action("Action: click(Buy Now)") == ApiAction(function="click", kwargs={"argument": "Buy Now"})
    assert action("ACTION: jump over the fence") == ApiAction(function="jump", kwargs={"argument": "over the fence"})
    assert action("ACTION: look") == ApiAction(function="look", kwargs={})
    assert action("THOUGHT: nothing to do here.") == MessageAction(content="THOUGHT: nothing to do here.")


def test_unknown_dialect_is_a_clear_error():
    with pytest.raises(ValueError, match="no dialect 'yaml'"):
        get_converter("sharegpt", ConvertOptions(extra={"dialect": "yaml"}))


def test_bad_records_are_quarantined_with_reasons(tmp_path):
    good = {"id": "g1", "conversations": [{"from": "human", "value": "hi"}, {"from": "gpt", "value": "hello"}]}
    lines = [
        good,
        {"id": "b1", "turns": []},
        {"id": "b2", "conversations": [{"from": "human", "value": "hi"}, {"from": "robot", "value": "beep"}]},
        {"id": "b3", "conversations": [{"from": "human"}]},
        {"id": "b4", "conversations": [{"from": "function_call", "value": "{name: add}"}]},
        {"id": "b5", "conversations": []},
        '{"id": "b6", "conversations": [',
        ["not", "a", "record"],
        {**good, "id": "g2"},
    ]
    stats, records, quarantine = convert_lines("sharegpt", lines, tmp_path)
    assert (stats.read, stats.converted, stats.quarantined) == (11, 2, 9)
    assert [r.source.original_id for r in records] == ["g1", "g2"]
    errors = [q["error"] for q in quarantine]
    assert errors[0] == "field 'conversations' (or 'messages') is missing, expected a list of turns"
    assert errors[1] == "conversations[1]: unknown role 'robot'"
    assert errors[2] == "conversations[0] has no 'value' or 'content'"
    assert errors[3].startswith("conversations[0]: function call is not valid JSON")
    assert errors[4] == "field 'conversations' is empty"
    assert errors[5].startswith("invalid JSON line")
    assert errors[6:] == ["record is str, expected an object"] * 3  # a JSON list line is split into its items


def test_conversion_errors_name_the_field():
    with pytest.raises(ConversionError, match=r"conversations\[0\] is int"):
        convert({"conversations": [7]})
    with pytest.raises(ConversionError, match=r"messages\[0\]: unknown role \['user'\]"):
        convert({"messages": [{"role": ["user"], "content": "x"}]})
    with pytest.raises(ConversionError, match="field 'system' is list, expected a string"):
        convert({"system": ["be nice"], "conversations": [{"from": "human", "value": "x"}]})


HERMES_TOOLS = '[{"type": "function", "function": {"name": "get_stock_price", "description": "Latest price of a stock.", "parameters": {"type": "object", "properties": {"symbol": {"type": "string"}}, "required": ["symbol"]}}}]'
# NousResearch hermes-function-calling layout: tools in the system prompt, calls and results as tagged text.
HERMES = {
    "id": "hermes-1",
    "conversations": [
        {
            "from": "system",
            "value": f"You are a function calling AI model. You are provided with function signatures within <tools></tools> XML tags. <tools>\n{HERMES_TOOLS}\n</tools> For each function call return a json object.",
        },
        {"from": "human", "value": "What is Tesla trading at?"},
        {
            "from": "gpt",
            "value": "<tool_call>\n{'arguments': {'symbol': 'TSLA'}, 'name': 'get_stock_price'}\n</tool_call>",
        },
        {
            "from": "tool",
            "value": '<tool_response>\n{"name": "get_stock_price", "content": {"price": 251.3}}\n</tool_response>',
        },
        {"from": "gpt", "value": "Tesla (TSLA) trades at $251.30."},
    ],
}


def test_hermes_tool_calls_written_as_text():
    record = convert(HERMES)
    call, result, answer = record.trajectory[2:]
    assert call == ApiAction(function="get_stock_price", kwargs={"symbol": "TSLA"})  # its dict was printed with repr
    assert result == TextObservation(
        content='{"name": "get_stock_price", "content": {"price": 251.3}}', source="tool", name="get_stock_price"
    )
    assert answer == MessageAction(content="Tesla (TSLA) trades at $251.30.")
    assert [t.name for t in record.environment.tools] == ["get_stock_price"] and record.environment.kind == "tool_use"
    assert record.environment.tools[0].parameters["required"] == ["symbol"]
    # text_calls=off keeps the markup as text.
    off = convert(HERMES, text_calls="off")
    assert isinstance(off.trajectory[2], MessageAction) and off.trajectory[2].content.startswith("<tool_call>")


def test_calls_listed_beside_a_turn_and_a_non_standard_tool_list():
    raw = {
        "id": "api-1",
        "available_tools": [{"name": "get_weather", "description": "Weather now.", "parameters": {"type": "object"}}],
        "conversations": [
            {"from": "human", "value": "Weather in Paris?"},
            {
                "from": "gpt",
                "value": "Let me look it up.",
                "thoughts": "The user wants the current weather.",
                "actions": [{"API_name": "get_weather", "API_params": {"city": "Paris"}}],
                "weight": 1,
            },
            {"from": "function", "value": '{"temp": 18}'},
            {"from": "gpt", "value": "18°C in Paris."},
        ],
    }
    record = convert(raw)
    assert record.trajectory[1] == ApiAction(
        function="get_weather",
        kwargs={"city": "Paris"},
        reasoning="The user wants the current weather.\n\nLet me look it up.",
    )
    assert record.trajectory[2] == TextObservation(content='{"temp": 18}', source="tool", name="get_weather")
    assert [t.name for t in record.environment.tools] == ["get_weather"]
    assert record.details == {"dialect": "plain", "turn_fields": {"1": {"weight": 1}}}  # kept, not dropped


def test_auto_dialect_leaves_snippets_in_a_prose_summary_as_prose():
    raw = {
        "conversations": [
            {"from": "human", "value": "Sum 1..10 in Python."},
            {"from": "gpt", "value": "Running it:\n```python\nprint(sum(range(11)))\n```"},
            {"from": "human", "value": "Execution result: \n55"},
            {"from": "gpt", "value": "The sum is 55. In short, the code was:\n```python\nsum(range(11))\n```\nDone."},
        ]
    }
    steps = convert(raw).trajectory
    assert [s.class_ for s in steps] == ["text_observation", "code_action", "text_observation", "message_action"]
    assert steps[3].content == raw["conversations"][3]["value"]  # the summary keeps its snippet
    # Only snippets, nothing run: a plain chat.
    shown = {"conversations": [raw["conversations"][0], raw["conversations"][3]]}
    assert convert(shown).details["dialect"] == "plain" and isinstance(convert(shown).trajectory[1], MessageAction)


def test_function_call_turn_written_as_prose_and_function_markup():
    raw = {
        "conversations": [
            {"from": "human", "value": "What's the weather in Oslo?"},
            {
                "from": "function_call",
                "value": "Let me check.\n<function=get_weather>\n<parameter=city>Oslo</parameter>\n</function>",
            },
            {"from": "observation", "value": '{"temp": 4}'},
            {"from": "gpt", "value": "4 degrees."},
        ]
    }
    steps = convert(raw).trajectory
    assert [s.class_ for s in steps] == ["text_observation", "api_action", "text_observation", "message_action"]
    assert (steps[1].function, steps[1].kwargs, steps[1].reasoning) == (
        "get_weather",
        {"city": "Oslo"},
        "Let me check.",
    )
    assert steps[2].name == "get_weather"


def test_boilerplate_the_agent_only_acknowledged_is_not_the_instruction():
    """AgentInstruct webshop / kg: a long prompt, "OK", then the task."""
    raw = {
        "conversations": [
            {"from": "human", "value": "You are web shopping. I will give you instructions about what to do."},
            {"from": "gpt", "value": "OK"},
            {"from": "human", "value": "WebShop [SEP] Instruction: [SEP] i need a blue desk lamp [SEP] Search"},
            {"from": "gpt", "value": "Thought: search it.\nAction: search[blue desk lamp]"},
        ]
    }
    assert convert(raw).task.instruction.startswith("WebShop [SEP] Instruction: [SEP] i need a blue desk lamp")
