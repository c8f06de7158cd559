"""Text action parsing for the ShareGPT dialects: fenced blocks, ReAct actions, dialect detection."""

from __future__ import annotations

from textwrap import dedent

from data_catalog.sources.text_actions import (
    codeact_steps,
    detect_dialect,
    fenced_blocks,
    markdown_steps,
    react_steps,
    tidy_code,
)


def test_fenced_blocks_need_a_closing_fence_at_line_start():
    text = 'Intro\n```python title="x"\nprint("```")\nx = 1\n```\nOutro ```inline``` text\n```\n```'
    blocks = list(fenced_blocks(text))
    assert [(b.lang, b.code) for b in blocks] == [("python", 'print("```")\nx = 1'), ("", "")]
    assert text[blocks[0].start : blocks[0].end].startswith("```python") and text[blocks[0].end :].startswith("\nOutro")


def test_unclosed_fence_is_prose():
    assert list(fenced_blocks("```python\nprint(1)\n")) == []
    assert markdown_steps("```python\nprint(1)\n") == [
        {"class_": "message_action", "content": "```python\nprint(1)\n", "reasoning": None}
    ]


def test_markdown_output_blocks_stay_in_the_prose():
    steps = markdown_steps("Run:\n```py\nprint(2)\n```\nIt prints:\n```\n2\n```")
    assert [s["class_"] for s in steps] == ["code_action", "message_action"]
    assert steps[0]["language"] == "python" and steps[0]["reasoning"] == "Run:"
    assert steps[1]["content"] == "It prints:\n```\n2\n```"


def test_react_os_actions():
    assert react_steps("Think: list it.\n\nAct: bash\n\n```bash\nls -la\n```") == [
        {"class_": "code_action", "language": "bash", "content": "ls -la", "reasoning": "list it."}
    ]
    assert react_steps("Think: done.\n\nAct: finish")[0] == {
        "class_": "message_action",
        "content": "finish",
        "reasoning": "done.",
    }
    assert react_steps("Think: it is 3.\n\nAct: answer(3)")[0]["content"] == "3"


def test_action_keyword_must_start_a_line():
    assert react_steps("The exact: value is 3")[0]["class_"] == "message_action"
    assert react_steps("I will act: now")[0]["class_"] == "message_action"


def test_dialect_detection_order():
    assert detect_dialect(["Hi", "```python\nx\n```"]) == "markdown"
    assert detect_dialect(["```python\nx\n```", "THOUGHT: go\nACTION: look"]) == "react"
    assert detect_dialect(["ACTION: look", "<execute>print(1)</execute>"]) == "codeact"
    assert detect_dialect(["Sure.", "```\nplain output\n```"]) == "plain"


def test_react_action_names_are_one_word_and_labelled_lines_are_arguments():
    """AgentInstruct's db, mind2web and webshop turns: the lines labelled after (or right before) the action line."""
    # db: "Action: Answer" + "Final Answer: [...]" is the answer, not a tool named "answer\nfinal".
    assert react_steps("New record created in the table 'Books'\nAction: Answer\nFinal Answer: [\"none\"]") == [
        {"class_": "message_action", "content": '["none"]', "reasoning": "New record created in the table 'Books'"}
    ]
    # mind2web: the element choice before the action line, the typed value after it.
    assert react_steps("Thought: The maximum budget needs to be set.\nAnswer: C.\nAction: SET\nValue: $50,000") == [
        {
            "class_": "api_action",
            "function": "set",
            "kwargs": {"answer": "C.", "value": "$50,000"},
            "tool_call_id": None,
            "reasoning": "The maximum budget needs to be set.",
        }
    ]
    click = react_steps("Thought: Select the dealer quote.\nAction: CLICK\nAnswer: B.")[0]
    assert (click["function"], click["kwargs"], click["reasoning"]) == (
        "click",
        {"answer": "B."},
        "Select the dealer quote.",
    )
    # A value that runs over several lines stays whole; a multi-word action keeps its argument.
    typed = react_steps("Action: TYPE\nValue: line one\nline two")[0]
    assert (typed["function"], typed["kwargs"]) == ("type", {"value": "line one\nline two"})
    assert react_steps("Action: jump\nover the fence")[0]["kwargs"] == {"argument": "over the fence"}
    # A thought whose last line happens to be labelled keeps it: only known argument labels come before the action.
    assert react_steps("Thought: look first.\nNote: the lamp is on.\nAction: look")[0]["reasoning"] == (
        "look first.\nNote: the lamp is on."
    )


def test_react_operation_with_a_sql_block_is_code():
    steps = react_steps("I need the table.\nAction: Operation\n```sql\nSELECT * FROM Books;\n```")
    assert steps == [
        {
            "class_": "code_action",
            "language": "sql",
            "content": "SELECT * FROM Books;",
            "reasoning": "I need the table.",
        }
    ]


def test_kg_calls_with_several_arguments_are_split():
    (step,) = react_steps(
        "Thought: I need the engines.\nAction: get_neighbors(Gas-generator cycle, spaceflight.rocket_engine_cycle.rocket_engines)"
    )
    assert (step["function"], step["kwargs"]) == (
        "get_neighbors",
        {"variable": "Gas-generator cycle", "relation": "spaceflight.rocket_engine_cycle.rocket_engines"},
    )
    (step,) = react_steps("Action: intersection(#1, #2)")
    assert step["kwargs"] == {"variable1": "#1", "variable2": "#2"}
    (step,) = react_steps("Action: search[desk lamp, blue]")  # not a kg tool: one argument, commas and all
    assert step["kwargs"] == {"argument": "desk lamp, blue"}


def test_a_final_answer_turn_without_an_action_line_keeps_only_the_answer():
    (step,) = react_steps("Thought: #3 is the final answer to the question.\nFinal Answer: #3")
    assert step == {"class_": "message_action", "content": "#3", "reasoning": "#3 is the final answer to the question."}


def test_execute_blocks_are_dedented_and_stripped():
    steps = codeact_steps("Compute it.\n<execute>\n    for i in range(2):\n        print(i)\n    \n</execute>\nDone.")
    assert [s["class_"] for s in steps] == ["code_action", "message_action"]
    assert steps[0]["content"] == "for i in range(2):\n    print(i)" and steps[0]["reasoning"] == "Compute it."
    assert codeact_steps("<execute> print(x) </execute>")[0]["content"] == "print(x)"


def test_tidy_code_is_dedent_then_strip():
    # tidy_code skips dedent where it cannot change the result; these are the cases at the edges of that test:
    # a margin every line has, one line that lacks it, lines of only spaces and tabs (which dedent empties,
    # also between lines that keep their indentation), CRLF, and whitespace that only strip treats as such.
    codes = [
        "", " ", "x", " print(x) ", "\n  x = 1\n  y = 2\n", "x = 1\n  y = 2", "\tif a:\n\t\tb\n", "x\n  \ny",
        "  x\n \t \n    y", "  \n  x\n  y", "\r\n  x\r\n  y\r\n", "x\r\n    y", "\u3000x\n y", "\n\u3000x\n y",
        "x\n\u3000\n y", " a\n\r", "a\n   ", "  a\n\n  b", "\x0ca\n b", "a\n\t\n\tb", "a \nb",
    ]  # fmt: skip
    for code in codes:
        assert tidy_code(code) == dedent(code).strip(), repr(code)
    assert tidy_code("  x\n \t \n    y") == "x\n\n  y"
