"""Pieces shared by the τ-bench formats (tau_bench, tau2_results, tau2_tasks).

τ-bench v1 trajectories are OpenAI chat messages (tool calls as
``{id, function: {name, arguments: JSON string}}``, results as ``role: tool``
with ``tool_call_id``); τ² messages carry flat calls ``{id, name, arguments:
dict}`` and results with ``id``. ``conversation_steps`` reads both. Every tool
result must answer a call made earlier in the same conversation.

In τ²'s dual-control domains (telecom) the simulated user acts on its own
device: a user message carries ``tool_calls`` and their results come back as
tool messages with ``requestor: "user"``. The agent never sees those calls, so
they are not agent actions: each becomes one TextObservation(source="user",
name=the tool, tool_call_id) whose content is the call and, once it arrives,
its result, as JSON ``{"tool_call": {name, arguments}, "result": ...}``.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from data_catalog.sources.base import ConversionError, each_object
from data_catalog.sources.chat_common import call_steps, parse_arguments
from data_catalog.sources.step_dicts import message, observation
from schemas.record import Task

# "# Airline Agent Policy" / "# Retail agent policy": the domain named by the policy's title.
_POLICY_TITLE = re.compile(r"\A\s*#\s*(\w+)\s+agent\s+policy", re.IGNORECASE)


def policy_domain(policy: str | None) -> str | None:
    match = _POLICY_TITLE.match(policy) if policy else None
    return match.group(1).lower() if match else None


def _text(msg: dict[str, Any], where: str) -> str:
    content = msg.get("content")
    if content is None:
        return ""
    if not isinstance(content, str):
        raise ConversionError(f"{where}: content is {type(content).__name__}, expected a string")
    return content


def _call(call: dict[str, Any], where: str) -> tuple[str, str, dict[str, Any]]:
    """(id, name, arguments) of one tool call in either the OpenAI or the τ² shape."""
    spec = call["function"] if isinstance(call.get("function"), dict) else call
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise ConversionError(f"{where} has no function name")
    call_id = call.get("id")
    if call_id in (None, ""):
        raise ConversionError(f"{where} ({name}) has no id")
    return str(call_id), name, parse_arguments(spec.get("arguments"), where)


def _assistant_steps(msg: dict[str, Any], where: str, calls: dict[str, str]) -> list:
    text = _text(msg, where)
    thought = msg.get("reasoning") or None
    raw_calls = msg.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise ConversionError(f"{where}: tool_calls is {type(raw_calls).__name__}, expected a list")
    if not raw_calls:
        return [message(text, thought)]
    return call_steps(text, thought, raw_calls, where, _call, calls.__setitem__)


def conversation_steps(messages: list[Any], field: str) -> list:
    """The steps of one τ / τ² conversation as step dicts (see step_dicts.py; the record's
    validation checks them); ``field`` names the message list in errors."""
    calls: dict[str, str] = {}  # the agent's calls: call id -> function name
    user_calls: dict[str, dict[str, Any]] = {}  # the user's calls: call id -> its observation step
    steps: list = []
    for where, msg in each_object(messages, field):
        role = msg.get("role")
        if role == "assistant":
            steps.extend(_assistant_steps(msg, where, calls))
        elif role == "user":
            text = _text(msg, where)
            raw_calls = msg.get("tool_calls") or []
            if text or not raw_calls:
                steps.append(observation(text, "user"))
            steps.extend(_user_calls(raw_calls, where, user_calls))
        elif role == "system":
            steps.append(observation(_text(msg, where), "system"))
        elif role == "tool" and isinstance(msg.get("tool_messages"), list):  # τ²'s MultiToolMessage
            for at, part in each_object(msg["tool_messages"], f"{where} tool_messages"):
                steps.extend(_tool_result(part, at, calls, user_calls))
        elif role == "tool":
            steps.extend(_tool_result(msg, where, calls, user_calls))
        else:
            raise ConversionError(f"{where}: unknown role {role!r}")
    return steps


def _user_calls(raw_calls: Any, where: str, user_calls: dict[str, dict[str, Any]]) -> list:
    if not isinstance(raw_calls, list):
        raise ConversionError(f"{where}: tool_calls is {type(raw_calls).__name__}, expected a list")
    steps = []
    for at, call in each_object(raw_calls, f"{where} tool_calls"):
        call_id, name, arguments = _call(call, at)
        content = orjson.dumps({"tool_call": {"name": name, "arguments": arguments}}).decode()
        step = observation(content, "user", name, call_id)
        user_calls[call_id] = step
        steps.append(step)
    return steps


def _tool_result(msg: dict[str, Any], where: str, calls: dict[str, str], user_calls: dict[str, dict[str, Any]]) -> list:
    call_id = msg.get("tool_call_id", msg.get("id"))
    call_id = None if call_id is None else str(call_id)
    if msg.get("requestor") == "user":  # the result joins the user's call in its observation
        step = user_calls.pop(call_id, None) if call_id is not None else None
        if step is None:
            raise ConversionError(
                f"{where}: user-side tool result for call id {call_id!r} answers no earlier user call"
            )
        outcome = {"result": _text(msg, where), **({"error": True} if msg.get("error") else {})}
        step["content"] = orjson.dumps({**orjson.loads(step["content"]), **outcome}).decode()
        return []
    if call_id is None or call_id not in calls:
        raise ConversionError(f"{where}: tool result for call id {call_id!r} answers no earlier call")
    return [observation(_text(msg, where), "tool", msg.get("name") or calls[call_id], call_id)]


_TAU2_TASK_KEYS = ("id", "user_scenario", "evaluation_criteria")


def tau2_task(task: Any, where: str = "task") -> tuple[Task, dict[str, Any], str | None]:
    """A τ² task definition as (q, its evaluation criteria, the domain its instructions name)."""
    if not isinstance(task, dict):
        raise ConversionError(f"{where} is {type(task).__name__}, expected an object")
    if task.get("id") in (None, ""):
        raise ConversionError(f"{where} has no id")
    scenario = task.get("user_scenario")
    if not isinstance(scenario, dict):
        raise ConversionError(f"{where} {task['id']!r}: user_scenario is {type(scenario).__name__}, expected an object")
    instructions = scenario.get("instructions")
    if isinstance(instructions, str):
        instruction, domain = instructions, None
    elif isinstance(instructions, dict):
        instruction, domain = instructions.get("reason_for_call") or "", instructions.get("domain")
    else:
        raise ConversionError(
            f"{where} {task['id']!r}: user_scenario.instructions is {type(instructions).__name__}, expected a string or an object"
        )
    criteria = task.get("evaluation_criteria")
    if criteria is not None and not isinstance(criteria, dict):
        raise ConversionError(
            f"{where} {task['id']!r}: evaluation_criteria is {type(criteria).__name__}, expected an object"
        )
    # description, ticket, initial_state, annotations, issues: kept as they are.
    metadata = {k: v for k, v in task.items() if k not in _TAU2_TASK_KEYS and v is not None}
    metadata["task_id"] = str(task["id"])
    return Task(instruction=instruction, user_scenario=scenario, metadata=metadata), criteria or {}, domain
