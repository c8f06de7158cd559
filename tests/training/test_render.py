"""Rendering a record to chat messages and tokens: structure, loss mask, no drift, bad records."""

from __future__ import annotations

import json

import pytest

from schemas.steps import ApiAction, ImageObservation, TextObservation
from tests.training.helpers import (
    BAD_TYPE_CALL,
    BAD_TYPE_ERROR,
    UNKNOWN_CALL,
    UNKNOWN_ERROR,
    literal_record,
    record_with_a_failed_call,
)
from training.render import RenderError, RenderStats, prompt_ids, record_to_chat, render_records, tokenize_chat


def _call(call_id: str, name: str, order_id: str) -> dict:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": {"order_id": order_id}}}


def test_literal_record_renders_to_linked_chat_messages():
    chat = record_to_chat(literal_record())
    assert chat.messages == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Where is order 12?"},
        {"role": "assistant", "content": "I will look it up.", "tool_calls": [_call("c1", "get_order", "12")]},
        {"role": "tool", "tool_call_id": "c1", "name": "get_order", "content": '{"status": "shipped"}'},
        {"role": "assistant", "content": "Order 12 has shipped."},
        {"role": "user", "content": "Cancel 13 and check 14."},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [_call("c2", "cancel_order", "13"), _call("c3", "get_order", "14")],
        },
        {"role": "tool", "tool_call_id": "c2", "name": "cancel_order", "content": '{"cancelled": true}'},
        {"role": "tool", "tool_call_id": "c3", "name": "get_order", "content": '{"status": "pending"}'},
        {"role": "assistant", "content": "Done: 13 is cancelled, 14 is pending."},
    ]
    assert [tool["function"]["name"] for tool in chat.tools] == ["get_order", "cancel_order"]


def test_results_without_ids_answer_the_oldest_open_call():
    record = literal_record()
    record.trajectory[1].tool_call_id = None
    record.trajectory[2].tool_call_id = None
    messages = record_to_chat(record).messages
    assert messages[2]["tool_calls"][0]["id"] == "call_1"
    assert messages[3]["tool_call_id"] == "call_1"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda t: t.__setitem__(1, ApiAction(function="refund", tool_call_id="c1")), "tool_without_spec"),
        (
            lambda t: t.insert(1, TextObservation(content="?", source="tool", tool_call_id="zz")),
            "tool_result_without_call",
        ),
        (lambda t: t.insert(1, ImageObservation(content="shot.png")), "unsupported_step"),
    ],
)
def test_unrenderable_records_raise_a_reason(change, reason):
    record = literal_record()
    change(record.trajectory)
    with pytest.raises(RenderError) as caught:
        record_to_chat(record)
    assert caught.value.reason == reason


def test_a_record_without_agent_turns_has_nothing_to_learn():
    record = literal_record()
    record.trajectory = [TextObservation(content="hello?", source="user")]
    with pytest.raises(RenderError) as caught:
        record_to_chat(record)
    assert caught.value.reason == "no_assistant_turn"


def test_render_records_counts_add_up():
    good = literal_record("a")
    unknown_tool = literal_record("b")
    unknown_tool.trajectory[1] = ApiAction(function="refund", tool_call_id="c1")
    orphan = literal_record("c")
    orphan.trajectory.insert(0, TextObservation(content="late result", source="tool", tool_call_id="nope"))
    stats = RenderStats()
    rendered = [record.id for record, _ in render_records([good, unknown_tool, orphan], stats)]
    assert rendered == ["a"]
    assert stats.as_dict() == {
        "records": 3,
        "rendered": 1,
        "skipped": {"tool_without_spec": 1, "tool_result_without_call": 1},
    }


def _loss_spans(tokenizer, ids: list[int], mask: list[int]) -> list[str]:
    """The decoded runs of consecutive loss-carrying tokens."""
    spans, current = [], []
    for token, bit in zip(ids, mask):
        if bit:
            current.append(token)
        elif current:
            spans.append(tokenizer.decode(current))
            current = []
    if current:
        spans.append(tokenizer.decode(current))
    return spans


def test_loss_is_on_assistant_turns_and_tool_calls_only(smol_tokenizer, training_template):
    tokens = tokenize_chat(smol_tokenizer, record_to_chat(literal_record()), training_template)
    ids, mask = tokens["input_ids"], tokens["assistant_masks"]
    assert len(ids) == len(mask)
    # The template's generation block: the newline after the role header, the turn, its end token and newline.
    assert _loss_spans(smol_tokenizer, ids, mask) == [
        '\nI will look it up.\n<tool_call>\n{"name": "get_order", "arguments": {"order_id": "12"}}\n</tool_call>'
        "<|im_end|>\n",
        "\nOrder 12 has shipped.<|im_end|>\n",
        '\n<tool_call>\n{"name": "cancel_order", "arguments": {"order_id": "13"}}\n</tool_call>\n<tool_call>\n'
        '{"name": "get_order", "arguments": {"order_id": "14"}}\n</tool_call><|im_end|>\n',
        "\nDone: 13 is cancelled, 14 is pending.<|im_end|>\n",
    ]
    unmasked = smol_tokenizer.decode([t for t, bit in zip(ids, mask) if not bit])
    for text in ("Be brief.", "Where is order 12?", "Cancel 13 and check 14.", '{"status": "shipped"}', "<tools>"):
        assert text in unmasked
    assert unmasked.count("<tool_response>") == 3
    assert unmasked.count("<|im_start|>user\n<tool_response>") == 2  # the second result turn holds two results


def test_whole_conversation_equals_turns_rendered_incrementally(smol_tokenizer, training_template):
    """Prompt tokens, then each turn tokenized on its own as a model would emit it, then the next prompt's new
    tokens (tool results, user turns), and so on: exactly the tokens of the whole conversation."""
    chat = record_to_chat(literal_record())
    full = tokenize_chat(smol_tokenizer, chat, training_template)["input_ids"]

    def text(messages, generation_prompt):
        return smol_tokenizer.apply_chat_template(
            messages,
            tools=chat.tools,
            chat_template=training_template,
            tokenize=False,
            add_generation_prompt=generation_prompt,
        )

    rebuilt: list[int] = []
    for turn, message in enumerate(chat.messages):
        if message["role"] != "assistant":
            continue
        prompt = prompt_ids(smol_tokenizer, chat.messages[:turn], chat.tools, training_template)
        assert prompt[: len(rebuilt)] == rebuilt  # earlier turns never retokenize differently
        completion_text = text(chat.messages[: turn + 1], False)[len(text(chat.messages[:turn], True)) :]
        assert completion_text.endswith("<|im_end|>\n")
        completion = smol_tokenizer.encode(completion_text.removesuffix("\n"), add_special_tokens=False)
        rebuilt = prompt + completion
    assert rebuilt + smol_tokenizer.encode("\n", add_special_tokens=False) == full


@pytest.mark.parametrize(("call", "error"), [(BAD_TYPE_CALL, BAD_TYPE_ERROR), (UNKNOWN_CALL, UNKNOWN_ERROR)])
def test_a_failed_call_and_its_error_are_rendered_with_no_loss_on_the_call(
    call, error, smol_tokenizer, training_template
):
    chat = record_to_chat(record_with_a_failed_call(call, error))
    failed = {"id": "c0", "type": "function", "function": {"name": call.function, "arguments": call.kwargs}}
    assert chat.messages[2:4] == [
        {"role": "assistant", "content": "", "tool_calls": [failed], "weight": 0},
        {"role": "tool", "tool_call_id": "c0", "name": call.function, "content": error},
    ]
    assert chat.messages[4]["tool_calls"] == [_call("c1", "get_order", "12")] and "weight" not in chat.messages[4]
    tokens = tokenize_chat(smol_tokenizer, chat, training_template)
    ids, mask = tokens["input_ids"], tokens["assistant_masks"]
    # the recovery and the rest are learned exactly as without the slip; the slip is context only
    assert _loss_spans(smol_tokenizer, ids, mask) == _loss_spans(
        smol_tokenizer, *tokenize_chat(smol_tokenizer, record_to_chat(literal_record()), training_template).values()
    )
    unmasked = smol_tokenizer.decode([t for t, bit in zip(ids, mask) if not bit])
    assert f'{{"name": "{call.function}", "arguments": {json.dumps(call.kwargs)}}}' in unmasked
    assert error in unmasked
