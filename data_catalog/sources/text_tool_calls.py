"""Tool calls written as text inside chat turns, for the chat formats (openai_chat, sharegpt).

Two syntaxes cover most open function-calling and SWE data:

- Hermes / Qwen: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` in
  an assistant turn (JSON, or the Python-literal dict some datasets print), the
  results as ``<tool_response>...</tool_response>`` in a tool (or user) turn,
  and the tools as ``<tools>[...]</tools>`` (or one JSON object per line) in
  the system prompt;
- OpenHands / SWE-smith: ``<function=name><parameter=key>value</parameter></function>``,
  the results as a user turn framed ``OBSERVATION:`` or ``EXECUTION RESULT of [name]:``,
  and the tools as ``---- BEGIN FUNCTION #1: name ----`` sections in the system prompt.

A call becomes an ApiAction (arguments from the markup; parameter values stay
the strings they were written as); the text around the calls is their lead-in.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import orjson

from schemas.record import Tool

_HERMES_CALL = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", re.S)
# A call's body ends at its </function>; one left open ends at the next call or the end of the turn.
_FUNCTION = re.compile(r"<function=([\w.:-]+)>((?:(?!<function=).)*?)(</function>|(?=<function=)|\Z)", re.S)
_PARAMETER = re.compile(r"<parameter=([\w.:-]+)>\n?(.*?)\n?</parameter>", re.S)
_TOOL_RESPONSE = re.compile(r"<tool_response>\s*(.*?)\s*</tool_response>", re.S)
_OBSERVATION = re.compile(r"\A\s*(?:OBSERVATION:|EXECUTION RESULT of \[[\w.:-]+\]:)[ \t]*\r?\n?")
_TOOLS_BLOCK = re.compile(r"<tools>\s*(.*?)\s*</tools>", re.S)
_FUNCTION_SECTION = re.compile(r"---- BEGIN FUNCTION #\d+: ([\w.:-]+) ----\n(.*?)\n---- END FUNCTION #\d+ ----", re.S)
_DESCRIPTION = re.compile(r"Description: (.*?)(?:\nParameters:|\Z)", re.S)
_SECTION_PARAMETER = re.compile(r"^ *\(\d+\) ([\w.-]+) \(([\w\[\] ]+), (required|optional)\): (.*)$", re.M)
_JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object"}

Call = tuple[str, dict[str, Any]]  # (function name, arguments)


def may_have_calls(text: str) -> bool:
    """A cheap test before parsing: does the text hold either call syntax at all?"""
    return "<tool_call>" in text or "<function=" in text


def text_calls(text: str) -> tuple[str, list[Call]] | None:
    """The prose of an assistant turn and the tool calls written in it; None when it holds no call."""
    if "<tool_call>" in text:
        pattern, read = _HERMES_CALL, _hermes_call
    elif "<function=" in text:
        pattern, read = _FUNCTION, _function_call
    else:
        return None
    if text.lstrip().startswith(("{", "[")) and _literal(text) is not None:
        return None  # a JSON document (an AgentLab step, say) that quotes the syntax in a string makes no call
    calls, prose, position = [], [], 0
    for match in pattern.finditer(text):
        call = read(match)
        if call is None:
            continue
        calls.append(call)
        prose.append(text[position : match.start()])
        position = match.end()
    if not calls:
        return None
    prose.append(text[position:])
    return "\n".join(part.strip() for part in prose if part.strip()), calls


def _hermes_call(match: re.Match[str]) -> Call | None:
    value = _literal(match[1])
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    arguments = value.get("arguments", value.get("parameters", {}))
    if isinstance(arguments, str):
        arguments = _literal(arguments)
    return (value["name"], arguments) if isinstance(arguments, dict) else None


def _function_call(match: re.Match[str]) -> Call | None:
    """A ``<function=name>`` call. One left open at the end of the turn is a call only when it holds a
    whole parameter (generation stopped at ``</function>``); a bare opening tag is text that names it."""
    parameters = dict(_PARAMETER.findall(match[2]))
    if not match[3] and not parameters:
        return None
    return match[1], parameters


def _literal(text: str) -> Any:
    """JSON, else a Python literal (several datasets print the call dict with repr); None when neither."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        return None


def tool_responses(text: str) -> list[str] | None:
    """The results in a turn made of ``<tool_response>`` blocks (only those), else None."""
    if "<tool_response>" not in text:
        return None
    found = _TOOL_RESPONSE.findall(text)
    return found if found and not _TOOL_RESPONSE.sub("", text).strip() else None


def framed_observation(text: str) -> str | None:
    """The output in a user turn framed as a tool's result (``OBSERVATION:``), without its frame; else None."""
    frame = _OBSERVATION.match(text)
    return None if frame is None else text[frame.end() :]


def tools_in_prompt(text: str) -> list[Tool]:
    """The tools a system prompt declares in either syntax (empty when it declares none)."""
    if "<tools>" in text:  # the first block that lists tools (prompts also say "within <tools></tools> tags")
        return next((tools for block in _TOOLS_BLOCK.finditer(text) if (tools := _hermes_tools(block[1]))), [])
    if "---- BEGIN FUNCTION #" in text:
        return [_section_tool(name, body) for name, body in _FUNCTION_SECTION.findall(text)]
    return []


def _hermes_tools(text: str) -> list[Tool]:
    value = _literal(text)
    specs = value if isinstance(value, list) else [value] if isinstance(value, dict) else None
    if specs is None:  # one JSON object per line (Qwen's template)
        specs = [_literal(line) for line in text.splitlines() if line.strip()]
    tools = []
    for spec in specs:
        spec = spec.get("function", spec) if isinstance(spec, dict) else None
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):
            tool = Tool(name=spec["name"], description=str(spec.get("description") or ""))
            if isinstance(spec.get("parameters"), dict):
                tool.parameters = spec["parameters"]
            tools.append(tool)
    return tools


def _section_tool(name: str, body: str) -> Tool:
    description = _DESCRIPTION.search(body)
    properties, required = {}, []
    for parameter, kind, need, text in _SECTION_PARAMETER.findall(body):
        kind = kind.split()[0].lower()
        properties[parameter] = {"type": kind if kind in _JSON_TYPES else "string", "description": text.strip()}
        if need == "required":
            required.append(parameter)
    parameters = {"type": "object", "properties": properties, "required": required}
    return Tool(name=name, description=description[1].strip() if description else "", parameters=parameters)
