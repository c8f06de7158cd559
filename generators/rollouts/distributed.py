"""Rollouts spread over an executor's workers (Ray actors, worker processes), each rolling out shards of tasks.

A worker holds its agent, user simulator and backend (``cfg.make_generator()``:
an OpenAI-compatible server fleet, vLLM on the node's GPUs, transformers) and
runs ``run_rollouts`` on each shard it is handed, exactly as a local run does
(the runner hands the function in: it imports this module, never the reverse).
On a cluster with GPUs, an actor whose policy runs a model here (vLLM,
transformers; not a remote server) holds a GPU: Ray hides the GPUs from
actors that ask for none. Shards come back in input order, and each
rollout's seed derives from the run's seed, the task id and k (never from
where it ran), so the records are those of a local run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice

from generators.rollouts.config import RolloutConfig
from generators.rollouts.summary import RolloutSummary
from runtime.executor import Executor
from schemas.record import AgentRecord

TASKS_PER_SHARD = 4  # small: a shard's k x tasks conversations still share backend batches
# ``run_rollouts``' shape: (tasks, cfg, generator, dataset, summary, on_skipped) -> records.
Rollouts = Callable[..., Iterator[AgentRecord]]


class RolloutWorker:
    """A worker's body (a Ray actor, a worker process): rolls out shards of tasks with its own backend."""

    def __init__(self, cfg: RolloutConfig, dataset: str, run: Rollouts):
        self.cfg, self.dataset, self.run = cfg, dataset, run
        self.generator = cfg.make_generator() if cfg.uses_model() else None

    def __call__(self, tasks: list[AgentRecord]):
        summary, skipped = RolloutSummary(), []
        on_skipped = lambda record, reason: skipped.append((record, reason))  # noqa: E731
        records = list(self.run(tasks, self.cfg, self.generator, self.dataset, summary, on_skipped))
        return records, summary, skipped


def rollout_pool(cfg: RolloutConfig, resources: dict[str, float]) -> tuple[int | None, float]:
    """(actors, GPUs per actor) on a cluster of ``resources``: an actor per GPU, holding it, where the policy runs
    a model in the actor; else the default (an actor per CPU, no GPU)."""
    gpus = int(resources.get("GPU", 0))
    if gpus and cfg.uses_model() and cfg.backend != "openai":
        return gpus, 1.0
    return None, 0.0


def run_sharded(
    run: Rollouts,
    tasks: Iterable[AgentRecord],
    cfg: RolloutConfig,
    dataset: str,
    summary: RolloutSummary,
    on_skipped: Callable[[AgentRecord, str], None],
    executor: Executor,
) -> Iterator[AgentRecord]:
    """``run`` (``run_rollouts``) on the executor's workers (Ray actors, worker processes): the same records, in
    the same order, counted into ``summary``."""
    here = cfg
    if cfg.uses_model():  # the default backend is chosen here, not in actors that may see a GPU the driver has not:
        here = cfg.model_copy(update={"backend": cfg.backend_name()})  # the policy's id stays the driver's
    tasks = iter(tasks)
    shards = iter(lambda: list(islice(tasks, TASKS_PER_SHARD)), [])
    actors, gpus_each = rollout_pool(cfg, executor.resources())
    results = executor.pool_map(RolloutWorker, (here, dataset, run), shards, actors=actors, gpus_each=gpus_each)
    for records, part, skipped in results:
        summary.add(part)
        for record, reason in skipped:
            on_skipped(record, reason)
        yield from records
