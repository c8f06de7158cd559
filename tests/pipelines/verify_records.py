"""Records for `aceforge verify` and the verified asset: literal QA records with stored verdicts (right, stale,
never verified, not verifiable) and a retail rollout whose stored pass is stale."""

from __future__ import annotations

from schemas.record import AgentRecord, Source, Task, Verifier, VerifierResult
from schemas.steps import MessageAction, TextObservation
from tests.verifiers.handwritten import rollout
from tests.verifiers.retail_cancel import actions
from tests.verifiers.retail_cancel import record as retail_record


def qa(rid: str, answer: str, expected: str, stored: bool | None, kind: str = "answer_match") -> AgentRecord:
    result = None if stored is None else VerifierResult(passed=stored, score=float(stored), verifier="old", version="0")
    return AgentRecord(
        id=rid,
        task=Task(instruction="q", expected_outputs={"answer": expected}),
        trajectory=[TextObservation(content="q", source="user"), MessageAction(content=answer)],
        verifier=Verifier(kind=kind, result=result),
        source=Source(dataset="unit", format="literal"),
    )


def inputs() -> list[AgentRecord]:
    retail = retail_record(rollout("retail", actions("no longer needed")))  # fails constraint 'reason'
    retail.verifier.result = VerifierResult(passed=True, score=1.0)  # a stale verdict
    return [
        qa("right-but-stored-failed", "Paris", "paris", stored=False),  # changes
        qa("right-and-stored-passed", "Paris", "paris", stored=True),  # stays
        qa("never-verified", "Rome", "paris", stored=None),  # None -> False: changes
        qa("not-verifiable", "x", "y", stored=True, kind="none"),  # skipped, untouched
        retail,  # True -> False: changes
    ]
