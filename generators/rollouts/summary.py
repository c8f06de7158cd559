"""What a rollout run counts: tasks, rollouts and verdicts, skips, end and verifier reasons, faults, the scheduler.

A local run counts into one ``RolloutSummary``; on engine=ray each actor counts its shards into its own and the
driver adds them up (``RolloutSummary.add``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from generators.rollouts.conversation import USER_STOPS
from generators.rollouts.scheduler import SchedulerStats
from schemas.record import AgentRecord


@dataclass
class RolloutSummary:
    tasks: int = 0
    rollouts: int = 0
    passed: int = 0
    failed: int = 0
    undecided: int = 0
    # Passed the chain although the user never ended the conversation (a budget, a malformed reply...):
    # e.g. a refusal task whose only constraint is a guard passes an agent that never acted.
    passed_unfinished: int = 0
    leakage: int = 0
    skipped: Counter = field(default_factory=Counter)  # records that are not tasks, by reason
    end_reasons: Counter = field(default_factory=Counter)
    verifier_reasons: Counter = field(default_factory=Counter)
    faults: Counter = field(default_factory=Counter)
    scheduler: SchedulerStats = field(default_factory=SchedulerStats)

    def count(self, record: AgentRecord) -> None:
        self.rollouts += 1
        result = record.verifier.result
        verdict = result.passed if result else None
        self.passed += verdict is True
        self.failed += verdict is False
        self.undecided += verdict is None
        self.passed_unfinished += verdict is True and record.details.get("end_reason") not in USER_STOPS
        self.leakage += bool(record.details.get("leakage"))
        self.end_reasons[record.details.get("end_reason")] += 1
        self.verifier_reasons.update(result.reasons if result else [])
        self.faults.update(fault["kind"] for fault in record.lineage.generator.get("faults", []))

    def add(self, other: RolloutSummary) -> None:
        """Count in a summary of other rollouts (a Ray actor's shard)."""
        for name, value in vars(other).items():
            if isinstance(value, int | Counter):
                setattr(self, name, getattr(self, name) + value)
        for name, value in vars(other.scheduler).items():
            mine = getattr(self.scheduler, name)
            setattr(self.scheduler, name, max(mine, value) if name == "largest_batch" else mine + value)

    def as_dict(self) -> dict[str, Any]:
        return {
            "tasks": self.tasks,
            "rollouts": self.rollouts,
            "passed": self.passed,
            "failed": self.failed,
            "undecided": self.undecided,
            "passed_unfinished": self.passed_unfinished,
            "acceptance": round(self.passed / self.rollouts, 4) if self.rollouts else None,
            "leakage": self.leakage,
            "skipped": sum(self.skipped.values()),
            "skipped_by_reason": dict(self.skipped.most_common()),
            "end_reasons": dict(self.end_reasons.most_common()),
            "verifier_reasons": dict(self.verifier_reasons.most_common()),
            "faults": dict(self.faults.most_common()),
            "scheduler": self.scheduler.as_dict(),
        }
