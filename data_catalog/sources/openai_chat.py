"""OpenAI chat-completions conversations: ``{"messages": [...], "tools": [...]?, "id"?}``.

Mapping, message by message:

- ``system`` / ``developer`` -> TextObservation(source="system");
- ``user`` -> TextObservation(source="user") (image parts -> ImageObservation);
- ``assistant`` without tool calls -> MessageAction (``reasoning_content`` -> reasoning);
- ``assistant`` with ``tool_calls`` -> one ApiAction per call, carrying the call id.
  Text content that accompanies the calls is the model's lead-in to them, so
  it becomes the *reasoning of the first call* (not a separate MessageAction):
  the turn stays one action group and renders back as one assistant message;
- ``tool`` -> TextObservation(source="tool", tool_call_id, name); a result must
  answer an earlier call. Without a ``tool_call_id`` it answers the oldest
  unanswered call; legacy ``function`` messages and ``function_call`` are read too.

The optional ``tools`` column (OpenAI function tools, a list or a JSON string)
becomes Environment.tools; kind is ``tool_use`` when tools are declared or
called, else ``chat``.
"""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import ConversionError, Converter, register, require
from data_catalog.sources.chat_common import (
    call_steps,
    chat_record,
    content_parts,
    observation_steps,
    parse_arguments,
    parse_tools,
)
from data_catalog.sources.step_dicts import message
from schemas.record import AgentRecord

_CONSUMED = ("messages", "tools")


class _Calls:
    """Tool calls made so far, to link each result to the call it answers."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}  # call id -> function name
        self.unanswered: list[tuple[str | None, str]] = []  # (call id, function name), oldest first

    def add(self, call_id: str | None, name: str) -> None:
        if call_id is not None:
            self.names[call_id] = name
        self.unanswered.append((call_id, name))

    def answer(self, call_id: str | None, where: str) -> tuple[str | None, str]:
        if call_id is None:
            if not self.unanswered:
                raise ConversionError(f"{where}: tool result answers no earlier call")
            return self.unanswered.pop(0)
        if call_id not in self.names:
            raise ConversionError(f"{where}: tool result for tool_call_id {call_id!r} answers no earlier call")
        self.unanswered = [c for c in self.unanswered if c[0] != call_id]
        return call_id, self.names[call_id]


def _tool_call(call: dict[str, Any], where: str) -> tuple[str | None, str, dict[str, Any]]:
    if call.get("type", "function") != "function":
        raise ConversionError(f"{where}: unsupported tool call type {call.get('type')!r}")
    function = call.get("function")
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        raise ConversionError(f"{where} has no function name")
    call_id = call.get("id")
    return (
        (None if call_id is None else str(call_id)),
        function["name"],
        parse_arguments(function.get("arguments"), where),
    )


def _assistant_steps(msg: dict[str, Any], where: str, calls: _Calls) -> list:
    text, images = content_parts(msg.get("content"), where)
    if images:
        raise ConversionError(f"{where}: assistant message with image content")
    thought = msg.get("reasoning_content") or msg.get("reasoning") or None
    raw_calls = msg.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise ConversionError(f"{where}: tool_calls is {type(raw_calls).__name__}, expected a list")
    if msg.get("function_call"):  # the legacy single call
        raw_calls = [*raw_calls, {"type": "function", "function": msg["function_call"]}]
    if not raw_calls:
        return [message(text, thought)]
    return call_steps(text, thought, raw_calls, where, _tool_call, calls.add)


def _message_steps(msg: Any, where: str, calls: _Calls) -> list:
    if not isinstance(msg, dict):
        raise ConversionError(f"{where} is {type(msg).__name__}, expected an object")
    role = msg.get("role")
    if role == "assistant":
        return _assistant_steps(msg, where, calls)
    if role == "user":
        return observation_steps(msg.get("content"), "user", where, name=msg.get("name"))
    if role in ("system", "developer"):
        return observation_steps(msg.get("content"), "system", where)
    if role in ("tool", "function"):
        call_id = msg.get("tool_call_id")
        call_id, name = calls.answer(None if call_id is None else str(call_id), where)
        return observation_steps(msg.get("content"), "tool", where, name=msg.get("name") or name, tool_call_id=call_id)
    raise ConversionError(f"{where}: unknown role {role!r}")


@register
class OpenAIChatConverter(Converter):
    name = "openai_chat"
    description = "OpenAI chat-completions conversations ({messages with tool_calls / role tool, tools?, id?})."

    def convert(self, raw: Any) -> AgentRecord:
        messages = require(raw, "messages", list)
        if not messages:
            raise ConversionError("field 'messages' is empty")
        tools = parse_tools(raw.get("tools"))
        calls = _Calls()
        steps: list = []
        for i, msg in enumerate(messages):
            steps.extend(_message_steps(msg, f"messages[{i}]", calls))
        return chat_record(raw, self.name, self.dataset, self.opts.license, steps, tools, _CONSUMED)
