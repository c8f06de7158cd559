"""smolagents runs: the agent's memory steps, or the messages it wrote them as (benchmark runs).

Layouts:

- memory steps (``agent.memory.get_full_steps()`` / ``get_succinct_steps()``, a JSON array, or
  ``{system_prompt, steps}``): a task step ``{task}``; action steps ``{step_number, model_output,
  tool_calls: [{id, type, function: {name, arguments}}], observations, error, token_usage, ...}``;
  planning steps ``{plan}``; a final answer step ``{output}``;
- messages (``agent.write_memory_to_messages()``: a benchmark run's ``intermediate_steps``, in a
  row ``{model_id, agent_action_type, question, answer, true_answer, intermediate_steps, ...}``, or
  a bare list): roles ``system``, ``user``, ``assistant``, ``tool-call`` (its text: ``Calling
  tools:`` and the calls as a Python literal) and ``tool-response`` (``Observation:`` or
  ``Call id: ...`` + ``Error:``).

Mapping: the model's output before a call is the call's reasoning; a ``python_interpreter`` call
(every CodeAgent step) is CodeAction(python) of its code, another tool's call an ApiAction (a shell
tool's: CodeAction(bash)); observations and errors are the tool observation linked to the step's
call; a plan or an output with no call is a MessageAction; the final answer step is the last
MessageAction. A benchmark row's question is q, its ``true_answer`` the expected output, its
``answer`` kept in details; source.agent is smolagents and its ``model_id``, the agent type is
lineage.generator.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from data_catalog.sources.base import ConversionError, Detected, each_object, register
from data_catalog.sources.chat_common import ORPHANS_OPTION, Calls, ChatConverter, chat_data, keeps_orphans
from data_catalog.sources.step_dicts import call_step, code, message, observation
from schemas.agent_identity import agent_identity

_ROLES = frozenset({"system", "user", "assistant", "tool-call", "tool-response"})
_CALLING = "Calling tools:\n"
_CALL_ID = re.compile(r"\ACall id: ([^\n]*)\n")
_OBSERVATION = "Observation:\n"
_PYTHON = "python_interpreter"
_ROW = ("intermediate_steps", "agent_action_type")


def _text(content: Any) -> str:
    if content is None or isinstance(content, str):
        return content or ""
    return "\n".join(
        part.get("text") or "" for part in content if isinstance(part, dict) and part.get("type") == "text"
    )


def _is_messages(value: Any) -> bool:
    return (
        isinstance(value, list) and bool(value) and all(isinstance(m, dict) and m.get("role") in _ROLES for m in value)
    )


def _is_steps(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(s, dict) for s in value)
        and any("step_number" in s and "tool_calls" in s for s in value)
    )


def _summed_usage(steps: list[Any]) -> dict[str, int]:
    """The run's tokens: each action and planning step's ``token_usage``, summed."""
    totals: dict[str, int] = {}
    for step in steps:
        usage = step.get("token_usage") if isinstance(step, dict) else None
        for key, value in (usage or {}).items():
            if isinstance(value, int):
                totals[key] = totals.get(key, 0) + value
    return totals


class _Run:
    def __init__(self, keep_orphans: bool) -> None:
        self.steps: list[dict[str, Any]] = []
        self.calls = Calls(keep_orphans)

    def act(self, calls: list[Any], thought: str | None, where: str) -> None:
        """A step's tool calls, the model's output before them as the first one's reasoning."""
        for at, call in each_object(calls, f"{where} tool_calls"):
            function = call.get("function") if isinstance(call.get("function"), dict) else call
            name, call_id, arguments = function.get("name"), call.get("id"), function.get("arguments")
            if not isinstance(name, str):
                raise ConversionError(f"{at} has no function name")
            self.calls.add(call_id, name)
            if name == _PYTHON and isinstance(arguments, str):
                self.steps.append(code("python", arguments, thought, call_id))
            else:
                kwargs = arguments if isinstance(arguments, dict) else {"input": arguments}
                self.steps.append(call_step(name, kwargs, call_id, thought))
            thought = None

    def result(self, text: str, call_id: str | None, where: str) -> None:
        answered, name = self.calls.answer(call_id, where) if self.calls.unanswered or call_id else (None, None)
        self.steps.append(observation(text, "tool" if answered or name else "environment", name, answered))

    def memory_step(self, step: dict[str, Any], where: str) -> None:
        if "task" in step:
            self.steps.append(observation(str(step["task"]), "user"))
        elif "system_prompt" in step:
            self.steps.append(observation(str(step["system_prompt"]), "system"))
        elif "plan" in step:
            self.steps.append(message(str(step["plan"])))
        elif "step_number" in step:
            thought = (step.get("model_output") or "").strip() or None
            if step.get("tool_calls"):
                self.act(step["tool_calls"], thought, where)
            elif thought:
                self.steps.append(message(thought))
            first = (step.get("tool_calls") or [{}])[0].get("id")
            if step.get("observations") is not None:
                self.result(step["observations"], first, where)
            if isinstance(step.get("error"), dict):
                self.result(f"Error:\n{step['error'].get('message')}", first, where)
        elif "output" in step:
            self.steps.append(message(str(step["output"])))
        else:
            raise ConversionError(f"{where}: not a smolagents memory step (keys {sorted(step)[:6]})")

    def chat_message(self, msg: dict[str, Any], where: str, pending: list[str]) -> None:
        role, text = msg.get("role"), _text(msg.get("content"))
        if role == "assistant":
            pending.append(text)
            return
        if pending and role != "tool-call":
            self.steps.append(message(pending.pop()))
        if role in ("system", "user"):
            self.steps.append(observation(text, role))
        elif role == "tool-call":
            if not text.startswith(_CALLING):
                raise ConversionError(f"{where}: a tool-call message that does not say 'Calling tools:'")
            try:
                calls = ast.literal_eval(text[len(_CALLING) :])
            except (ValueError, SyntaxError) as exc:
                raise ConversionError(f"{where}: the calls are not a Python literal ({exc})") from None
            self.act(calls if isinstance(calls, list) else [calls], pending.pop() if pending else None, where)
        elif role == "tool-response":
            call_id = _CALL_ID.match(text)
            text = text[call_id.end() :] if call_id else text
            self.result(text.removeprefix(_OBSERVATION), call_id[1] if call_id else None, where)
        else:
            raise ConversionError(f"{where}: unknown role {role!r}")


@register
class SmolagentsConverter(ChatConverter):
    name = "smolagents"
    description = "smolagents runs: memory steps, or their messages (roles tool-call / tool-response; benchmark rows)."
    options = ORPHANS_OPTION
    layouts = (
        "memory steps: [{task} | {step_number, model_output, tool_calls, observations, error} | {plan} | {output}], "
        "or {system_prompt, steps}",
        "a benchmark row {model_id, agent_action_type, question, answer, true_answer, intermediate_steps: "
        "[{role: system | user | assistant | tool-call | tool-response, content}]}, or a bare list of such messages",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if isinstance(value, dict) and all(k in value for k in _ROW):
            return 3, "smolagents benchmark row"
        if (isinstance(value, dict) and _is_steps(value.get("steps"))) or _is_steps(value):
            return 3, "smolagents memory steps"
        if _is_messages(value) and any(m["role"] in ("tool-call", "tool-response") for m in value):
            return 3, "smolagents messages"
        return None

    def items(self, document: Any, source: str = "-") -> list[Any]:
        if _is_steps(document):
            return [{"steps": document}]
        if _is_messages(document):
            return [{"intermediate_steps": document}]
        return list(super().items(document, source))

    def record_data(self, raw: Any) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raw = {"steps": raw} if _is_steps(raw) else {"intermediate_steps": raw}
        run = _Run(keeps_orphans(self.opts.extra))
        if isinstance(raw.get("steps"), list):
            if raw.get("system_prompt"):
                run.steps.append(observation(str(raw["system_prompt"]), "system"))
            for where, step in each_object(raw["steps"], "steps"):
                run.memory_step(step, where)
        else:
            pending: list[str] = []
            for where, msg in each_object(raw.get("intermediate_steps") or [], "intermediate_steps"):
                run.chat_message(msg, where, pending)
            run.steps.extend(message(text) for text in pending)
        consumed = (
            "steps",
            "system_prompt",
            "intermediate_steps",
            "question",
            "true_answer",
            "model_id",
            "agent_action_type",
            "token_counts",
        )
        data = chat_data(self, raw, run.steps, [], consumed, run.calls.note())
        if isinstance(raw.get("question"), str):
            data["task"]["instruction"] = raw["question"]
        else:  # the task as the agent's memory writes it to the model
            data["task"]["instruction"] = data["task"]["instruction"].removeprefix("New task:\n")
        if raw.get("true_answer") is not None:
            data["task"]["expected_outputs"] = {"true_answer": raw["true_answer"]}
        data["source"]["agent"] = agent_identity("smolagents", raw.get("model_id"))
        agent_type = raw.get("agent_action_type")
        data["lineage"] = {
            "generator": {"agent_type": agent_type} if agent_type else None,
            "usage": raw.get("token_counts") or _summed_usage(raw.get("steps") or []),
        }
        return data
