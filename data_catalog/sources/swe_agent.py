"""SWE-agent trajectories: nebius's dataset (SWE-agent-trajectories) and SWE-agent's own ``.traj`` files.

nebius: ``{instance_id, model_name, target, exit_status, generated_patch, eval_logs,
trajectory: [{role: system|user|ai, text, system_prompt, ...}]}``.
SWE-agent's ``<instance>.traj``: ``{trajectory: [{action, observation, response, thought, ...}],
history: [{role: system|user|assistant|tool, content, message_type, tool_calls?, tool_call_ids?, is_demo?}],
info: {exit_status, submission, model_stats, ...}, replay_config?, environment?}``; its messages
are ``history`` (what the model saw; ``trajectory`` repeats the same steps), its id is the
instance id in ``replay_config`` or else the file's name.

- The system prompt stays as TextObservation(source="system"); the commands it
  declares (``COMMANDS:`` with docstring and typed arguments) become E's tools.
- The first user turn is the task (source "user"; q.instruction is its issue
  text); later user turns are terminal output (source "environment"); tool turns
  (function calling) are TextObservation(source="tool") linked to their call.
- An ``ai`` / ``assistant`` turn is a discussion plus one fenced command block. A
  declared command (open, goto, edit, find_file, search_dir, submit, ...) whose
  arguments fit its signature becomes ApiAction with typed kwargs (``edit``:
  start_line, end_line and the replacement text, indentation kept); anything
  else is what the shell ran: CodeAction(bash). The discussion is the reasoning.
  With function calling, each tool call is an ApiAction (``bash`` -> CodeAction)
  carrying its id. A turn without a command is a MessageAction.
- v: kind ``unit_tests`` when there is a verdict (nebius's ``target``: the patch
  resolved the issue); a ``.traj`` has none (kind ``none``). Patch, eval logs,
  exit status and submission go to details.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

from data_catalog.sources.base import ConversionError, Converter, Detected, each_object, register, require
from data_catalog.sources.chat_common import Calls, parse_arguments
from data_catalog.sources.instructions import without_demonstration
from data_catalog.sources.step_dicts import shell_command
from data_catalog.sources.swe_agent_commands import Signature, command_action, parse_commands, split_command_block
from schemas.agent_identity import agent_identity
from schemas.record import AgentRecord, Environment, Source, Task, Tool, Verifier, VerifierResult
from schemas.steps import ApiAction, CodeAction, MessageAction, TextObservation

_ISSUE = re.compile(r"ISSUE:\n(.*?)\n+INSTRUCTIONS:", re.DOTALL)
_PR_DESCRIPTION = re.compile(r"<pr_description>(.*?)</pr_description>", re.DOTALL)

_CONSUMED = ("instance_id", "model_name", "target", "trajectory", "exit_status", "generated_patch", "eval_logs")


def _text(turn: dict[str, Any], key: str, where: str) -> str:
    value = turn.get(key)
    if not isinstance(value, str):
        raise ConversionError(f"{where}: {key} is {type(value).__name__}, expected a string")
    return value


def trajectory_steps(turns: list[Any]) -> tuple[list, list[Tool], str]:
    """Steps, declared tools and the task text of a SWE-agent trajectory."""
    steps: list = []
    signatures: dict[str, Signature] = {}
    tools: list[Tool] = []
    task = None
    for where, turn in each_object(turns, "trajectory"):
        role = turn.get("role")
        if role == "system":
            prompt = _text(turn, "system_prompt" if turn.get("system_prompt") is not None else "text", where)
            signatures, tools = parse_commands(prompt)
            steps.append(TextObservation(content=prompt, source="system"))
        elif role == "user":
            text = _text(turn, "text", where)
            steps.append(TextObservation(content=text, source="environment" if task is not None else "user"))
            task = (without_demonstration(text) or None) if task is None else task
        elif role == "ai":
            text = _text(turn, "text", where)
            block = split_command_block(text)
            steps.append(
                MessageAction(content=text) if block is None else command_action(block[1], block[0] or None, signatures)
            )
        else:
            raise ConversionError(f"{where}: unknown role {role!r}")
    if task is None:
        raise ConversionError("trajectory has no user turn (the task)")
    return steps, tools, _issue_text(task)


def _content(turn: dict[str, Any], where: str) -> str:
    content = turn.get("content")
    if isinstance(content, list):  # parts, as SWE-agent 1.x writes them for caching
        return "\n".join(p.get("text") or "" for p in content if isinstance(p, dict) and p.get("type") == "text")
    if not isinstance(content, str):
        raise ConversionError(f"{where}: content is {type(content).__name__}, expected a string or a list of parts")
    return content


def _function_calls(turn: dict[str, Any], where: str, text: str, calls: Calls) -> list:
    """A function-calling turn: one action per call; the turn's text (or thought) is the first one's reasoning."""
    steps: list = []
    for at, call in each_object(turn["tool_calls"], f"{where} tool_calls"):
        function = call.get("function") if isinstance(call.get("function"), dict) else {}
        name = function.get("name")
        if not isinstance(name, str):
            raise ConversionError(f"{at} has no function name")
        call_id = None if call.get("id") is None else str(call["id"])
        kwargs = parse_arguments(function.get("arguments"), at)
        calls.add(call_id, name)
        reasoning = None if steps else (turn.get("thought") or text or None)
        shell = shell_command(name, kwargs)
        if shell is not None and not shell[1]:  # SWE-agent's bash tool takes the command alone
            steps.append(CodeAction(language="bash", content=shell[0], tool_call_id=call_id, reasoning=reasoning))
        else:
            steps.append(ApiAction(function=name, kwargs=kwargs, tool_call_id=call_id, reasoning=reasoning))
    return steps


def history_steps(history: list[Any]) -> tuple[list, list[Tool], str]:
    """Steps, declared tools and the task text of a SWE-agent ``.traj`` history."""
    steps: list = []
    signatures: dict[str, Signature] = {}
    tools: list[Tool] = []
    task = None
    calls = Calls()
    for where, turn in each_object(history, "history"):
        role = turn.get("role")
        text = _content(turn, where)
        if role == "system":
            signatures, tools = parse_commands(text)
            steps.append(TextObservation(content=text, source="system"))
        elif role == "user":
            steps.append(TextObservation(content=text, source="environment" if task is not None else "user"))
            task = (without_demonstration(text) or None) if task is None and not turn.get("is_demo") else task
        elif role == "assistant" and turn.get("tool_calls"):
            steps.extend(_function_calls(turn, where, text, calls))
        elif role == "assistant":
            block = split_command_block(text)
            steps.append(
                MessageAction(content=text) if block is None else command_action(block[1], block[0] or None, signatures)
            )
        elif role == "tool":
            ids = turn.get("tool_call_ids") or [None]
            call_id, name = calls.answer(None if ids[0] is None else str(ids[0]), where)
            steps.append(TextObservation(content=text, source="tool", name=name, tool_call_id=call_id))
        else:
            raise ConversionError(f"{where}: unknown role {role!r}")
    if task is None:
        raise ConversionError("history has no user turn (the task)")
    return steps, tools, _issue_text(task)


def _issue_text(task: str) -> str:
    issue = _ISSUE.search(task) or _PR_DESCRIPTION.search(task)
    return issue[1].strip() if issue else task


def _replay_instance_id(raw: dict[str, Any]) -> str | None:
    """The instance id in a ``.traj``'s replay_config (a JSON string of the run's config)."""
    config = raw.get("replay_config")
    if isinstance(config, str):
        try:
            config = orjson.loads(config)
        except orjson.JSONDecodeError:
            return None
    statement = config.get("problem_statement") if isinstance(config, dict) else None
    found = statement.get("id") if isinstance(statement, dict) else None
    return found if isinstance(found, str) and found else None


@register
class SweAgentConverter(Converter):
    name = "swe_agent"
    description = (
        "SWE-agent trajectories: commands as ApiAction, shell as CodeAction(bash), a verdict as unit-test result."
    )
    layouts = (
        "nebius SWE-agent-trajectories rows: {instance_id, model_name, target, exit_status, generated_patch, "
        "eval_logs, trajectory: [{role: system|user|ai, text}]}",
        "SWE-agent's own <instance>.traj: {trajectory, history: [{role, content, tool_calls?}], info, replay_config?}",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if not isinstance(value, dict):
            return None
        if isinstance(value.get("trajectory"), list) and "instance_id" in value and "target" in value:
            return 3, "nebius SWE-agent-trajectories row"
        if isinstance(value.get("history"), list) and ("info" in value or "trajectory" in value):
            return 3, "SWE-agent .traj file"
        return None

    def items(self, document: Any, source: str = "-") -> Iterable[Any]:
        if isinstance(document, dict) and "history" in document and source != "-":
            return [{"saved_as": _saved_name(source), **document}]
        return super().items(document, source)

    def convert(self, raw: Any) -> AgentRecord:
        if isinstance(raw, dict) and "history" in raw and "instance_id" not in raw:
            return self._native(raw)
        instance_id = require(raw, "instance_id", str)
        target = require(raw, "target", bool)
        steps, tools, instruction = trajectory_steps(require(raw, "trajectory", list))
        exit_status = raw.get("exit_status")
        details = {k: raw[k] for k in ("exit_status", "generated_patch", "eval_logs") if raw.get(k) is not None}
        details.update((k, v) for k, v in raw.items() if k not in _CONSUMED)
        verdict = VerifierResult(
            passed=target,
            score=float(target),
            evidence={"resolved": target, "exit_status": exit_status},
            verifier="swe-bench",
        )
        return self._record(raw, instance_id, steps, tools, instruction, raw.get("model_name"), details, verdict)

    def _native(self, raw: dict[str, Any]) -> AgentRecord:
        steps, tools, instruction = history_steps(require(raw, "history", list))
        info = raw.get("info") if isinstance(raw.get("info"), dict) else {}
        original = _replay_instance_id(raw) or raw.get("saved_as")
        details = {k: v for k, v in info.items() if k != "model_stats" and v not in (None, "")}
        details.update((k, v) for k, v in raw.items() if k not in ("history", "trajectory", "info", "saved_as"))
        usage = info.get("model_stats") if isinstance(info.get("model_stats"), dict) else {}
        record = self._record(raw, original, steps, tools, instruction, None, details, None)
        record.lineage.usage = usage
        return record

    def _record(self, raw, original, steps, tools, instruction, model, details, verdict) -> AgentRecord:
        return AgentRecord(
            id=self.record_id(original, raw),
            environment=Environment(kind="swe_repo", tools=tools),
            task=Task(instruction=instruction),
            trajectory=steps,
            verifier=Verifier(kind="unit_tests", result=verdict) if verdict else Verifier(),
            source=Source(
                dataset=self.dataset,
                format=self.name,
                original_id=original,
                license=self.opts.license,
                agent=agent_identity("swe-agent", model),
            ),
            details=details,
        )


def _saved_name(source: str) -> str:
    name = Path(source).name
    return name[: -len(".traj")] if name.endswith(".traj") else Path(name).stem
