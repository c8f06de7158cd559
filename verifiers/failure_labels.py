"""Turn-level failure labels: where in a failed rollout the agent first went wrong, and by which check.

A failed verdict of the chain (verifiers/runner.py) lists every stage's reasons; several stages also locate
each problem at a step of τ (its index in the trajectory):

| stage      | located problems in its evidence      | reason of one problem    |
|------------|---------------------------------------|--------------------------|
| structure  | ``issues`` [{step, code}]             | its ``code``             |
| replay     | ``mismatch`` {step}, or {step} itself | the stage's first reason |
| grounding  | ``claims`` [{step, kind}]             | ``ungrounded_<kind>``    |
| statements | ``problems`` [{step, kind}]           | its ``kind``             |
| policy     | ``violations`` [{step, rule}]         | its ``rule``             |

The label is the **earliest located problem** among the failed stages (ties: the stage that runs first):
the first turn a check can point at, which is where a learner's next demonstration should differ. When no
failed stage locates its problem (the outcome checks, ``final_state`` and ``constraints``, judge the end
state; a policy rule such as ``refusal_ungrounded`` judges the whole conversation), the label is the first
failed stage's first reason with no step. The rollout's end reason (a budget ran out, the user stopped...)
goes beside it: a rollout cut by ``max_turns`` fails for that before any check.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from schemas.record import AgentRecord, VerifierResult

# Per stage: (the evidence key of its located problems, the key naming each problem's reason).
LOCATED = {
    "structure": ("issues", "code"),
    "grounding": ("claims", "kind"),
    "statements": ("problems", "kind"),
    "policy": ("violations", "rule"),
}
UNKNOWN_KIND = "unknown"


@dataclass(frozen=True)
class FailureLabel:
    stage: str  # the verifier stage that failed (structure, replay, final_state, ..., policy)
    reason: str  # its reason code for this problem
    step: int | None  # index in τ of the step the problem is at; None: the check judges the end state
    end_reason: str | None = None  # why the rollout ended (details.end_reason)

    @property
    def code(self) -> str:
        """``stage:reason``, the key failures are counted by."""
        return f"{self.stage}:{self.reason}"


def _located(stage: str, evidence: dict[str, Any], reasons: list[str]) -> list[tuple[int, str]]:
    """(step, reason) of every problem ``stage`` located at a step."""
    if stage == "replay":
        where = evidence.get("mismatch") or evidence
        step = where.get("step")
        return [(step, reasons[0] if reasons else "replay_failed")] if isinstance(step, int) else []
    if stage not in LOCATED:
        return []
    key, name = LOCATED[stage]
    found = []
    for item in evidence.get(key) or []:
        if isinstance(item, dict) and isinstance(item.get("step"), int):
            reason = str(item.get(name))
            found.append((item["step"], f"ungrounded_{reason}" if stage == "grounding" else reason))
    return found


def first_failure(result: VerifierResult | None, end_reason: str | None = None) -> FailureLabel | None:
    """The label of a failed verdict (None when it did not fail: passed, undecided or never verified)."""
    if result is None or result.passed is not False:
        return None
    failed = [s for s in result.evidence.get("stages") or [] if s.get("passed") is False]
    if not failed:  # a verdict without stage evidence (imported): only its own reasons are known
        return FailureLabel(result.verifier or "verdict", (result.reasons or ["failed"])[0], None, end_reason)
    located = [
        (step, order, stage["verifier"], reason)
        for order, stage in enumerate(failed)
        for step, reason in _located(stage["verifier"], result.evidence.get(stage["verifier"]) or {}, stage["reasons"])
    ]
    if located:
        step, _, stage, reason = min(located)
        return FailureLabel(stage, reason, step, end_reason)
    first = failed[0]
    return FailureLabel(first["verifier"], (first.get("reasons") or ["failed"])[0], None, end_reason)


def label_rollout(record: AgentRecord) -> FailureLabel | None:
    return first_failure(record.verifier.result, record.details.get("end_reason"))


def task_kind(record: AgentRecord) -> str:
    return str(record.task.metadata.get("task_kind") or UNKNOWN_KIND)


def label_rows(rollouts: Iterable[AgentRecord]) -> list[dict[str, Any]]:
    """One row per failed rollout: its id, task kind, level and label (what ``improve`` writes per round)."""
    rows = []
    for record in rollouts:
        label = label_rollout(record)
        if label is not None:
            level = record.task.metadata.get("level")
            rows.append({"id": record.id, "task_kind": task_kind(record), "level": level, **asdict(label)})
    return rows


def count_by_kind(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """{task kind: {stage:reason: failed rollouts}}, most common first, kinds sorted."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        counts[row["task_kind"]][f"{row['stage']}:{row['reason']}"] += 1
    return {kind: dict(counts[kind].most_common()) for kind in sorted(counts)}
