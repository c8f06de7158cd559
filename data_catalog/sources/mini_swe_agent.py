"""mini-swe-agent trajectories, in the layouts they are found in.

- mini-coder (the dataset): ``{id, instance_id, model, messages, patch, verified}``;
- mini-swe-agent's own save file (``<instance>.traj.json``): ``{info: {exit_status,
  submission, model_stats, config, mini_version}, messages, trajectory_format}``;
  the instance id is the file's name;
- a bare list of messages (a JSON array, or one list per JSONL line).

Messages:

- system -> TextObservation(source="system"); the first user turn is the task
  (q.instruction is its ``<pr_description>`` when it has one).
- assistant: ``THOUGHT: ...`` and exactly one command block -> CodeAction(bash)
  with the thought as reasoning; the block is ```` ```bash ```` (v1) or
  ```` ```mswea_bash_command ```` (v2); a ``<function=NAME>`` call with
  ``<parameter=...>`` values -> ApiAction (``bash`` -> CodeAction); native
  ``tool_calls`` (v2's tool-calling mode) -> CodeAction(bash) for its bash
  tool, else ApiAction, with the call id. A turn with no action or several is
  a MessageAction (mini-swe-agent rejects it).
- later user turns (``<returncode>`` / ``<output>``, format errors) ->
  TextObservation(source="environment"), kept as the agent saw them;
  ``tool`` turns (v2) -> TextObservation(source="tool") linked to their call.
- ``exit`` (v2's last message) is not a step: its exit status and submission go
  to details, like the save file's ``info.exit_status`` / ``info.submission``.
  A message's ``extra`` (mini-swe-agent's bookkeeping: parsed actions, the raw API
  response, cost, timestamps) is not stored; the run's totals are in lineage.usage.
- v: kind ``unit_tests`` when there is a verdict (mini-coder's ``verified``: the
  patch passed the tests), with the exit status as evidence; else kind ``none``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from data_catalog.sources.base import ConversionError, Converter, Detected, each_object, register
from data_catalog.sources.chat_common import (
    ORPHANS_OPTION,
    Calls,
    bare_messages,
    content_parts,
    keeps_orphans,
    parse_arguments,
)
from data_catalog.sources.step_dicts import SHELL_OPTIONS, call_step, code, message, observation, take_shell_options
from data_catalog.sources.text_actions import text_around
from data_catalog.sources.text_tool_calls import text_calls
from schemas.agent_identity import agent_identity
from schemas.record import AgentRecord

_COMMAND_BLOCK = re.compile(r"```(?:bash|mswea_bash_command)[ \t]*\n(.*?)\n?```", re.DOTALL)
_PR_DESCRIPTION = re.compile(r"<pr_description>(.*?)</pr_description>", re.DOTALL)
_THOUGHT = "THOUGHT:"
_SAVED_SUFFIXES = (".traj.json", ".traj", ".json")

_CONSUMED = ("id", "instance_id", "model", "messages", "patch", "verified")


_OWN_MARKS = ("```mswea_bash_command", "<returncode>", "```bash")


def _has_own_marks(messages: list[dict[str, Any]]) -> bool:
    """Whether messages carry what mini-swe-agent writes: its command blocks or its <returncode> observations."""
    return any(isinstance(m.get("content"), str) and any(mark in m["content"] for mark in _OWN_MARKS) for m in messages)


def _reasoning(text: str) -> str | None:
    return text.strip().removeprefix(_THOUGHT).lstrip() or None


def assistant_step(text: str) -> dict[str, Any]:
    """The one action of a text assistant turn (a command block or a <function=...> call), else a message."""
    blocks = list(_COMMAND_BLOCK.finditer(text))
    found = text_calls(text) if "<function=" in text else None
    calls = found[1] if found else []
    if len(blocks) + len(calls) != 1:
        return message(text)
    if blocks:
        block = blocks[0]
        return code("bash", block[1], _reasoning(text_around(text, block.start(), block.end())))
    prose, ((name, kwargs),) = found
    return call_step(name, kwargs, None, _reasoning(prose))


def _tool_call_steps(msg: dict[str, Any], text: str, where: str, calls: Calls) -> list:
    steps = []
    for at, call in each_object(msg["tool_calls"], f"{where} tool_calls"):
        function = call.get("function") if isinstance(call.get("function"), dict) else call
        name = function.get("name")
        if not isinstance(name, str):
            raise ConversionError(f"{at} has no function name")
        call_id = None if call.get("id") is None else str(call["id"])
        kwargs = parse_arguments(function.get("arguments"), at)
        calls.add(call_id, name)
        steps.append(call_step(name, kwargs, call_id, None if steps else _reasoning(text)))
    return steps


def message_steps(messages: list[Any], calls: Calls | None = None) -> tuple[list, str, dict[str, Any]]:
    """The steps of a mini-swe-agent conversation, its task text, and what its exit message says
    (``calls``: the calls so far, which says whether a result that answers none is kept)."""
    steps: list = []
    task = None
    exit_info: dict[str, Any] = {}
    calls = calls or Calls()
    for where, msg in each_object(messages, "messages"):
        role = msg.get("role")
        text, images = content_parts(msg.get("content"), where)
        if images:
            raise ConversionError(f"{where}: image content is not supported in mini_swe_agent")
        if role == "system":
            steps.append(observation(text, "system"))
        elif role == "user":
            steps.append(observation(text, "environment" if task is not None else "user"))
            task = text if task is None else task
        elif role == "assistant":
            steps.extend(_tool_call_steps(msg, text, where, calls) if msg.get("tool_calls") else [assistant_step(text)])
        elif role == "tool":
            call_id, name = calls.answer(None if msg.get("tool_call_id") is None else str(msg["tool_call_id"]), where)
            steps.append(observation(text, "tool", name, call_id))
        elif role == "exit":
            extra = msg.get("extra") if isinstance(msg.get("extra"), dict) else {}
            exit_info = {"exit_status": extra.get("exit_status") or text, "submission": extra.get("submission")}
        else:
            raise ConversionError(f"{where}: unknown role {role!r}")
    if task is None:
        raise ConversionError("messages have no user turn (the task)")
    description = _PR_DESCRIPTION.search(task)
    return steps, description[1].strip() if description else task, exit_info


def _saved_id(source: str) -> str | None:
    name = Path(source).name if source != "-" else ""
    return next((name[: -len(s)] for s in _SAVED_SUFFIXES if name.endswith(s)), None) or None


@register
class MiniSweAgentConverter(Converter):
    name = "mini_swe_agent"
    description = (
        "mini-swe-agent trajectories: THOUGHT + one bash block per turn as CodeAction, verified as unit-test verdict."
    )
    options = ORPHANS_OPTION
    layouts = (
        "mini-coder rows: {id, instance_id, model, messages, patch, verified}",
        "mini-swe-agent's save file <instance>.traj.json: {info: {exit_status, submission, ...}, messages, "
        "trajectory_format} (v1 ```bash blocks, v2 ```mswea_bash_command blocks or tool calls)",
        "a bare list of {role, content} messages",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if bare_messages(value):  # any chat's json.dump(messages) looks so: only mini-swe-agent's own marks say it is
            return (3, "a bare list of mini-swe-agent messages") if _has_own_marks(value) else None
        if not isinstance(value, dict) or not isinstance(value.get("messages"), list) or "task_id" in value:
            return None
        if "verified" in value or ("instance_id" in value and "patch" in value):
            return 3, "mini-coder row"
        if "trajectory_format" in value or (isinstance(value.get("info"), dict) and "exit_status" in value["info"]):
            return 3, "mini-swe-agent save file"
        return None

    def items(self, document: Any, source: str = "-") -> Iterable[Any]:
        if bare_messages(document):
            return [{"messages": document}]  # one conversation, not a list of records
        if isinstance(document, dict) and "trajectory_format" in document and (saved := _saved_id(source)):
            return [{"saved_as": saved, **document}]
        return super().items(document, source)

    def convert(self, raw: Any) -> AgentRecord:
        if not isinstance(raw, dict):
            raise ConversionError(f"record is {type(raw).__name__}, expected an object")
        if "messages" not in raw:
            raise ConversionError("missing field 'messages'")
        if not isinstance(raw["messages"], list):
            raise ConversionError(f"field 'messages' is {type(raw['messages']).__name__}, expected list")
        calls = Calls(keeps_orphans(self.opts.extra))
        steps, instruction, exit_info = message_steps(raw["messages"], calls)
        info = raw.get("info") if isinstance(raw.get("info"), dict) else {}
        original = raw.get("id") or raw.get("instance_id") or raw.get("saved_as")
        details = {k: v for k, v in raw.items() if k not in (*_CONSUMED, "saved_as", "info", "trajectory_format")}
        for key in ("instance_id", "patch"):
            if raw.get(key) is not None:
                details[key] = raw[key]
        for key in ("exit_status", "submission"):
            value = info.get(key) or exit_info.get(key)
            if value:
                details[key] = value
        details.update((k, v) for k, v in info.items() if k not in ("exit_status", "submission", "model_stats"))
        details.update(calls.note())
        if shell_options := take_shell_options(steps):
            details[SHELL_OPTIONS] = shell_options
        return AgentRecord.model_validate(
            {
                "id": self.record_id(original, raw),
                "environment": {"kind": "swe_repo"},
                "task": {"instruction": instruction},
                "trajectory": steps,
                "verifier": _verifier(raw.get("verified"), details.get("exit_status")),
                "source": {
                    "dataset": self.dataset,
                    "format": self.name,
                    "original_id": None if original in (None, "") else str(original),
                    "license": self.opts.license,
                    "agent": _agent(raw, info),
                },
                "lineage": {"usage": info.get("model_stats") or {}},
                "details": details,
            }
        )


def _verifier(verified: Any, exit_status: Any) -> dict[str, Any]:
    if verified is None:
        return {"kind": "none"}
    if not isinstance(verified, bool):
        raise ConversionError(f"field 'verified' is {type(verified).__name__}, expected bool")
    evidence = {"verified": verified, **({"exit_status": exit_status} if exit_status else {})}
    return {
        "kind": "unit_tests",
        "result": {"passed": verified, "score": float(verified), "evidence": evidence, "verifier": "swe-bench"},
    }


def _agent(raw: dict[str, Any], info: dict[str, Any]) -> dict[str, Any] | None:
    config = info.get("config") if isinstance(info.get("config"), dict) else {}
    model = config.get("model") if isinstance(config.get("model"), dict) else {}
    return agent_identity("mini-swe-agent", raw.get("model") or model.get("model_name"), info.get("mini_version"))
