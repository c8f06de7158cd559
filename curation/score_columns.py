"""Score columns: pure functions over record facts, and the one generic step that writes them into records.

Each score is a function ``facts -> {column: values}`` (accuracy, complexity,
the learner's pass rates, diversity); ``score_table`` joins their columns into
one table, one row per record, and ``scores_of`` turns a row into the record's
``scores``. Nothing here keeps or drops a record: thresholds are applied
later (dedup, select), so they can be re-tuned without recomputing a score.

Where the scores live:

- ``record.scores``: ``accuracy``, ``complexity`` (structural), ``diversity``,
  and in ``extra`` every other numeric column (features, pass_rate, difficulty,
  frontier, learner_k, reward_mean, reward_spread, learnability, novelty_text,
  novelty_action, novelty_entities, cluster, accuracy_level as its index in
  ACCURACY_LEVELS) plus ``missing_<marker>: 1.0`` for each missing marker. A
  column that cannot be computed is left out, never filled with 0;
  ``learner``: the id of the declared learner whose pass rate is in ``extra``.
- ``<output stem>.scores.parquet``: the same columns flat, with the levels and
  markers as text, for DuckDB or polars (registered in the catalog as
  ``<name>_scores``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np
import polars as pl

from curation.accuracy import ACCURACY_LEVELS
from curation.complexity import FEATURE_CAPS, complexity_level, learner_columns
from curation.diversity import Embedded, clusters, diversity, entity_novelty, novelty
from curation.facts import RecordFacts
from curation.learner import LearnerCounts
from curation.signatures import Signatures
from schemas.record import AgentRecord, Scores

Columns = dict[str, list[Any]]
ScoreFunction = Callable[[list[RecordFacts]], Columns]
# Text columns of the table; every other column is numeric and may go to scores.extra.
TEXT_COLUMNS = (
    *("id", "task_id", "dataset", "format", "environment"),
    *("accuracy_level", "complexity_level", "missing", "learner"),
)
MAIN_COLUMNS = ("accuracy", "complexity", "diversity")


def accuracy_columns(facts: list[RecordFacts]) -> Columns:
    return {"accuracy_level": [f.accuracy.level for f in facts], "accuracy": [f.accuracy.value for f in facts]}


def complexity_columns(facts: list[RecordFacts]) -> Columns:
    columns: Columns = {name: [f.features[name] for f in facts] for name in FEATURE_CAPS}
    columns["complexity"] = [f.complexity for f in facts]
    columns["complexity_level"] = [complexity_level(f.complexity) for f in facts]
    return columns


def pass_rate_columns(learner: LearnerCounts) -> ScoreFunction:
    """The learner's columns for tasks it rolled out, and for their rollouts (by the task they belong to), with
    the learner's id beside them."""
    names = ("pass_rate", "difficulty", "frontier", "learner_k", "reward_mean", "reward_spread", "learnability")

    def columns(facts: list[RecordFacts]) -> Columns:
        out: Columns = {name: [] for name in (*names, "learner")}
        for f in facts:
            count = learner.counts.get(f.task_id)
            values = learner_columns(count.passes, count.rewards) if count else {}
            for name in names:
                out[name].append(values.get(name))
            out["learner"].append(learner.learner_id if count else None)
        return out

    return columns


def diversity_columns(signatures: Signatures, seed: int = 0, progress: bool = False) -> ScoreFunction:
    def columns(facts: list[RecordFacts]) -> Columns:
        text_novelty = np.full(len(facts), np.nan)
        action_novelty = np.full(len(facts), np.nan)
        entities_novelty = np.full(len(facts), np.nan)
        for is_task in (True, False):  # within kind: tasks among tasks, trajectories among other tasks' trajectories
            rows = [i for i, f in enumerate(facts) if f.is_task == is_task]
            if not rows:
                continue
            owners = [facts[i].task_id for i in rows]
            text = Embedded.of([facts[i].text for i in rows], signatures.text[rows])
            action = Embedded.of([facts[i].action_text for i in rows], signatures.action[rows])
            text_novelty[rows] = novelty(text, progress, owners)
            action_novelty[rows] = novelty(action, progress, owners)
            entities_novelty[rows] = entity_novelty([facts[i].entities for i in rows], owners)
        cluster, _ = clusters(Embedded.of([f.text for f in facts], signatures.text), seed)
        return {
            "novelty_text": _floats(text_novelty),
            "novelty_action": _floats(action_novelty),
            "novelty_entities": _floats(entities_novelty),
            "diversity": _floats(diversity(text_novelty, action_novelty, entities_novelty)),
            "cluster": [int(c) if c >= 0 else None for c in cluster],
        }

    return columns


def _floats(values: np.ndarray) -> list[float | None]:
    return [None if math.isnan(v) else round(float(v), 6) for v in values]


def score_table(facts: list[RecordFacts], functions: Iterable[ScoreFunction]) -> pl.DataFrame:
    columns: Columns = {
        "id": [f.id for f in facts],
        "task_id": [f.task_id for f in facts],
        "dataset": [f.dataset for f in facts],
        "format": [f.format for f in facts],
        "environment": [f.environment for f in facts],
        "missing": [f.missing for f in facts],
    }
    for function in functions:
        for name, values in function(facts).items():
            if len(values) != len(facts):
                raise ValueError(f"score column {name!r} has {len(values)} values for {len(facts)} records")
            columns[name] = values
    table = pl.DataFrame(columns, strict=False).with_columns(pl.col("missing").cast(pl.List(pl.String)))
    # A column no record has a value for is still a number column (DuckDB and Arrow readers expect one).
    return table.with_columns(pl.col(name).cast(pl.Float64) for name, dtype in table.schema.items() if dtype == pl.Null)


def scores_of(row: dict[str, Any]) -> Scores:
    """A table row as the record's scores (see the module docstring)."""
    extra = {
        name: float(value)
        for name, value in row.items()
        if name not in TEXT_COLUMNS and name not in MAIN_COLUMNS and value is not None
    }
    if row.get("accuracy_level") is not None:
        extra["accuracy_level"] = float(ACCURACY_LEVELS.index(row["accuracy_level"]))
    extra.update({f"missing_{marker}": 1.0 for marker in row.get("missing") or []})
    return Scores(**{name: row.get(name) for name in MAIN_COLUMNS}, extra=extra, learner=row.get("learner"))


def with_scores(records: Iterable[AgentRecord], table: pl.DataFrame) -> Iterator[AgentRecord]:
    """The records again, in the table's order, each carrying its row as scores."""
    for record, row in zip(records, table.iter_rows(named=True), strict=True):
        if record.id != row["id"]:
            raise ValueError(f"records changed while being scored: expected {row['id']}, read {record.id}")
        scores = scores_of(row)
        # Columns an earlier stage wrote and this one did not compute (a loss, a pass rate) are kept.
        scores.extra = {**record.scores.extra, **scores.extra}
        scores.learner = scores.learner or record.scores.learner
        yield record.model_copy(update={"scores": scores})
