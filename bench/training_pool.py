"""Training data for the training benchmarks: synthesized retail tasks and their oracle / perturbed rollouts.

No model is involved: tasks come from the constraint-first synthesizer
(templates), rollouts from the oracle and perturbed agents with the scripted
user, each verified by the chain, as ``aceforge synth tasks`` and ``aceforge
synth rollouts`` make them.
"""

from __future__ import annotations

from schemas.record import AgentRecord
from schemas.steps import ApiAction


def synth_tasks(
    n: int, seed: int, users: int = 200, db_seed: int = 0, goals: list[str] | None = None
) -> list[AgentRecord]:
    """``n`` retail tasks sampled with ``seed`` in the database of ``db_seed``, from ``goals`` (default: every kind)."""
    from generators.synthesis.config import SynthTasksConfig
    from generators.synthesis.stages import run_tasks

    cfg = SynthTasksConfig(env="retail", n=n, users=users, seed=seed, db_seed=db_seed, goals=goals or [])
    tasks, _ = run_tasks(cfg, "bench_tasks")
    return tasks


def goal_kinds() -> list[str]:
    """Every goal kind of the retail domain (generators/synthesis/retail_*.py)."""
    from generators.synthesis.domains import get_domain

    return get_domain("retail").kinds()


def roll_out(tasks: list[AgentRecord], agent: str, k: int, seed: int = 0) -> list[AgentRecord]:
    from generators.rollouts.config import RolloutConfig
    from generators.rollouts.runner import run_rollouts

    cfg = RolloutConfig(agent=agent, user="scripted", k=k, seed=seed, cache=False)
    return list(run_rollouts(tasks, cfg, None, f"bench_{agent}"))


def passed(record: AgentRecord) -> bool:
    return bool(record.verifier.result and record.verifier.result.passed)


def with_called_tools_only(record: AgentRecord) -> AgentRecord:
    """The record with E.tools cut to the tools τ calls: a shorter system prompt for CPU-sized training runs."""
    called = {step.function for step in record.trajectory if isinstance(step, ApiAction)}
    tools = [tool for tool in record.environment.tools if tool.name in called]
    return record.model_copy(update={"environment": record.environment.model_copy(update={"tools": tools})})


def through_last_call(record: AgentRecord) -> AgentRecord:
    """The record cut after its last tool call: the held-out eval scores calls, so training ends where the last
    call does (the result and the closing message after it would cost tokens that the eval never scores)."""
    last = max((i for i, step in enumerate(record.trajectory) if isinstance(step, ApiAction)), default=None)
    if last is None:
        return record
    return record.model_copy(update={"trajectory": record.trajectory[: last + 1]})


def assert_disjoint(pool: list[AgentRecord], held: list[AgentRecord]) -> None:
    """Raise ValueError when a held-out record shares a task (schemas/task_identity.py) or an instruction text
    with the training pool: the held-out database and seed make overlap unlikely, this makes it impossible."""
    from schemas.task_identity import task_of
    from training.improve_tasks import instruction_text

    tasks = {task_of(record) for record in pool}
    texts = {instruction_text(record) for record in pool}
    same_task = sorted({task_of(record) for record in held} & tasks)
    same_text = sorted({instruction_text(record) for record in held} & texts - {""})
    if same_task or same_text:
        raise ValueError(
            f"held-out set overlaps the pool: {len(same_task)} shared task(s) {same_task[:3]}, "
            f"{len(same_text)} shared instruction(s) {[text[:60] for text in same_text[:3]]}"
        )
