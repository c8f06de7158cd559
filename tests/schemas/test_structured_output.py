"""Structured output on literal model texts, and its one retry with a fake generator (prompt/parse logic only)."""

from __future__ import annotations

import pytest

from schemas.generation import ChatRequest, Completion, GenerationResult, SamplingParams
from schemas.structured_output import StructuredOutput, generate_structured

SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "n": {"type": "integer"}},
    "required": ["name", "n"],
    "additionalProperties": False,
}
NOT_EMPTY = StructuredOutput(SCHEMA, check=lambda value: None if value["name"] else "name must not be empty")


@pytest.mark.parametrize(
    ("text", "value", "reason"),
    [
        ('{"name": "a", "n": 1}', {"name": "a", "n": 1}, None),
        ('Sure! ```json\n{"name": "a", "n": 1}\n``` Hope it helps.', {"name": "a", "n": 1}, None),
        ('{"name": "a"} or rather {"name": "b", "n": 2}', {"name": "b", "n": 2}, None),  # the first that fits
        ('{"name": "a", "n": 1, "meta": {"x": 1}}', None, "schema_invalid"),  # a nested object is no answer
        ("I cannot answer that.", None, "no_json"),
        ('{"name": "a", "n": ', None, "no_json"),  # cut off
        ('{"name": "a" "n": 1}', None, "unparseable"),
        ('{"name": "a", "n": "one"}', None, "schema_invalid"),
        ('{"name": "", "n": 1}', None, "schema_invalid"),  # the extra check
    ],
)
def test_the_object_is_found_and_checked_or_the_reason_named(text, value, reason):
    parsed = NOT_EMPTY.parse(text)
    assert (parsed.value, parsed.reason, parsed.text) == (value, reason, text)


def test_the_detail_says_what_is_wrong():
    assert NOT_EMPTY.parse('{"name": "a", "n": "one"}').detail == "n: 'one' is not of type 'integer'"
    assert NOT_EMPTY.parse('{"name": "", "n": 1}').detail == "name must not be empty"


class FakeGenerator:
    """Answers with fixed texts, in order across batches; None stands for a request the backend could not serve."""

    def __init__(self, texts: list[str | None]):
        self.texts = texts
        self.batches: list[list[ChatRequest]] = []

    def generate(self, requests, params):
        self.batches.append(requests)
        texts, self.texts = self.texts[: len(requests)], self.texts[len(requests) :]
        return [
            GenerationResult(error="too long") if t is None else GenerationResult(completions=[Completion(text=t)])
            for t in texts
        ]


def ask(i: int) -> ChatRequest:
    return ChatRequest(messages=[{"role": "user", "content": f"Object {i}?"}], sampling=SamplingParams(seed=i))


def test_one_retry_batch_fixes_what_it_can_and_the_rest_keeps_its_first_reason():
    model = FakeGenerator(['{"name": "a", "n": 1}', "no idea", None, '{"name": 3}'])
    model.texts += ['{"name": "b", "n": 2}', "still no idea"]  # the retries, for answers 2 and 4
    answers = generate_structured(model, [ask(i) for i in range(4)], SamplingParams(), NOT_EMPTY)
    assert [(a.value, a.reason) for a in answers] == [
        ({"name": "a", "n": 1}, None),
        ({"name": "b", "n": 2}, None),
        (None, "backend_error"),  # not retried
        (None, "schema_invalid"),
    ]
    assert answers[2].detail == "too long" and answers[2].text is None
    assert answers[3].text == '{"name": 3}'  # the first answer's text, not the retry's
    assert [len(batch) for batch in model.batches] == [4, 2]
    retry = model.batches[1][0]
    assert retry.sampling == ask(1).sampling
    assert retry.messages == [
        {"role": "user", "content": "Object 1?"},
        {"role": "assistant", "content": "no idea"},
        {
            "role": "user",
            "content": "Your answer was not valid: no_json: no JSON object found. Answer with the JSON object only.",
        },
    ]


def test_no_retry_batch_when_every_answer_fits():
    model = FakeGenerator(['{"name": "a", "n": 1}'])
    [answer] = generate_structured(model, [ask(0)], SamplingParams(), NOT_EMPTY)
    assert answer.ok and len(model.batches) == 1
