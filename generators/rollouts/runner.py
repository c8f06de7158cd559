"""k verified rollouts per task: conversations built from task records, scheduled, recorded, verified, counted.

``run_rollouts`` streams: tasks are read lazily, conversations join the
scheduler as others finish, and verified records are yielded in input order
(task order, then k), whatever order they finished in, so batched and
one-at-a-time runs write identical files. A record that is not a task is
handed to ``on_skipped`` with its reason (the CLI quarantines it). Every task
yields exactly k rollouts, whatever went wrong inside them.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from environments.from_record import InitialStateError, build_environment
from generators.rollouts.actors import AGENT_POLICIES, USER_SIMULATORS, AgentPolicy, UserSimulator
from generators.rollouts.config import RolloutConfig
from generators.rollouts.conversation import USER_STOPS, Budget, Conversation, TaskContext
from generators.rollouts.records import rollout_record, rollout_seed, task_problem
from generators.rollouts.scenario import scenario_problem
from generators.rollouts.scheduler import RolloutScheduler, SchedulerStats
from schemas.generation import Generator
from schemas.record import AgentRecord
from verifiers.base import default_env_factory


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


def make_actors(cfg: RolloutConfig) -> tuple[AgentPolicy, UserSimulator]:
    return AGENT_POLICIES.get(cfg.agent)(cfg), USER_SIMULATORS.get(cfg.user)(cfg)


def conversations(
    tasks: Iterable[AgentRecord],
    cfg: RolloutConfig,
    summary: RolloutSummary,
    on_skipped: Callable[[AgentRecord, str], None],
) -> Iterator[Conversation]:
    """k conversations per task, lazily; a broken start (scenario, initial state) ends one at once with its reason."""
    budget = Budget(**cfg.budget.model_dump())
    order = 0
    for task in tasks:
        problem = task_problem(task)
        if problem is not None:
            summary.skipped[problem] += 1
            on_skipped(task, problem)
            continue
        summary.tasks += 1
        context = TaskContext(task, task.environment.tools, scenario_problem(task.task.user_scenario))
        for index in range(cfg.k):
            try:
                env, failure = build_environment(task.environment, default_env_factory), None
            except InitialStateError as exc:
                env, failure = None, exc.code
            conv = Conversation(
                context, index, rollout_seed(cfg.seed, task.id, index), env, budget, cfg.sampling, order
            )
            order += 1
            if context.scenario_problem:
                conv.end("bad_scenario")
            elif failure:
                conv.end(failure)
            yield conv


def run_rollouts(
    tasks: Iterable[AgentRecord],
    cfg: RolloutConfig,
    generator: Generator | None,
    dataset: str,
    summary: RolloutSummary | None = None,
    on_skipped: Callable[[AgentRecord, str], None] = lambda record, reason: None,
    capacity: int | None = None,
) -> Iterator[AgentRecord]:
    """Roll out every task k times and yield each verified record, in input order; counts go to ``summary``.

    ``capacity`` overrides ``cfg.live`` (1: one conversation at a time). On engine=ray, shards of tasks go to
    actors that each run this function with their own backend (``generator`` is then unused).
    """
    summary = summary if summary is not None else RolloutSummary()
    if cfg.engine == "ray":
        from generators.rollouts.distributed import run_on_ray

        yield from run_on_ray(tasks, cfg, dataset, summary, on_skipped)
        return
    agent, user = make_actors(cfg)
    model = {"backend": cfg.backend_name(), **generator.model_id} if agent.uses_model or user.uses_model else None
    components = {"agent": agent.describe(), "user": user.describe(), "model": model}
    config_hash = cfg.policy_id()
    scheduler = RolloutScheduler(agent, user, generator, cfg.sampling, capacity or cfg.live)
    summary.scheduler = scheduler.stats
    waiting: list[tuple[int, AgentRecord]] = []  # finished out of order, held until their turn
    next_out = 0
    for conv in scheduler.run(conversations(tasks, cfg, summary, on_skipped)):
        record = rollout_record(conv, dataset, components, config_hash)
        summary.count(record)
        heapq.heappush(waiting, (conv.order, record))
        while waiting and waiting[0][0] == next_out:
            yield heapq.heappop(waiting)[1]
            next_out += 1


def run_with_own_model(
    tasks: Iterable[AgentRecord], cfg: RolloutConfig, dataset: str, summary: RolloutSummary | None = None
) -> Iterator[AgentRecord]:
    """``run_rollouts`` with the model ``cfg`` names (when its agent or user calls one), loaded for this run and
    closed when the records are all out."""
    generator = cfg.make_generator() if cfg.uses_model() else None
    try:
        yield from run_rollouts(tasks, cfg, generator, dataset, summary)
    finally:
        if generator is not None:
            generator.close()
