"""Literal records for the curation tests: a small tool world's E, tasks, rollouts, converted chats."""

from __future__ import annotations

from typing import Any

from schemas.record import AgentRecord, Environment, Lineage, Source, Task, Tool, Verifier, VerifierResult
from schemas.steps import ApiAction, MessageAction, TextObservation

TOOLS = [
    Tool(
        name="get_order",
        parameters={"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
        access="read",
    ),
    Tool(
        name="cancel_order",
        parameters={
            "type": "object",
            "properties": {"order_id": {"type": "string"}, "reason": {"type": "string"}},
            "required": ["order_id", "reason"],
        },
        access="write",
    ),
]
SHOP = Environment(kind="tool_world", name="shop", tools=TOOLS)


def verdict(passed: bool | None, score: float | None = None, origin: str | None = "computed") -> Verifier:
    """v as aceforge's chain leaves it (``origin`` computed, or undecided without a verdict); ``origin=None``:
    as a converter imports it from the source."""
    result = VerifierResult(
        passed=passed,
        score=score if score is not None else (None if passed is None else float(passed)),
        origin=("undecided" if passed is None else origin) if origin else None,
    )
    return Verifier(kind="constraints", result=result)


def cancel_steps(order_id: str, reason: str = "no longer needed", user: str | None = None) -> list:
    """A user asks, the agent reads the order, cancels it and says so."""
    return [
        TextObservation(content=user or f"Please cancel order {order_id}, I {reason}.", source="user"),
        ApiAction(function="get_order", kwargs={"order_id": order_id}, tool_call_id="c1"),
        TextObservation(content=f'{{"order_id": "{order_id}", "status": "pending"}}', source="tool", tool_call_id="c1"),
        ApiAction(function="cancel_order", kwargs={"order_id": order_id, "reason": reason}, tool_call_id="c2"),
        TextObservation(
            content=f'{{"order_id": "{order_id}", "status": "cancelled"}}', source="tool", tool_call_id="c2"
        ),
        MessageAction(content=f"Order {order_id} is cancelled."),
    ]


def cancel_constraints(order_id: str) -> list[dict[str, Any]]:
    return [{"id": "g0", "check": "state_equals", "path": f"orders.{order_id}.status", "value": "cancelled"}]


def trajectory_record(
    record_id: str,
    order_id: str = "W1",
    instruction: str | None = None,
    passed: bool | None = True,
    dataset: str = "unit",
    **steps_args: Any,
) -> AgentRecord:
    return AgentRecord(
        id=record_id,
        environment=SHOP,
        task=Task(instruction=instruction or f"Cancel order {order_id}.", constraints=cancel_constraints(order_id)),
        trajectory=cancel_steps(order_id, **steps_args),
        verifier=verdict(passed),
        source=Source(dataset=dataset, format="literal"),
    )


def task_record(record_id: str, order_id: str = "W1", instruction: str | None = None) -> AgentRecord:
    gold = [
        {"name": "get_order", "arguments": {"order_id": order_id}},
        {"name": "cancel_order", "arguments": {"order_id": order_id, "reason": "no longer needed"}},
    ]
    return AgentRecord(
        id=record_id,
        environment=SHOP,
        task=Task(
            instruction=instruction or f"Cancel order {order_id}.",
            constraints=cancel_constraints(order_id),
            expected_outputs={"gold_actions": gold, "outcome": "write"},
        ),
        verifier=Verifier(kind="constraints"),
        source=Source(dataset="tasks", format="synth_tasks"),
    )


def rollout_of(task: AgentRecord, index: int, passed: bool | None, policy: str = "teacher") -> AgentRecord:
    """A rollout of ``task`` as generators/rollouts records one: parent task id, rollout_index, a verdict, and
    the id of the policy that made it (lineage.config_hash)."""
    order_id = task.task.constraints[0]["path"].split(".")[1]
    return task.model_copy(
        update={
            "id": f"{task.id}-r{index}",
            "trajectory": cancel_steps(order_id),
            "verifier": verdict(passed),
            "lineage": Lineage(parents=[task.id], config_hash=policy),
            "details": {"rollout_index": index, "end_reason": "done"},
            "source": Source(dataset="rollouts", format="synth_rollouts"),
        }
    )


def chat_record(record_id: str, question: str, answer: str, dataset: str = "chat") -> AgentRecord:
    """A converted chat with no verifier: unverified."""
    return AgentRecord(
        id=record_id,
        trajectory=[TextObservation(content=question, source="user"), MessageAction(content=answer)],
        source=Source(dataset=dataset, format="openai_chat"),
    )


def half_way_rollout(task: AgentRecord, index: int, policy: str = "smol") -> AgentRecord:
    """A failed rollout of ``task`` whose only failed checks are the outcome ones and that reached one of the gold
    end state's two rows, as the chain records it: its reward (verifiers/reward.py) is 0.5 x 1/2 = 0.25."""
    stages = [
        {"verifier": "final_state", "passed": False},
        {"verifier": "constraints", "passed": False},
        {"verifier": "grounding", "passed": True},
    ]
    evidence = {"stages": stages, "final_state": {"gold_rows": ["orders.W1", "users.u1"], "missing": ["orders.W1"]}}
    rollout = rollout_of(task, index, False, policy)
    rollout.verifier.result = VerifierResult(passed=False, score=0.5, origin="computed", evidence=evidence)
    return rollout
