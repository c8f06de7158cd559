"""Read a trajectory as tool calls and their results, the way the verifiers need it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from schemas.steps import ApiAction, CodeAction, MessageAction, TextObservation

_CODE_BLOCK = re.compile(r"```(?:python|py)?\s*\n(.*?)```", re.DOTALL)


@dataclass
class CallPair:
    """One tool call and the observation that answered it (None when unanswered)."""

    step: int
    call: ApiAction
    result_step: int | None = None
    result: TextObservation | None = None


def is_tool_result(step) -> bool:
    return isinstance(step, TextObservation) and step.source == "tool"


def pair_calls(trajectory: list) -> tuple[list[CallPair], list[int]]:
    """Match every ApiAction with its tool result; also return the indexes of results that answer nothing.

    A result answers the open call with the same ``tool_call_id``; a result
    without an id answers the oldest open call that has no id either (data
    converted from formats without call ids).
    """
    pairs: list[CallPair] = []
    open_by_id: dict[str, CallPair] = {}
    open_without_id: list[CallPair] = []
    orphans: list[int] = []
    for index, step in enumerate(trajectory):
        if isinstance(step, ApiAction):
            pair = CallPair(index, step)
            pairs.append(pair)
            if step.tool_call_id is None:
                open_without_id.append(pair)
            else:
                open_by_id[step.tool_call_id] = pair
        elif is_tool_result(step):
            if step.tool_call_id is not None:
                pair = open_by_id.pop(step.tool_call_id, None)
            else:
                pair = open_without_id.pop(0) if open_without_id else None
            if pair is None:
                orphans.append(index)
            else:
                pair.result_step, pair.result = index, step
    return pairs, orphans


def call_pairs(ctx) -> tuple[list[CallPair], list[int]]:
    """``pair_calls`` of a CheckContext's record, once per record (ctx.memo): structure and replay both read it.
    Read only."""
    if "call_pairs" not in ctx.memo:
        ctx.memo["call_pairs"] = pair_calls(ctx.record.trajectory)
    return ctx.memo["call_pairs"]


def agent_messages(trajectory: list) -> list[str]:
    return [step.content for step in trajectory if isinstance(step, MessageAction)]


def final_answer(trajectory: list) -> str | None:
    """The agent's last message, the conventional place of a final answer."""
    messages = agent_messages(trajectory)
    return messages[-1] if messages else None


def submitted_code(trajectory: list, submit_tool: str = "submit_solution") -> str | None:
    """The solution of a code task: last submit call, else last python code action, else last code block."""
    for step in reversed(trajectory):
        if isinstance(step, ApiAction) and step.function == submit_tool and isinstance(step.kwargs.get("code"), str):
            return step.kwargs["code"]
    for step in reversed(trajectory):
        if isinstance(step, CodeAction) and step.language.lower() in ("python", "py", "python3"):
            return step.content
    for step in reversed(trajectory):
        if isinstance(step, MessageAction):
            blocks = _CODE_BLOCK.findall(step.content)
            if blocks:
                return blocks[-1]
    return None
