"""A scripted stand-in for a generator (schemas.generation.Generator) and a record for the judge to grade.

The fake answers every request with one fixed text (or raises, or refuses the
request) and remembers what it was sent, so judge tests can assert the prompt
and the sampling params. Only prompt/parse logic is tested with it; the judge
on a real model is tested in test_llm_judge.py with SmolLM2.
"""

from __future__ import annotations

from schemas.generation import ChatRequest, Completion, GenerationResult, SamplingParams
from schemas.record import AgentRecord, Source, Task, Verifier
from schemas.steps import MessageAction, TextObservation

JUDGE_REASONS = {"judge_failed", "judge_unparseable", "judge_error", "judge_unavailable"}


class ScriptedModel:
    """Answers ``reply`` to every request; ``raises`` makes generate fail, ``refuse`` sets each result's error."""

    model_id = {"model": "scripted", "hash": "0"}

    def __init__(self, reply: str = "", raises: Exception | None = None, refuse: str | None = None):
        self.reply, self.raises, self.refuse = reply, raises, refuse
        self.requests: list[ChatRequest] = []
        self.params: list[SamplingParams] = []

    def generate(self, requests: list[ChatRequest], params: SamplingParams, on_result=None) -> list[GenerationResult]:
        self.requests.extend(requests)
        self.params.append(params)
        if self.raises is not None:
            raise self.raises
        if self.refuse is not None:
            return [GenerationResult(error=self.refuse) for _ in requests]
        return [GenerationResult(completions=[Completion(text=self.reply)]) for _ in requests]


def greeting_record(spec: dict | None = None, kind: str = "judge") -> AgentRecord:
    """A one-turn chat whose only check is the judge (by default)."""
    return AgentRecord(
        id="greeting",
        task=Task(instruction="Say hello politely."),
        trajectory=[TextObservation(content="hi", source="user"), MessageAction(content="Hello there!")],
        verifier=Verifier(kind=kind, spec=spec or {}),
        source=Source(dataset="unit", format="literal"),
    )
