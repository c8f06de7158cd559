"""Tool definitions in, tool calls out: normalizing tools and parsing calls from model text.

Two styles are recognized: Hermes (``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``,
what the ChatML tool template asks for) and plain JSON (the whole reply is one call
object or a list of them, optionally in a ```json fence). Markup that looks like a
call but does not parse stays in the text and gets an error message: nothing is
silently dropped.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from generators.llm.interface import Completion, ToolCall
from schemas.record import Tool, stable_id

_HERMES_BLOCK = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def normalize_tools(tools: list[dict[str, Any] | Tool] | None) -> list[dict[str, Any]] | None:
    """OpenAI function-tool dicts, whatever the input shape (Tool, bare function dict, full dict)."""
    if not tools:
        return None
    out = []
    for tool in tools:
        if isinstance(tool, Tool):
            function = {"name": tool.name, "description": tool.description, "parameters": tool.parameters}
        elif tool.get("type") == "function" and "function" in tool:
            function = dict(tool["function"])
        elif "name" in tool:
            function = {k: tool[k] for k in ("name", "description", "parameters") if k in tool}
        else:
            raise ValueError(f"not a function tool: {tool!r}")
        function.setdefault("description", "")
        function.setdefault("parameters", {"type": "object", "properties": {}})
        out.append({"type": "function", "function": function})
    return out


@dataclass
class ParsedReply:
    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def call_from_obj(obj: Any, index: int) -> ToolCall:
    """A ToolCall from a decoded {"name", "arguments"|"parameters"} object, or ValueError."""
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str) or not obj["name"]:
        raise ValueError("a tool call needs a JSON object with a string 'name'")
    arguments = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(arguments, str):
        # Some models (and the OpenAI wire format) send arguments as a JSON string.
        arguments = json.loads(arguments) if arguments.strip() else {}
    if not isinstance(arguments, dict):
        raise ValueError(f"tool call {obj['name']!r}: arguments must be a JSON object")
    call_id = "call_" + stable_id(index, obj["name"], arguments)[:16]
    return ToolCall(id=call_id, name=obj["name"], arguments=arguments)


def _parse_hermes(text: str) -> ParsedReply:
    calls, errors, kept = [], [], []
    last = 0
    for match in _HERMES_BLOCK.finditer(text):
        kept.append(text[last : match.start()])
        last = match.end()
        try:
            calls.append(call_from_obj(json.loads(match.group(1)), len(calls)))
        except ValueError as exc:  # json.JSONDecodeError is a ValueError
            errors.append(f"malformed <tool_call> block: {exc}")
            kept.append(match.group(0))
    tail = text[last:]
    if "<tool_call>" in tail:
        errors.append("unterminated <tool_call> block (reply cut off?)")
    kept.append(tail)
    return ParsedReply(content="".join(kept).strip(), tool_calls=calls, errors=errors)


def _parse_plain_json(text: str, tool_names: set[str] | None) -> ParsedReply | None:
    """The whole reply as one call or a list of calls; None when it is not that."""
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    if not body.startswith(("{", "[")):
        return None
    try:
        decoded = json.loads(body)
    except ValueError:
        return None
    objs = decoded if isinstance(decoded, list) else [decoded]
    looks_like_calls = objs and all(
        isinstance(o, dict) and "name" in o and ("arguments" in o or "parameters" in o) for o in objs
    )
    if not looks_like_calls:
        return None
    # A JSON answer that merely has a "name" field is not a call unless it names a known tool.
    if tool_names is not None and not all(o["name"] in tool_names for o in objs):
        return None
    try:
        calls = [call_from_obj(o, i) for i, o in enumerate(objs)]
    except ValueError as exc:
        return ParsedReply(content=text.strip(), errors=[f"malformed JSON tool call: {exc}"])
    return ParsedReply(content="", tool_calls=calls)


def parse_tool_calls(text: str, tools: list[dict[str, Any]] | None = None) -> ParsedReply:
    """Split a model reply into free text and tool calls (Hermes first, then plain JSON)."""
    if "<tool_call>" in text:
        return _parse_hermes(text)
    names = {t["function"]["name"] for t in tools} if tools else None
    return _parse_plain_json(text, names) or ParsedReply(content=text.strip())


def assistant_message(content: str, tool_calls: list[ToolCall]) -> dict[str, Any]:
    """An OpenAI-style assistant message carrying the calls (arguments as objects)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in tool_calls
        ]
    return message


def completion_from_text(
    text: str,
    finish_reason: str,
    tools: list[dict[str, Any]] | None,
    token_ids: list[int] | None = None,
    logprobs: list[float] | None = None,
) -> Completion:
    """A Completion with tool calls parsed out when the request offered tools."""
    if not tools:
        return Completion(text=text, finish_reason=finish_reason, token_ids=token_ids, logprobs=logprobs)
    parsed = parse_tool_calls(text, tools)
    return Completion(
        text=parsed.content,
        tool_calls=parsed.tool_calls,
        tool_call_errors=parsed.errors,
        finish_reason="tool_calls" if parsed.tool_calls else finish_reason,
        token_ids=token_ids,
        logprobs=logprobs,
    )
