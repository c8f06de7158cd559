"""``score``: read records, compute every ACE column, write the records with their scores and the scores table.

Outputs, for ``-o scored.parquet``:

- ``scored.parquet``: every input record, in order, with ``scores`` filled
  (curation/score_columns.py says which column goes where);
- ``scored.scores.parquet``: the flat scores table;
- ``scored.signatures.parquet``: the embeddings, so dedup and select reuse them.

The learner's pass rates (curation/learner.py): a declared learner
(``cfg.learner``) is rolled out now on the input's task records; otherwise
the rollouts of ``rollouts`` (or, with ``cfg.learner_id``, that policy's
rollouts in the input) are counted. Nothing declared, nothing given: no pass
rates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from curation.config import ScoreConfig
from curation.facts import iter_records, read_facts
from curation.learner import LearnerCounts, recorded_counts, roll_out
from curation.score_columns import (
    accuracy_columns,
    complexity_columns,
    diversity_columns,
    pass_rate_columns,
    score_table,
    with_scores,
)
from curation.signatures import SIGNATURES, embeddings_for, sidecar, write_signatures
from runtime.executor import Executor
from schemas.io import atomic_output, write_records
from schemas.record import AgentRecord

SCORES = "scores"
RecordColumn = Callable[[Iterable[AgentRecord]], list]


@dataclass
class ScoreResult:
    output: Path
    scores_path: Path
    signatures_path: Path
    table: pl.DataFrame
    learner: str | None  # the learner's id

    def summary(self) -> dict:
        table = self.table
        rates = table["pass_rate"].drop_nulls() if "pass_rate" in table.columns else pl.Series([], dtype=pl.Float64)
        return {
            "records": table.height,
            "output": str(self.output),
            "scores": str(self.scores_path),
            "learner": self.learner,
            "accuracy_levels": dict(Counter(table["accuracy_level"].to_list()).most_common()),
            "complexity_levels": dict(Counter(table["complexity_level"].to_list()).most_common()),
            "with_pass_rate": len(rates),
            "frontier": int(table["frontier"].fill_null(0).sum()) if "frontier" in table.columns else 0,
            # tasks (and their rollouts) whose learner rewards are not all equal: what the RL set may take
            "unequal_rewards": int((table["reward_spread"] > 0).sum()) if "reward_spread" in table.columns else 0,
            "missing": dict(Counter(m for row in table["missing"].to_list() for m in row).most_common()),
        }


def learner_counts(
    input: Path,
    cfg: ScoreConfig,
    rollouts: Iterable[AgentRecord] | None,
    on_rollout: Callable[[AgentRecord], None] | None,
) -> LearnerCounts | None:
    """The declared learner's pass counts per task id, or None when there is no learner."""
    if cfg.learner is not None:
        tasks = [record for record in iter_records(input) if not record.trajectory]
        return roll_out(cfg.learner, tasks, on_rollout)
    if rollouts is not None:
        return recorded_counts(rollouts, cfg.learner_id)
    if cfg.learner_id is not None:
        return recorded_counts(iter_records(input), cfg.learner_id)
    return None


def run_score(
    input: Path,
    output: Path,
    cfg: ScoreConfig,
    rollouts: Iterable[AgentRecord] | None = None,
    progress: bool = False,
    record_columns: dict[str, RecordColumn] | None = None,
    on_rollout: Callable[[AgentRecord], None] | None = None,
    executor: Executor | None = None,
) -> ScoreResult:
    """``rollouts``: the learner's rollouts (its pass rates); ``record_columns``: more columns computed from the
    records themselves (e.g. curation/loss.py's loss); ``on_rollout`` keeps each rollout of a declared learner;
    ``executor`` encodes the embeddings (default: this process)."""
    facts = read_facts(input, progress)
    learner = learner_counts(input, cfg, rollouts, on_rollout)
    signatures = embeddings_for(facts, sidecar(input, SIGNATURES), progress, executor)
    functions = [accuracy_columns, complexity_columns, diversity_columns(signatures, cfg.seed, progress)]
    if learner is not None:
        functions.append(pass_rate_columns(learner))
    for name, column in (record_columns or {}).items():
        values = column(iter_records(input, progress, f"scoring {name}"))
        functions.append(lambda facts, name=name, values=values: {name: values})
    table = score_table(facts, functions)
    write_records(with_scores(iter_records(input, progress, "writing scored records"), table), output)
    scores_path = sidecar(output, SCORES)
    with atomic_output(scores_path) as tmp:
        table.write_parquet(tmp)
    signatures_path = write_signatures(sidecar(output, SIGNATURES), facts, signatures)
    return ScoreResult(output, scores_path, signatures_path, table, learner.learner_id if learner else None)
