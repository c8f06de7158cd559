"""Re-verify a stream of records and count what changed (used by `aceforge verify`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from environments.registry import EnvironmentFactory
from schemas.generation import Generator
from schemas.record import AgentRecord
from verifiers.base import default_env_factory
from verifiers.runner import apply_verification, asks_for_judge, can_decide


@dataclass
class VerifyStats:
    records: int = 0
    verified: int = 0
    skipped: int = 0  # nothing to re-check (v.kind none/...) or no verdict reachable (a judge, no model): as stored
    passed: int = 0
    failed: int = 0
    undecided: int = 0  # passed is None: no stage reached a verdict
    verdicts_changed: int = 0  # passed differs from the stored verdict (a missing verdict counts as None)
    scores_changed: int = 0
    versions_changed: int = 0
    reasons: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k != "reasons"}
        data["reasons"] = dict(self.reasons.most_common())
        return data


def reverify(
    records: Iterable[AgentRecord],
    stats: VerifyStats,
    env_factory: EnvironmentFactory | None = default_env_factory,
    model: Generator | None = None,
    judge_decides_undecided: bool = True,
) -> Iterator[AgentRecord]:
    """Yield every record, re-verified when verifiable, counting into ``stats`` as it goes.

    A record whose chain cannot reach a verdict with what is given (e.g. a judge-only record and no model)
    keeps its stored verdict rather than losing it. ``model`` judges the records whose v asks for a judge and,
    when ``judge_decides_undecided`` (its agreement with hand labels was measured: verifiers/judge_trust.py),
    those the rules leave undecided.
    """
    for record in records:
        stats.records += 1
        judge = model if judge_decides_undecided or asks_for_judge(record) else None
        if not can_decide(record, env_factory, judge):
            stats.skipped += 1
            yield record
            continue
        old = record.verifier.result
        updated = apply_verification(record, env_factory, judge)
        new = updated.verifier.result
        stats.verified += 1
        if new.passed is None:
            stats.undecided += 1
        elif new.passed:
            stats.passed += 1
        else:
            stats.failed += 1
        stats.verdicts_changed += (old.passed if old else None) != new.passed
        stats.scores_changed += (old.score if old else None) != new.score
        stats.versions_changed += record.verifier.version != new.version
        stats.reasons.update(new.reasons)
        yield updated
