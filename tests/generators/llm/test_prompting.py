import pytest
from pydantic import ValidationError

from generators.llm.interface import ChatRequest, SamplingParams
from generators.llm.prompting import PromptRenderer, canonical_prompt, template_messages, wire_messages

LONG = "word " * 300  # about 300 tokens


def _conversation(turns: int) -> list[dict]:
    messages = [{"role": "system", "content": "You are terse."}]
    for i in range(turns):
        messages += [
            {"role": "user", "content": f"question {i}: {LONG}"},
            {"role": "assistant", "content": f"answer {i}"},
        ]
    return messages + [{"role": "user", "content": "And finally?"}]


def test_prompt_that_fits_is_rendered_unchanged(smol_tokenizer):
    renderer = PromptRenderer(smol_tokenizer, max_model_len=2048)
    prepared = renderer.prepare(ChatRequest(messages=[{"role": "user", "content": "Hi"}]), max_tokens=64)
    assert prepared.error is None and prepared.notice is None
    assert prepared.text.endswith("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
    assert prepared.token_ids == smol_tokenizer.encode(prepared.text, add_special_tokens=False)


def test_over_long_prompt_is_rejected_with_a_reason(smol_tokenizer):
    renderer = PromptRenderer(smol_tokenizer, max_model_len=1024, overflow="reject")
    prepared = renderer.prepare(ChatRequest(messages=_conversation(4)), max_tokens=100)
    assert prepared.error.startswith("prompt too long: ")
    assert "limit is 924 (max_model_len 1024 - max_tokens 100)" in prepared.error
    assert len(prepared.token_ids) > 924


def test_truncation_drops_oldest_turns_and_keeps_system_and_last(smol_tokenizer):
    renderer = PromptRenderer(smol_tokenizer, max_model_len=1024, overflow="truncate")
    messages = _conversation(4)
    prepared = renderer.prepare(ChatRequest(messages=messages), max_tokens=100)
    assert prepared.error is None
    assert len(prepared.token_ids) <= 924
    assert prepared.messages[0] == messages[0]
    assert prepared.messages[-1] == messages[-1]
    assert prepared.messages[1]["role"] == "user"  # never opens on an orphaned assistant turn
    dropped = len(messages) - len(prepared.messages)
    assert dropped >= 2 and prepared.notice == f"truncated: dropped {dropped} oldest messages"
    assert "question 0" not in prepared.text and "question 3" in prepared.text


def test_truncation_that_cannot_fit_is_rejected(smol_tokenizer):
    renderer = PromptRenderer(smol_tokenizer, max_model_len=256, overflow="truncate")
    prepared = renderer.prepare(ChatRequest(messages=[{"role": "user", "content": LONG}]), max_tokens=16)
    assert prepared.error.startswith("prompt too long even after truncation")


def test_invalid_json_schema_fails_when_the_request_is_made():
    with pytest.raises(ValidationError, match="invalid JSON schema"):
        ChatRequest(messages=[{"role": "user", "content": "x"}], json_schema={"type": "objekt"})
    with pytest.raises(ValidationError, match="at least one message"):
        ChatRequest(messages=[])
    ok = ChatRequest(messages=[{"role": "user", "content": "x"}], json_schema={"type": "object"})
    assert ok.json_schema == {"type": "object"}


def test_per_request_sampling_overrides_the_batch_default():
    default = SamplingParams(seed=1)
    assert ChatRequest(messages=[{"role": "user", "content": "x"}]).params(default) is default
    own = SamplingParams(seed=2, temperature=0.7)
    assert ChatRequest(messages=[{"role": "user", "content": "x"}], sampling=own).params(default).seed == 2


def test_wire_and_template_forms_of_tool_call_arguments():
    messages = [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": {"a": 1}}}],
        }
    ]
    assert wire_messages(messages)[0]["tool_calls"][0]["function"]["arguments"] == '{"a": 1}'
    assert template_messages(wire_messages(messages))[0]["tool_calls"][0]["function"]["arguments"] == {"a": 1}
    assert template_messages(messages)[0]["content"] == ""
    assert messages[0]["content"] is None  # inputs are not mutated


def test_canonical_prompt_is_stable_and_sensitive_to_content():
    a = ChatRequest(messages=[{"role": "user", "content": "x", "name": "u"}])
    b = ChatRequest(messages=[{"name": "u", "content": "x", "role": "user"}])
    assert canonical_prompt(a) == canonical_prompt(b)
    assert canonical_prompt(a) != canonical_prompt(ChatRequest(messages=[{"role": "user", "content": "y"}]))
