"""Re-verify a stream of records and count what changed (used by `aceforge verify`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from schemas.record import AgentRecord
from verifiers.base import EnvFactory, default_env_factory
from verifiers.runner import apply_verification, is_verifiable


@dataclass
class VerifyStats:
    records: int = 0
    verified: int = 0
    skipped: int = 0  # nothing to re-check (v.kind none/reward/..., or judge without a model): passed through
    passed: int = 0
    failed: int = 0
    undecided: int = 0  # passed is None (e.g. only a judge, and none available)
    verdicts_changed: int = 0  # passed differs from the stored verdict (a missing verdict counts as None)
    scores_changed: int = 0
    versions_changed: int = 0
    reasons: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k != "reasons"}
        data["reasons"] = dict(self.reasons.most_common())
        return data


def reverify(
    records: Iterable[AgentRecord], stats: VerifyStats, env_factory: EnvFactory = default_env_factory, judge: Any = None
) -> Iterator[AgentRecord]:
    """Yield every record, re-verified when verifiable, counting into ``stats`` as it goes."""
    for record in records:
        stats.records += 1
        # Without a model, a judge-only record keeps its stored verdict rather than losing it.
        if not is_verifiable(record) or (record.verifier.kind == "judge" and judge is None):
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
