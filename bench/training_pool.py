"""Training data for the training benchmarks: synthesized retail tasks and their oracle / perturbed rollouts.

No model is involved: tasks come from the constraint-first synthesizer
(templates), rollouts from the oracle and perturbed agents with the scripted
user, each verified by the chain, as ``aceforge synth tasks`` and ``aceforge
synth rollouts`` make them.
"""

from __future__ import annotations

from schemas.record import AgentRecord
from schemas.steps import ApiAction


def synth_tasks(n: int, seed: int, users: int = 200) -> list[AgentRecord]:
    from generators.synthesis.config import SynthTasksConfig
    from generators.synthesis.stages import run_tasks

    tasks, _ = run_tasks(SynthTasksConfig(env="retail", n=n, users=users, seed=seed), "bench_tasks")
    return tasks


def roll_out(tasks: list[AgentRecord], agent: str, k: int, seed: int = 0) -> list[AgentRecord]:
    from generators.rollouts.config import RolloutConfig
    from generators.rollouts.runner import run_rollouts

    cfg = RolloutConfig(agent=agent, user="scripted", k=k, seed=seed, cache=False)
    return list(run_rollouts(tasks, cfg, None, f"bench_{agent}"))


def with_called_tools_only(record: AgentRecord) -> AgentRecord:
    """The record with E.tools cut to the tools τ calls: a shorter system prompt for CPU-sized training runs."""
    called = {step.function for step in record.trajectory if isinstance(step, ApiAction)}
    tools = [tool for tool in record.environment.tools if tool.name in called]
    return record.model_copy(update={"environment": record.environment.model_copy(update={"tools": tools})})
