"""Anthropic Messages API conversations: one record per conversation (or per response).

Layouts:

- a request / conversation ``{model?, system?, messages: [{role, content}], tools?, id?}``, as a
  client sends it or keeps it (``system``: a string or text blocks; ``tools``: ``{name,
  description, input_schema}``);
- a bare JSON list of such messages (one conversation);
- a response ``{type: "message", id, role: "assistant", model, content, usage}``.

Content blocks are read as anthropic_blocks.py says (thinking as reasoning, tool_use linked to its
tool_result, ``bash`` calls as CodeAction(bash)). The model is source.agent's (no framework
named), ``usage`` lineage.usage. A conversation is told from OpenAI-style chat by its Anthropic blocks (tool_use,
tool_result, thinking, image with a ``source``): a conversation of plain text turns is read by
sharegpt / openai_chat alike.
"""

from __future__ import annotations

from typing import Any

from data_catalog.sources.anthropic_blocks import AnthropicTurns
from data_catalog.sources.base import ConversionError, Detected, each_object, register
from data_catalog.sources.chat_common import (
    ORPHANS_OPTION,
    Calls,
    ChatConverter,
    bare_messages,
    chat_data,
    keeps_orphans,
    parse_tools,
)
from data_catalog.sources.step_dicts import observation
from schemas.agent_identity import agent_identity

_OWN_BLOCKS = frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use"})


def _has_own_blocks(messages: list[Any]) -> bool:
    for msg in messages:
        content = msg.get("content") if isinstance(msg, dict) else None
        if isinstance(content, list) and any(
            isinstance(b, dict) and (b.get("type") in _OWN_BLOCKS or (b.get("type") == "image" and "source" in b))
            for b in content
        ):
            return True
    return False


def _is_response(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") == "message" and value.get("role") == "assistant"


@register
class AnthropicMessagesConverter(ChatConverter):
    name = "anthropic_messages"
    description = "Anthropic Messages API conversations (content blocks text / thinking / tool_use / tool_result)."
    options = ORPHANS_OPTION
    layouts = (
        "{model?, system?, messages: [{role, content: [text | thinking | tool_use | tool_result | image blocks]}], "
        "tools?: [{name, description, input_schema}]}, or a bare JSON list of such messages",
        "a response {type: message, id, role: assistant, model, content, usage}",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if _is_response(value) and isinstance(value.get("content"), list):
            return 3, "Anthropic Messages response"
        messages = value.get("messages") if isinstance(value, dict) else bare_messages(value)
        if isinstance(messages, list) and _has_own_blocks(messages):
            return 3, "Anthropic Messages conversation"
        return None

    def items(self, document: Any, source: str = "-") -> list[Any]:
        if bare_messages(document) and _has_own_blocks(document):
            return [{"messages": document}]  # one conversation, not a list of records
        return list(super().items(document, source))

    def record_data(self, raw: Any) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise ConversionError(f"record is {type(raw).__name__}, expected an object")
        turns = AnthropicTurns(Calls(keeps_orphans(self.opts.extra)))
        if _is_response(raw):
            turns.add("assistant", raw.get("content"), "content")
        else:
            system = raw.get("system")
            if system:
                text = (
                    system
                    if isinstance(system, str)
                    else "\n".join(b.get("text") or "" for _, b in each_object(system, "system"))
                )
                turns.steps.append(observation(text, "system"))
            messages = raw.get("messages")
            if not isinstance(messages, list) or not messages:
                raise ConversionError("field 'messages' is missing or empty")
            for where, msg in each_object(messages, "messages"):
                turns.add(msg.get("role"), msg.get("content"), where)
        turns.flush()
        consumed = ("messages", "system", "tools", "model", "usage", "content", "role", "type", "id")
        data = chat_data(self, raw, turns.steps, parse_tools(raw.get("tools")), consumed, turns.notes())
        data["source"]["agent"] = agent_identity(None, raw.get("model"))
        data["lineage"] = {"usage": raw.get("usage") or {}}
        return data
