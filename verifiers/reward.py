"""The reward of one rollout, from its verdict: the one definition GRPO, the verl export and the RL set's
selection all read.

- **1.0** when the chain passed.
- **0.0** when the verdict is undecided, or when any check other than the outcome checks (``final_state``,
  ``constraints``) did not pass: an answer given without the lookups it needs (grounding, ``ungrounded_*``), a
  misstated fact (statements, ``misstated_*``, ``invented_reason``, ...), a policy violation (policy), a
  trajectory that breaks structure or replay, a judge's rejection. A wrong or unsupported statement is worth
  nothing, however much else is right.
- **otherwise** (only the outcome checks failed): partial credit for progress toward the gold end state alone,
  ``PARTIAL_WEIGHT`` x the share of the rows the gold actions change that end exactly as the gold leaves them
  (final_state's evidence); 0 when a row the gold leaves alone was changed, or when the task has no gold
  actions that change a row (there is no end state to make progress toward).

Why not the chain's score: it is the lowest stage score, and grounding scores one ungrounded claim
1 / (1 + 1), so a bare closing such as "You paid 406.72 for that order." said without the lookup (its
constraints met by the number alone) earned 0.5, as much as half of a correct write.

A verdict without stage evidence (one that came with the data) gives 1.0 for a pass and 0.0 otherwise.
"""

from __future__ import annotations

from schemas.record import VerifierResult

OUTCOME_STAGES = frozenset({"final_state", "constraints"})
PARTIAL_WEIGHT = 0.5  # below any pass: a partial outcome never ties with a success


def rollout_reward(result: VerifierResult | None) -> float:
    """The reward of a rollout whose verdict is ``result`` (None: never verified, 0)."""
    if result is None or result.passed is None:
        return 0.0
    if result.passed:
        return 1.0
    stages = result.evidence.get("stages") or []
    if not stages or any(s["passed"] is not True and s["verifier"] not in OUTCOME_STAGES for s in stages):
        return 0.0
    return PARTIAL_WEIGHT * gold_progress(result.evidence.get("final_state") or {})


def gold_progress(evidence: dict) -> float:
    """The share of the gold's changed rows that end as the gold leaves them; 0 with an unrequested change or
    without gold rows."""
    gold = evidence.get("gold_rows") or []
    if not gold or evidence.get("unrequested"):
        return 0.0
    off = set(evidence.get("missing") or []) | set(evidence.get("wrong") or {})
    return (len(gold) - len(off & set(gold))) / len(gold)
