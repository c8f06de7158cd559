"""Answer match: exact, normalized, numeric, contains; each reason code."""

from __future__ import annotations

import pytest

from schemas.record import AgentRecord, Source, Task, Verifier
from schemas.steps import MessageAction, TextObservation
from verifiers.answer_match import AnswerMatchVerifier, answers_match, normalize
from verifiers.base import CheckContext


def check(answer: str | None, expected: dict, options: dict | None = None):
    trajectory = [TextObservation(content="question", source="user")] + (
        [MessageAction(content=answer)] if answer else []
    )
    record = AgentRecord(
        id="qa",
        task=Task(instruction="q", expected_outputs=expected),
        trajectory=trajectory,
        verifier=Verifier(kind="answer_match", spec={"answer_match": options or {}}),
        source=Source(dataset="unit", format="literal"),
    )
    return AnswerMatchVerifier().check(CheckContext(record=record))


def test_normalized_text_ignores_case_punctuation_and_articles():
    assert normalize("The  Eiffel Tower!") == "eiffel tower"
    assert check("the eiffel tower.", {"answer": "Eiffel Tower"}).passed
    assert check("Eiffel", {"answer": "Eiffel Tower"}).reasons == ["answer_mismatch"]


def test_numeric_answers_take_the_last_number_within_tolerance():
    assert check("First 12, so the total is 1,234.5", {"answer": 1234.5}).passed
    assert check("about 3.14", {"answer": "3.14159"}, {"tolerance": 0.01}).passed
    assert check("about 3.14", {"answer": "3.14159"}).reasons == ["answer_mismatch"]


def test_exact_and_contains_modes_and_alternatives():
    assert check(" 42 ", {"answer": "42"}, {"mode": "exact"}).passed
    assert not check("42.", {"answer": "42"}, {"mode": "exact"}).passed
    assert check("I think it is Paris, France", {"answer": "paris"}, {"mode": "contains"}).passed
    assert check("Lutetia", {"answers": ["Paris", "Lutetia"]}).passed


def test_missing_answer_or_expectation():
    assert check(None, {"answer": "x"}).reasons == ["no_answer"]
    assert check("x", {}).reasons == ["no_expected_answer"]


def test_an_unknown_mode_is_an_error_for_the_runner_to_convert():
    with pytest.raises(ValueError):
        answers_match("a", "a", mode="fuzzy")
