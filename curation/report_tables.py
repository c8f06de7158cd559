"""The report's tables that relate or count columns of the records table (curation/report.py's ``read_scored``).

- **complexity vs learner failure**: Spearman's rank correlation of each
  structural feature (curation/complexity.py) and of the structural
  complexity with ``difficulty = 1 - pass rate``, over the task records a
  learner rolled out. Ranks, because the features are counts on their own
  scales and p takes few values (passes / k). A feature that is the same for
  every task ranks nothing: its correlation is undefined (None).
- **goal-kind coverage**: tasks and trajectories per goal kind (curation/views.py;
  ``none`` for records that name no goal kind).
- **tool-sequence coverage**: the distinct ordered tool-name sequences of the
  trajectories, and the most common ones.
"""

from __future__ import annotations

import math
from collections import Counter

import polars as pl

from curation.complexity import FEATURE_CAPS

CORRELATED = (*FEATURE_CAPS, "complexity")
NO_GOAL_KIND = "none"
TOP_SEQUENCES = 10  # tool sequences listed by name


def difficulty_correlations(table: pl.DataFrame) -> dict:
    """``{"n": tasks with a difficulty, "levels": its distinct values, "spearman": {column: rho or None}}``;
    n is 0 when no task has one."""
    tasks = table.filter(pl.col("is_task") & pl.col("difficulty").is_not_null())
    if tasks.height == 0:
        return {"n": 0, "levels": 0, "spearman": {}}
    rho = tasks.select(pl.corr(name, "difficulty", method="spearman").alias(name) for name in CORRELATED).row(0)
    spearman = {
        name: None if value is None or math.isnan(value) else round(value, 3) for name, value in zip(CORRELATED, rho)
    }
    return {"n": tasks.height, "levels": tasks["difficulty"].n_unique(), "spearman": spearman}


def goal_kind_counts(table: pl.DataFrame) -> dict[str, dict[str, int]]:
    """Per goal kind, most common first: ``{"tasks": n, "trajectories": m}`` (a record counts once per kind it has)."""
    counts: dict[str, Counter] = {"tasks": Counter(), "trajectories": Counter()}
    for is_task, kinds in table.select("is_task", "goal_kinds").iter_rows():
        counts["tasks" if is_task else "trajectories"].update(kinds or [NO_GOAL_KIND])
    total = counts["tasks"] + counts["trajectories"]
    return {kind: {part: counts[part][kind] for part in counts} for kind, _ in total.most_common()}


def tool_sequence_counts(table: pl.DataFrame, top: int = TOP_SEQUENCES) -> dict:
    """Of the trajectories: how many distinct tool sequences, the ``top`` most common, and how many call no tool."""
    sequences = table.filter(~pl.col("is_task"))["tool_sequence"].to_list()
    counts = Counter(sequence for sequence in sequences if sequence)
    return {
        "distinct": len(counts),
        "top": dict(counts.most_common(top)),
        "without_tool_calls": sum(1 for sequence in sequences if not sequence),
    }
