"""The declared learner: how often it solves each task, counted from its own rollouts only.

A learner is a policy with its execution configuration (``PolicyConfig`` of
generators/rollouts/config.py: agent, model and backend, tool-call format,
budget, sampling, k, seed). Its id is the hash of that configuration, which
every rollout it makes carries as ``lineage.config_hash``; the id is written
beside each pass rate (``scores.learner``). Pass rates come from:

- ``recorded_counts``: rollouts already made (``aceforge synth rollouts``, the
  main job's ``learner_rollouts`` asset). They must be one policy's, or the
  learner's id must say which: rollouts of other policies (the oracle that
  wrote the demonstrations, a perturbed agent) are never pooled in.
- ``roll_out``: the policy rolled out now, k times per task, through the
  rollout runner of generators/rollouts.

A rollout with no verdict (passed None) counts as a rollout, not a pass: an
undecided run is no evidence the learner can solve the task. Beside the passes,
each rollout's reward (verifiers/reward.py, the one GRPO trains on) is kept: the
RL set takes a task whose rewards are not all equal (curation/selection.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from curation.views import task_id
from generators.rollouts.config import PolicyConfig
from schemas.record import AgentRecord
from schemas.task_identity import is_rollout_of_a_task
from verifiers.reward import rollout_reward

UNRECORDED = "(none recorded)"  # rollouts whose lineage names no configuration


class LearnerError(ValueError):
    """The learner's rollouts cannot be told apart, or there are none."""


@dataclass(frozen=True)
class PassCount:
    passes: int
    rollouts: int
    rewards: tuple[float, ...]  # each rollout's reward (verifiers/reward.py), in the order the rollouts came

    @property
    def pass_rate(self) -> float:
        return self.passes / self.rollouts


@dataclass(frozen=True)
class LearnerCounts:
    learner_id: str
    counts: dict[str, PassCount]  # by task id


def is_rollout(record: AgentRecord) -> bool:
    return is_rollout_of_a_task(record.details, record.lineage.parents) and bool(record.trajectory)


Outcome = tuple[str, bool | None, float]  # task id, verdict, reward


def count_passes(outcomes: Iterable[Outcome]) -> dict[str, PassCount]:
    """Pass counts and rewards per task id from (task id, verdict, reward) triples."""
    passes: dict[str, int] = defaultdict(int)
    rewards: dict[str, list[float]] = defaultdict(list)
    for key, passed, reward in outcomes:
        rewards[key].append(reward)
        passes[key] += passed is True
    return {key: PassCount(passes[key], len(rewards[key]), tuple(rewards[key])) for key in rewards}


def _outcome(record: AgentRecord) -> Outcome:
    result = record.verifier.result
    return task_id(record), (result.passed if result is not None else None), rollout_reward(result)


def recorded_counts(rollouts: Iterable[AgentRecord], learner_id: str | None = None) -> LearnerCounts:
    """Pass counts of one policy's rollouts among ``rollouts``: ``learner_id``'s, or the only policy's there is."""
    by_policy: dict[str, list[Outcome]] = defaultdict(list)
    for record in rollouts:
        if is_rollout(record):
            by_policy[record.lineage.config_hash or UNRECORDED].append(_outcome(record))
    found = ", ".join(f"{key} ({len(rows)} rollouts)" for key, rows in sorted(by_policy.items())) or "none"
    if learner_id is None:
        if len(by_policy) != 1:
            raise LearnerError(
                f"the rollouts are not one policy's (found: {found}): name the learner's with --learner-id"
            )
        (learner_id,) = by_policy
    if learner_id not in by_policy:
        raise LearnerError(f"no rollouts of the learner {learner_id} (found: {found})")
    return LearnerCounts(learner_id, count_passes(by_policy[learner_id]))


def roll_out(
    policy: PolicyConfig, tasks: list[AgentRecord], on_rollout: Callable[[AgentRecord], None] | None = None
) -> LearnerCounts:
    """Roll ``policy`` out k times per task and count its verified passes; ``on_rollout`` keeps each record
    (the score command writes them beside its output, as the evidence behind every pass rate)."""
    from generators.rollouts.config import RolloutConfig
    from generators.rollouts.runner import run_with_own_model

    cfg = RolloutConfig.model_validate(policy.model_dump())
    outcomes: list[Outcome] = []
    for record in run_with_own_model(tasks, cfg, "learner_rollouts"):
        outcomes.append(_outcome(record))
        if on_rollout is not None:
            on_rollout(record)
    return LearnerCounts(policy.policy_id(), count_passes(outcomes))
