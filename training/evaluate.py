"""Evaluation on held-out tasks: k rollouts per task with the model as the ``llm`` agent, pass^1..pass^k.

The rollouts are the synthesis stage's (generators/rollouts): the model under
test through any generators/ backend, the chosen user simulator, the same
budgets, verifier chain and reason codes, so a score here means what an
acceptance rate there means. The report (training/metrics.py) groups tasks by
domain and by complexity.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.rollouts.runner import RolloutSummary, run_rollouts
from schemas.generation import Generator
from schemas.record import AgentRecord
from training.eval_config import EvalConfig
from training.metrics import pass_k_report

DATASET = "eval_rollouts"


def evaluate(
    tasks: list[AgentRecord],
    cfg: EvalConfig,
    generator: Generator | None,
    on_progress: Callable[[int, int], None] = lambda done, total: None,
) -> tuple[list[AgentRecord], dict[str, Any]]:
    """The verified rollouts and the report: pass^j per group, plus the rollout summary (end reasons, ...)."""
    summary = RolloutSummary()
    total = len(tasks) * cfg.k
    rollouts = []
    for done, record in enumerate(run_rollouts(tasks, cfg, generator, DATASET, summary), 1):
        rollouts.append(record)
        on_progress(done, total)
    described = {"model": cfg.model if generator else None, "backend": cfg.backend_name() if generator else None}
    report = {
        **described,
        "agent": cfg.agent,
        "user": cfg.user,
        **pass_k_report(rollouts, cfg.k),
        "rollout_summary": summary.as_dict(),
    }
    return rollouts, report
