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
from collections.abc import Callable, Iterable, Iterator

from environments.from_record import InitialStateError, build_environment
from generators.rollouts.actors import AGENT_POLICIES, USER_SIMULATORS, AgentPolicy, UserSimulator
from generators.rollouts.config import RolloutConfig
from generators.rollouts.conversation import Budget, Conversation, TaskContext
from generators.rollouts.distributed import run_sharded
from generators.rollouts.records import rollout_record, rollout_seed, task_problem
from generators.rollouts.scenario import scenario_problem
from generators.rollouts.scheduler import RolloutScheduler
from generators.rollouts.summary import RolloutSummary
from runtime.executor import Executor
from schemas.generation import Generator
from schemas.record import AgentRecord
from verifiers.base import default_env_factory


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
    executor: Executor | None = None,
) -> Iterator[AgentRecord]:
    """Roll out every task k times and yield each verified record, in input order; counts go to ``summary``.

    ``capacity`` overrides ``cfg.live`` (1: one conversation at a time). With an ``executor`` of more than this process
    (worker processes, Ray), shards of tasks go to its workers, each running this function with its own backend
    (``generator`` is then unused).
    """
    summary = summary if summary is not None else RolloutSummary()
    if executor is not None and executor.spread:
        yield from run_sharded(run_rollouts, tasks, cfg, dataset, summary, on_skipped, executor)
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
    tasks: Iterable[AgentRecord],
    cfg: RolloutConfig,
    dataset: str,
    summary: RolloutSummary | None = None,
    executor: Executor | None = None,
) -> Iterator[AgentRecord]:
    """``run_rollouts`` with the model ``cfg`` names (when its agent or user calls one), loaded for this run (or
    by each of the executor's workers) and closed when the records are all out."""
    in_here = executor is None or not executor.spread
    generator = cfg.make_generator() if cfg.uses_model() and in_here else None
    try:
        yield from run_rollouts(tasks, cfg, generator, dataset, summary, executor=executor)
    finally:
        if generator is not None:
            generator.close()
