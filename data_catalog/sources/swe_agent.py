"""SWE-agent trajectories as published by nebius (SWE-agent-trajectories).

Raw: ``{instance_id, model_name, target, exit_status, generated_patch, eval_logs,
trajectory: [{role: system|user|ai, text, system_prompt, ...}]}``.

- The system prompt stays as TextObservation(source="system"); the commands it
  declares (``COMMANDS:`` with docstring and typed arguments) become E's tools.
- The first user turn is the task (source "user"; q.instruction is its issue
  text); later user turns are terminal output (source "environment").
- An ``ai`` turn is a discussion plus one fenced command block. A declared
  command (open, goto, edit, find_file, search_dir, submit, ...) whose
  arguments fit its signature becomes ApiAction with typed kwargs (``edit``:
  start_line, end_line and the replacement text, indentation kept); anything
  else is what the shell ran: CodeAction(bash). The discussion is the reasoning.
  A turn without a command block is a MessageAction.
- v: kind ``unit_tests``; ``target`` (the patch resolved the issue) is ``passed``.
  Patch, eval logs and exit status go to details.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from data_catalog.sources.base import ConversionError, Converter, each_object, register, require
from data_catalog.sources.text_actions import text_around
from schemas.record import AgentRecord, Environment, Lineage, Source, Task, Tool, Verifier, VerifierResult, record_id
from schemas.steps import ApiAction, CodeAction, MessageAction, TextObservation

_COMMAND_HEADER = re.compile(r"^(\w+):\n  docstring: (.*)$", re.MULTILINE)
_ARGUMENT = re.compile(r"^    - (\w+) \((\w+)\) \[(required|optional)\]: (.*)$", re.MULTILINE)
_EDIT_RANGE = re.compile(r"edit\s+(\d+):(\d+)\s*")
# Shell words that are bare or wholly quoted, without escapes, separated by whitespace.
_WORD = re.compile(r"""(?:"([^"\\]*)"|'([^'\\]*)'|([^\s"'\\]+))(?:\s+|$)""")
_SIMPLE_WORDS = re.compile(r"""(?:(?:"[^"\\]*"|'[^'\\]*'|[^\s"'\\]+)(?:\s+|$))*""")
_ISSUE = re.compile(r"ISSUE:\n(.*?)\n+INSTRUCTIONS:", re.DOTALL)

_CONSUMED = ("instance_id", "model_name", "target", "trajectory", "exit_status", "generated_patch", "eval_logs")


class Signature:
    """A declared command: argument names in order, their JSON types, how many are required."""

    def __init__(self, args: list[tuple[str, str, bool]]):
        self.names = [name for name, _, _ in args]
        self.integers = {name for name, kind, _ in args if kind == "integer"}
        self.required = sum(1 for _, _, required in args if required)


@lru_cache(maxsize=16)  # every trajectory of a run repeats the same long prompt: parse it once
def parse_commands(system_prompt: str) -> tuple[dict[str, Signature], list[Tool]]:
    """The commands a SWE-agent system prompt declares, as signatures and as tools."""
    start = system_prompt.find("COMMANDS:")
    if start < 0:
        return {}, []
    headers = list(_COMMAND_HEADER.finditer(system_prompt, start))
    signatures: dict[str, Signature] = {}
    tools = []
    for i, header in enumerate(headers):
        end = headers[i + 1].start() if i + 1 < len(headers) else len(system_prompt)
        args = [(m[1], m[2], m[3] == "required") for m in _ARGUMENT.finditer(system_prompt, header.end(), end)]
        descriptions = {m[1]: m[4] for m in _ARGUMENT.finditer(system_prompt, header.end(), end)}
        name = header[1]
        signatures[name] = Signature(args)
        properties = {a: {"type": kind, "description": descriptions[a]} for a, kind, _ in args}
        parameters = {"type": "object", "properties": properties, "required": [a for a, _, req in args if req]}
        tools.append(Tool(name=name, description=header[2], parameters=parameters))
    return signatures, tools


def _fence_lines(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end of line, language) of each line that is a fence: "```" or "```lang"."""
    at = text.find("```")
    while at >= 0:
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        language = text[at + 3 : end].rstrip(" \t")
        if (at == 0 or text[at - 1] == "\n") and (not language or language.split()[0] == language):
            yield at, end, language
        at = text.find("```", at + 3)


def split_command_block(text: str) -> tuple[str, str] | None:
    """(discussion, command) of an ai turn: the last complete top-level fenced block is the command.

    A fence with a language always opens a block, so a block the command writes
    (an edit of a README with ```python inside) does not end the command early.
    """
    depth, opening, last = 0, (0, 0), None
    for fence in _fence_lines(text):
        if fence[2] or depth == 0:
            if depth == 0:
                opening = fence
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                last = (opening, fence)
    if last is None:
        return None
    (open_at, open_end, _), (close_at, close_end, _) = last
    command = text[open_end + 1 : close_at].rstrip("\n")
    discussion = text_around(text, open_at, close_end)
    if discussion.startswith("DISCUSSION"):
        discussion = discussion[len("DISCUSSION") :].lstrip()
    return discussion, command


def _edit(command: str) -> dict[str, Any] | None:
    first, _, body = command.partition("\n")
    match = _EDIT_RANGE.fullmatch(first)
    if match is None or not (body == "end_of_edit" or body.endswith("\nend_of_edit")):
        return None
    replacement = body[: -len("end_of_edit")].removesuffix("\n")
    return {"start_line": int(match[1]), "end_line": int(match[2]), "replacement_text": replacement}


def _split_args(command: str) -> list[str] | None:
    """The shell words after the command name; None when the quoting is unbalanced."""
    parts = command.split(None, 1)
    rest = parts[1] if len(parts) > 1 else ""
    if _SIMPLE_WORDS.fullmatch(rest):  # the common case, far cheaper than shlex
        return [a or b or c for a, b, c in _WORD.findall(rest)]
    try:
        return shlex.split(command)[1:]
    except ValueError:  # unbalanced quotes: the shell would have failed too
        return None


def _kwargs(command: str, signature: Signature) -> dict[str, Any] | None:
    """Positional arguments by the signature's names, or None when they do not fit it."""
    if "\n" in command:
        return None
    args = _split_args(command)
    if args is None:
        return None
    if not signature.required <= len(args) <= len(signature.names):
        return None
    return {
        name: int(value) if name in signature.integers and value.isdigit() else value
        for name, value in zip(signature.names, args)
    }


def command_action(command: str, reasoning: str | None, signatures: dict[str, Signature]) -> ApiAction | CodeAction:
    name = command.split(None, 1)[0] if command.strip() else ""
    signature = signatures.get(name)
    if signature is not None:
        kwargs = _edit(command) if name == "edit" else _kwargs(command, signature)
        if kwargs is not None:
            return ApiAction(function=name, kwargs=kwargs, reasoning=reasoning)
    return CodeAction(language="bash", content=command, reasoning=reasoning)


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
            task = text if task is None else task
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
    issue = _ISSUE.search(task)
    return steps, tools, issue[1].strip() if issue else task


@register
class SweAgentConverter(Converter):
    name = "swe_agent"
    description = "SWE-agent trajectories (nebius): commands as ApiAction, shell as CodeAction(bash), target as unit-test verdict."

    def convert(self, raw: Any) -> AgentRecord:
        instance_id = require(raw, "instance_id", str)
        target = require(raw, "target", bool)
        steps, tools, instruction = trajectory_steps(require(raw, "trajectory", list))
        exit_status = raw.get("exit_status")
        details = {k: raw[k] for k in ("exit_status", "generated_patch", "eval_logs") if raw.get(k) is not None}
        details.update((k, v) for k, v in raw.items() if k not in _CONSUMED)
        return AgentRecord(
            id=record_id(self.dataset, self.name, instance_id),
            environment=Environment(kind="swe_repo", tools=tools),
            task=Task(instruction=instruction),
            trajectory=steps,
            verifier=Verifier(
                kind="unit_tests",
                result=VerifierResult(
                    passed=target,
                    score=float(target),
                    evidence={"resolved": target, "exit_status": exit_status},
                    verifier="swe-bench",
                ),
            ),
            source=Source(dataset=self.dataset, format=self.name, original_id=instance_id, license=self.opts.license),
            lineage=Lineage(generator={"agent": "swe-agent", "model": raw.get("model_name")}),
            details=details,
        )
