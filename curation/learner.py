"""The declared learner: given tasks, k and a seed, how often does it solve each task?

A learner is anything with ``name`` and ``pass_counts(tasks, k, seed)``,
which returns ``{task id: PassCount(passes, rollouts)}`` for the tasks it
could roll out (a task it could not, e.g. one without a verifier, is absent
and gets no pass rate). Two kinds:

- ``RecordedLearner``: rollouts that already exist (records whose
  ``details.rollout_index`` is set and whose ``lineage.parents[0]`` names the
  task), counted by their verdicts; the agent is whoever made those rollouts.
- ``RolloutLearner``: rolls an agent policy of the synthesis stage (``oracle``,
  ``perturbed``, ``llm`` with a backend) out k times per task through the
  rollout runner of generators/rollouts and counts the verified passes.

A rollout with no verdict (passed None) counts as a rollout, not a pass: an
undecided run is no evidence the learner can solve the task.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from curation.views import task_id
from generators.config import BackendConfig
from schemas.record import AgentRecord
from schemas.task_identity import is_rollout_of_a_task


@dataclass(frozen=True)
class PassCount:
    passes: int
    rollouts: int

    @property
    def pass_rate(self) -> float:
        return self.passes / self.rollouts


class Learner(Protocol):
    name: str

    def pass_counts(self, tasks: list[AgentRecord], k: int, seed: int) -> dict[str, PassCount]: ...


def is_rollout(record: AgentRecord) -> bool:
    return is_rollout_of_a_task(record.details, record.lineage.parents) and bool(record.trajectory)


def rollout_outcomes(records: Iterable[AgentRecord]) -> Iterator[tuple[str, bool | None]]:
    """(task id, verdict) of each rollout record among ``records``."""
    for record in records:
        if is_rollout(record):
            result = record.verifier.result
            yield task_id(record), (result.passed if result is not None else None)


def count_passes(outcomes: Iterable[tuple[str, bool | None]]) -> dict[str, PassCount]:
    """Pass counts per task id from (task id, verdict) pairs."""
    passes: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    for key, passed in outcomes:
        total[key] += 1
        passes[key] += passed is True
    return {key: PassCount(passes[key], total[key]) for key in total}


class RecordedLearner:
    """Pass rates from rollouts already made (by `aceforge synth rollouts`, or present in the scored input)."""

    def __init__(self, counts: dict[str, PassCount], name: str = "recorded"):
        self.name = name
        self._counts = dict(counts)

    @classmethod
    def from_rollouts(cls, rollouts: Iterable[AgentRecord], name: str = "recorded") -> RecordedLearner:
        return cls(count_passes(rollout_outcomes(rollouts)), name)

    def pass_counts(self, tasks: list[AgentRecord], k: int, seed: int) -> dict[str, PassCount]:
        """The recorded counts of these tasks (all recorded rollouts count, whatever ``k`` and ``seed`` say)."""
        return {record.id: self._counts[record.id] for record in tasks if record.id in self._counts}

    @property
    def counts(self) -> dict[str, PassCount]:
        return dict(self._counts)


class RolloutLearner:
    """An agent policy of the synthesis stage, rolled out k times per task and verified (generators/rollouts).

    ``backend`` is the model of the ``llm`` agent (and of an ``llm`` user); the
    oracle and perturbed agents with the scripted user need none. Each rollout
    record can be kept through ``on_rollout`` (the score command writes them
    beside its output, as the evidence behind every pass rate).
    """

    def __init__(
        self,
        agent: str,
        backend: BackendConfig | None = None,
        user: str = "scripted",
        on_rollout: Callable[[AgentRecord], None] | None = None,
    ):
        self.agent, self.user, self.backend = agent, user, backend or BackendConfig()
        self.on_rollout = on_rollout
        self.name = agent if agent != "llm" else f"llm:{self.backend.model}"

    def pass_counts(self, tasks: list[AgentRecord], k: int, seed: int) -> dict[str, PassCount]:
        from generators.rollouts.config import RolloutConfig
        from generators.rollouts.runner import run_rollouts

        cfg = RolloutConfig(
            **self.backend.model_dump(exclude_unset=True), k=k, agent=self.agent, user=self.user, seed=seed
        )
        generator = cfg.make_generator() if cfg.uses_model() else None
        outcomes: list[tuple[str, bool | None]] = []
        try:
            for record in run_rollouts(tasks, cfg, generator, dataset="learner_rollouts"):
                outcomes.extend(rollout_outcomes([record]))
                if self.on_rollout is not None:
                    self.on_rollout(record)
        finally:
            if generator is not None:
                generator.close()
        return count_passes(outcomes)
