"""Accuracy: did the trajectory do what the task asked, as far as its verifier (v) and its structure tell.

Level, the first that applies:

| level        | when                                                                  | accuracy        |
|--------------|-----------------------------------------------------------------------|-----------------|
| ``invalid``  | τ is malformed (verifiers/structure.py fails: an unanswered or orphan  | 0.0             |
|              | call, a call that ends τ, bad arguments, ...)                         |                 |
| ``passed``   | v.result.passed is True                                               | v score, else 1 |
| ``failed``   | v.result.passed is False                                              | v score, else 0 |
| ``undecided``| v ran but could not decide (passed None, e.g. no judge model)          | None            |
| ``unverified``| no verifier result at all (v.kind "none", or never run)              | None            |

A record is never counted as a success without a verdict: ``unverified`` is a
level of its own, and its accuracy is None, not 1. Two structure findings are
about how a source format records calls, not about the trajectory, and are
not held against it: calls to tools E does not declare when E declares no
tools at all (converted data often lacks the specs), and unanswered calls in
a trajectory with no tool-result observation at all (formats such as ADP's
alfworld answer every call with an environment or user turn). A task record (empty τ) has nothing to
verify: it is ``unverified`` and carries the ``empty_trajectory`` marker.
"""

from __future__ import annotations

from dataclasses import dataclass

from schemas.record import AgentRecord
from verifiers.base import CheckContext
from verifiers.structure import StructureVerifier
from verifiers.trajectory_view import is_tool_result

# Ordered from worst to best: the rank orders records when a duplicate group keeps one of them.
ACCURACY_LEVELS = ("invalid", "unverified", "undecided", "failed", "passed")
_STRUCTURE = StructureVerifier()


@dataclass(frozen=True)
class Accuracy:
    level: str
    value: float | None
    structure_reasons: tuple[str, ...] = ()

    @property
    def rank(self) -> int:
        return ACCURACY_LEVELS.index(self.level)


def structure_problems(record: AgentRecord) -> tuple[str, ...]:
    """Reason codes of the structure check (empty when τ is well formed, or empty)."""
    if not record.trajectory:
        return ()
    result = _STRUCTURE.check(CheckContext(record=record, env_factory=None))
    ignored = set()
    if not record.environment.tools:
        ignored.add("unknown_tool")
    if not any(is_tool_result(step) for step in record.trajectory):
        ignored.add("missing_tool_result")
    return tuple(reason for reason in result.reasons if reason not in ignored)


def accuracy(record: AgentRecord) -> Accuracy:
    problems = structure_problems(record)
    if problems:
        return Accuracy("invalid", 0.0, problems)
    result = record.verifier.result
    if result is None or record.verifier.kind == "none":
        return Accuracy("unverified", None)
    if result.passed is None:
        return Accuracy("undecided", None)
    if result.passed:
        return Accuracy("passed", 1.0 if result.score is None else float(result.score))
    return Accuracy("failed", 0.0 if result.score is None else float(result.score))
