"""What the synthesis tests share: replaying a task's gold actions the way a rollout records them."""

from __future__ import annotations

from environments.registry import get_environment
from schemas.record import AgentRecord
from schemas.steps import ApiAction, MessageAction, TextObservation
from verifiers.initial_state import build_environment
from verifiers.runner import verify_record


def rollout_of(task: AgentRecord, actions: list[dict] | None = None, reply: str | None = None) -> AgentRecord:
    """The task with τ = its instruction, ``actions`` (default: the gold actions) with the results a fresh world
    answers, and ``reply`` (default: the gold reply), built from the record alone."""
    env = build_environment(task.environment, get_environment)
    steps: list = [TextObservation(content=task.task.instruction, source="user")]
    gold = task.task.expected_outputs
    for index, action in enumerate(gold["gold_actions"] if actions is None else actions):
        call_id = f"call_{index}"
        steps.append(ApiAction(function=action["name"], kwargs=action["arguments"], tool_call_id=call_id))
        result = env.call(action["name"], action["arguments"]).as_text()
        steps.append(TextObservation(content=result, source="tool", tool_call_id=call_id))
    steps.append(MessageAction(content=gold["gold_reply"] if reply is None else reply))
    return task.model_copy(update={"trajectory": steps})


def gold_verdict(task: AgentRecord):
    return verify_record(rollout_of(task))


def references(task: AgentRecord) -> list[dict]:
    meta = task.task.metadata
    return [*meta["identity"]["references"], *(ref for goal in meta["goals"] for ref in goal["references"])]
