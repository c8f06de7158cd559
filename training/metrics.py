"""pass^k (τ-bench): the chance that k independent rollouts of a task all succeed, averaged over tasks.

For a task rolled out n times with c successes, the unbiased estimate is
``C(c, k) / C(n, k)`` (τ-bench, Yao et al. 2024); pass^1 is the mean success
rate. A rollout succeeds when its verifier passed (v.result.passed is True);
an undecided or failed verdict is a failure. Groups: every task, by domain
(E.name) and by complexity (q.metadata["complexity"], the number of
constraints of a synthesized task; "unknown" when absent).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from math import comb
from typing import Any

from schemas.record import AgentRecord
from schemas.task_identity import task_of

UNKNOWN = "unknown"


def pass_hat_k(successes: int, trials: int, k: int) -> float:
    """C(successes, k) / C(trials, k); needs 1 <= k <= trials."""
    if not 1 <= k <= trials:
        raise ValueError(f"pass^{k} needs at least {k} trials, got {trials}")
    return comb(successes, k) / comb(trials, k)


def task_outcomes(rollouts: Iterable[AgentRecord]) -> dict[str, dict[str, Any]]:
    """Per task (the rollout's parent): domain, complexity, trials and successes."""
    tasks: dict[str, dict[str, Any]] = {}
    for record in rollouts:
        task_id = task_of(record)
        complexity = record.task.metadata.get("complexity")
        entry = tasks.setdefault(
            task_id,
            {
                "domain": record.environment.name or UNKNOWN,
                "complexity": UNKNOWN if complexity is None else str(complexity),
                "trials": 0,
                "successes": 0,
            },
        )
        entry["trials"] += 1
        entry["successes"] += bool(record.verifier.result and record.verifier.result.passed)
    return tasks


def group_scores(outcomes: list[dict[str, Any]], k: int) -> dict[str, Any]:
    """tasks, rollouts and pass^1..pass^k of one group (pass^j only over tasks with at least j trials)."""
    scores: dict[str, Any] = {"tasks": len(outcomes), "rollouts": sum(o["trials"] for o in outcomes)}
    for j in range(1, k + 1):
        eligible = [o for o in outcomes if o["trials"] >= j]
        scores[f"pass^{j}"] = (
            round(sum(pass_hat_k(o["successes"], o["trials"], j) for o in eligible) / len(eligible), 6)
            if eligible
            else None
        )
    return scores


def pass_k_report(rollouts: Iterable[AgentRecord], k: int) -> dict[str, Any]:
    """{"overall", "by_domain", "by_complexity"}: each group's tasks, rollouts and pass^1..pass^k."""
    outcomes = list(task_outcomes(rollouts).values())
    by: dict[str, dict[str, list]] = {"domain": defaultdict(list), "complexity": defaultdict(list)}
    for outcome in outcomes:
        for key, groups in by.items():
            groups[outcome[key]].append(outcome)
    return {
        "k": k,
        "overall": group_scores(outcomes, k),
        **{
            f"by_{key}": {name: group_scores(group, k) for name, group in sorted(groups.items())}
            for key, groups in by.items()
        },
    }
