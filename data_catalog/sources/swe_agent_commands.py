"""SWE-agent's commands: the ones a system prompt declares (``COMMANDS:``), and a command block read as an action.

A declared command (open, goto, edit, find_file, search_dir, submit, ...) whose
arguments fit its signature becomes ApiAction with typed kwargs (``edit``:
start_line, end_line and the replacement text, indentation kept); anything
else is what the shell ran: CodeAction(bash).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from data_catalog.sources.text_actions import text_around
from schemas.record import Tool
from schemas.steps import ApiAction, CodeAction

_COMMAND_HEADER = re.compile(r"^(\w+):\n  docstring: (.*)$", re.MULTILINE)
_ARGUMENT = re.compile(r"^    - (\w+) \((\w+)\) \[(required|optional)\]: (.*)$", re.MULTILINE)
_XML_COMMAND = re.compile(r"<command>\n?(.*?)\n?</command>", re.S)
_EDIT_RANGE = re.compile(r"edit\s+(\d+):(\d+)\s*")
# Shell words that are bare or wholly quoted, without escapes, separated by whitespace.
_WORD = re.compile(r"""(?:"([^"\\]*)"|'([^'\\]*)'|([^\s"'\\]+))(?:\s+|$)""")
_SIMPLE_WORDS = re.compile(r"""(?:(?:"[^"\\]*"|'[^'\\]*'|[^\s"'\\]+)(?:\s+|$))*""")


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
    """(discussion, command) of an ai turn: the last complete top-level fenced block is the command;
    with SWE-agent's XML parser, the last ``<command>...</command>``.

    A fence with a language always opens a block, so a block the command writes
    (an edit of a README with ```python inside) does not end the command early.
    """
    if "<command>" in text and (xml := _last_xml_command(text)) is not None:
        return xml
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
    return _without_label(text_around(text, open_at, close_end)), command


def _last_xml_command(text: str) -> tuple[str, str] | None:
    found = max(_XML_COMMAND.finditer(text), key=lambda match: match.start(), default=None)
    if found is None:
        return None
    return _without_label(text_around(text, found.start(), found.end())), found[1]


def _without_label(discussion: str) -> str:
    return discussion[len("DISCUSSION") :].lstrip() if discussion.startswith("DISCUSSION") else discussion


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
