"""Rollouts as AgentRecords: the task record plus τ, v filled by the verifier chain, lineage and details.

A rollout keeps the task's E and q; τ is what the conversation recorded (tool
calls with their ids and results, agent messages, user turns); v is the
task's verifier (constraints for the tool worlds, unit tests for code tasks)
with its result computed by the chain (structure -> replay -> constraints).
lineage.generator names the agent policy and the user simulator (name and
version), the backend, model and sampling of model actors, the rollout's seed
and the faults injected; lineage.parents is [task id]; details carry
``end_reason``, ``rollout_index``, ``leakage`` and the turn counts. The id is
stable in (task id, agent, user, k, seed).
"""

from __future__ import annotations

from typing import Any

from generators.llm.ledger import usage_of
from generators.rollouts.conversation import Conversation
from schemas.record import AgentRecord, Lineage, Source, stable_id
from verifiers.runner import apply_verification

ROLLOUT_FORMAT = "synth_rollouts"


def task_problem(record: AgentRecord) -> str | None:
    """Why a record is not a task that rollouts can start from (None when it is one)."""
    if record.trajectory:
        return "has a trajectory already (not a task)"
    if not record.environment.name:
        return "names no environment (E.name is empty)"
    if not record.task.constraints and not (record.task.expected_outputs or {}).get("tests"):
        return "has neither constraints nor tests to verify a rollout against"
    return None


def rollout_seed(run_seed: int, task_id: str, index: int) -> int:
    """A 31-bit seed per (run seed, task, k): distinct rollouts of one task get distinct samples."""
    return int(stable_id("rollout-seed", run_seed, task_id, index)[:8], 16) & 0x7FFFFFFF


def rollout_record(
    conv: Conversation, dataset: str, components: dict[str, Any], config_hash: str, verify: bool = True
) -> AgentRecord:
    """The record of a finished conversation, verified by the task's chain unless ``verify`` is off.

    ``components``: {"agent": describe(), "user": describe(), "model": {backend, model, ...} | None}.
    """
    task = conv.context.task
    key = stable_id(task.id, components["agent"], components["user"], components.get("model"), conv.index, conv.seed)
    generator = {
        "agent": components["agent"],
        "user": components["user"],
        **({"backend": components["model"]} if components.get("model") else {}),
        **({"sampling": conv.sampling.model_dump()} if conv.results else {}),
        "seed": conv.seed,
        "faults": conv.faults,
    }
    record = task.model_copy(
        update={
            "id": f"rollout-{key}",
            "trajectory": list(conv.steps),
            "verifier": task.verifier.model_copy(update={"result": None}),
            "source": Source(dataset=dataset, format=ROLLOUT_FORMAT, original_id=f"{task.id}/{conv.index}"),
            "lineage": Lineage(
                generator=generator,
                parents=[task.id],
                pipeline_version=task.lineage.pipeline_version,
                config_hash=config_hash,
                usage=usage_of(conv.results) if conv.results else {},
            ),
            "details": {
                **task.details,
                "end_reason": conv.end_reason,
                "rollout_index": conv.index,
                "leakage": conv.leakage,
                "agent_turns": conv.agent_turns,
                "tool_errors": conv.tool_errors,
                "tokens": conv.tokens,
                **({"error": conv.error_detail} if conv.error_detail else {}),
            },
        }
    )
    return apply_verification(record) if verify else record
