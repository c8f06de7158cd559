"""Rollouts spread over worker processes give the records of one process, in the same order."""

from __future__ import annotations

from generators.rollouts.config import RolloutConfig
from generators.rollouts.runner import RolloutSummary, run_rollouts
from runtime.executor import ExecutorConfig, open_executor
from tests.generators.rollouts.helpers import balance_task, cancel_task


def test_rollouts_in_worker_processes_give_the_local_records():
    tasks = [cancel_task(), balance_task()] * 3
    cfg = RolloutConfig(agent="perturbed", k=2)
    local = list(run_rollouts(tasks, cfg, None, "unit"))
    summary = RolloutSummary()
    with open_executor(ExecutorConfig(workers=2)) as executor:
        spread = list(run_rollouts(tasks, cfg, None, "unit", summary, executor=executor))
    assert [r.model_dump() for r in local] == [r.model_dump() for r in spread] and len(spread) == 12
    assert (summary.tasks, summary.rollouts) == (6, 12)
