"""The tasks of ``aceforge improve``: held-out tasks kept apart, and new tasks where the learner fails.

**Held out.** The held-out tasks come from another database seed; a training task is dropped when it shares
its task (``task_of``, schemas/task_identity.py) or its instruction text with one of them, so no round trains
on a held-out task under another id or on the same words.

**Where the learner fails** (SEAL's environment-side adaptation, on the difficulty ladder of
generators/synthesis/levels.py). The learner's rollouts are pooled by the level of their task:

- a level it **never** solves (no rollout passed) gets new tasks one level **lower** (level 1 stays at 1:
  there is none lower, and more of the easiest is what it needs);
- a level it **always** solves (every rollout passed) gets new tasks one level **higher** (level 4 stays);
- a level in between (its frontier) gets new tasks of the **same** level: they carry signal as they are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.levels import LEVELS
from generators.synthesis.stages import run_tasks
from schemas.record import AgentRecord
from schemas.task_identity import task_of
from training.inputs import InputError, read_training_input

LOWEST, HIGHEST = min(LEVELS), max(LEVELS)
UNLEVELLED = 0  # tasks without a level (made outside the ladder): never adapted


@dataclass(frozen=True)
class LevelRate:
    passes: int
    rollouts: int

    @property
    def rate(self) -> float:
        return self.passes / self.rollouts if self.rollouts else 0.0


def level_of(record: AgentRecord) -> int:
    level = record.task.metadata.get("level")
    return int(level) if level is not None else UNLEVELLED


def level_rates(rollouts: Iterable[AgentRecord]) -> dict[int, LevelRate]:
    """Passes and rollouts per task level (a pass: the chain's verdict is True)."""
    passes: Counter = Counter()
    counts: Counter = Counter()
    for record in rollouts:
        level = level_of(record)
        counts[level] += 1
        passes[level] += bool(record.verifier.result and record.verifier.result.passed)
    return {level: LevelRate(passes[level], counts[level]) for level in sorted(counts)}


def next_level(rate: LevelRate, level: int) -> int:
    """The level new tasks are drawn at, for a level solved at ``rate`` (the rule in the module docstring)."""
    if rate.passes == 0:
        return max(LOWEST, level - 1)
    if rate.passes == rate.rollouts:
        return min(HIGHEST, level + 1)
    return level


def adapt_levels(rates: dict[int, LevelRate]) -> dict[int, list[int]]:
    """{level to synthesize at: the levels whose pass rates point there}, for every levelled level rolled out."""
    plan: dict[int, list[int]] = {}
    for level, rate in sorted(rates.items()):
        if level != UNLEVELLED and rate.rollouts:
            plan.setdefault(next_level(rate, level), []).append(level)
    return dict(sorted(plan.items()))


def instruction_text(task: AgentRecord) -> str:
    """The instruction as compared for overlap: whitespace runs as one space, so a line break hides no repeat."""
    return " ".join(task.task.instruction.split())


def overlaps(task: AgentRecord, ids: set[str], texts: set[str]) -> bool:
    return task_of(task) in ids or instruction_text(task) in texts


def keep_disjoint(tasks: list[AgentRecord], heldout: list[AgentRecord]) -> tuple[list[AgentRecord], int]:
    """The tasks that share neither a task id nor an instruction with a held-out task, and how many were dropped."""
    ids = {task_of(task) for task in heldout}
    texts = {instruction_text(task) for task in heldout}
    kept = [task for task in tasks if not overlaps(task, ids, texts)]
    return kept, len(tasks) - len(kept)


def synthesize(cfg: SynthTasksConfig, dataset: str) -> list[AgentRecord]:
    records, _ = run_tasks(cfg, dataset)
    return records


def read_tasks(path: Path) -> list[AgentRecord]:
    """The task records of a file (InputError when it holds anything else: a rollout is no task to roll out)."""
    records = read_training_input(path)
    rolled = sum(bool(record.trajectory) for record in records)
    if rolled:
        raise InputError(f"{path}: {rolled} of {len(records)} records have a trajectory; give task records")
    return records


def tasks_from(path: Path | None, cfg: SynthTasksConfig, dataset: str) -> list[AgentRecord]:
    return read_tasks(path) if path is not None else synthesize(cfg, dataset)


def new_tasks(
    plan: dict[int, list[int]], base: SynthTasksConfig, n: int, round_index: int, dataset: str
) -> list[AgentRecord]:
    """``n`` tasks at each planned level, on the training database, each level and round with its own seed."""
    made: list[AgentRecord] = []
    for level in plan if n else ():
        seed = base.seed + 1000 * (round_index + 1) + level  # a new draw every round, never the first round's
        cfg = base.model_copy(update={"n": n, "difficulty": str(level), "seed": seed})
        made += synthesize(cfg, dataset)
    return made


def add_new(pool: list[AgentRecord], made: list[AgentRecord], heldout: list[AgentRecord]) -> list[AgentRecord]:
    """The made tasks that are neither in the pool already nor overlapping the held-out set."""
    fresh, _ = keep_disjoint(made, heldout)
    seen = {task_of(task) for task in pool}
    texts = {instruction_text(task) for task in pool}
    added = []
    for task in fresh:
        if not overlaps(task, seen, texts):
            added.append(task)
            seen.add(task_of(task))
            texts.add(instruction_text(task))
    return added
