"""From a ChatRequest to the exact prompt a model sees, with the length rule applied.

Messages are normalized twice over: chat templates want tool-call arguments as
objects, the OpenAI wire format wants them as JSON strings. The length rule
keeps prompt + max_tokens within the model's context: by default a prompt that
does not fit is rejected with a reason; with ``overflow="truncate"`` the oldest
turns after the system message are dropped until it fits, and the result says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from generators.llm.interface import ChatRequest
from generators.llm.tool_calls import normalize_tools

Overflow = Literal["reject", "truncate"]


def template_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages as chat templates expect them: string content, tool-call arguments as objects."""
    out = []
    for message in messages:
        message = dict(message)
        if message.get("content") is None:
            message["content"] = ""
        if message.get("tool_calls"):
            message["tool_calls"] = [_with_arguments(call, as_string=False) for call in message["tool_calls"]]
        out.append(message)
    return out


def wire_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages as the OpenAI API expects them: tool-call arguments as JSON strings."""
    out = []
    for message in messages:
        message = dict(message)
        if message.get("tool_calls"):
            message["tool_calls"] = [_with_arguments(call, as_string=True) for call in message["tool_calls"]]
        out.append(message)
    return out


def _with_arguments(call: dict[str, Any], as_string: bool) -> dict[str, Any]:
    function = dict(call.get("function", call))
    arguments = function.get("arguments", {})
    if as_string and not isinstance(arguments, str):
        function["arguments"] = json.dumps(arguments, ensure_ascii=False)
    elif not as_string and isinstance(arguments, str):
        function["arguments"] = json.loads(arguments) if arguments.strip() else {}
    return {**call, "type": "function", "function": function}


def canonical_prompt(request: ChatRequest) -> str:
    """A stable text form of a request, for backends that cannot render the model's template."""
    body = {"messages": template_messages(request.messages), "tools": normalize_tools(request.tools)}
    return orjson.dumps(body, option=orjson.OPT_SORT_KEYS).decode()


@dataclass
class PreparedPrompt:
    messages: list[dict[str, Any]]
    text: str
    token_ids: list[int]
    notice: str | None = None
    error: str | None = None


class PromptRenderer:
    """Renders requests with a tokenizer's chat template and applies the length rule."""

    def __init__(self, tokenizer: Any, max_model_len: int, overflow: Overflow = "reject"):
        self.tokenizer = tokenizer
        self.max_model_len = max_model_len
        self.overflow = overflow

    def render(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> str:
        return self.tokenizer.apply_chat_template(
            template_messages(messages), tools=tools, tokenize=False, add_generation_prompt=True
        )

    def _encode(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> tuple[str, list[int]]:
        text = self.render(messages, tools)
        return text, self.tokenizer.encode(text, add_special_tokens=False)

    def prepare(self, request: ChatRequest, max_tokens: int) -> PreparedPrompt:
        tools = normalize_tools(request.tools)
        messages = list(request.messages)
        budget = self.max_model_len - max_tokens
        text, ids = self._encode(messages, tools)
        if len(ids) <= budget:
            return PreparedPrompt(messages, text, ids)
        limit = f"limit is {budget} (max_model_len {self.max_model_len} - max_tokens {max_tokens})"
        if self.overflow == "reject":
            return PreparedPrompt(messages, text, ids, error=f"prompt too long: {len(ids)} tokens; {limit}")
        return self._truncate(messages, tools, budget, limit)

    def _truncate(self, messages: list[dict[str, Any]], tools, budget: int, limit: str) -> PreparedPrompt:
        """Drop the oldest turns after a leading system message; never the last message."""
        first = 1 if messages[0].get("role") == "system" else 0
        dropped = 0
        while len(messages) - first > 1:
            del messages[first]
            dropped += 1
            # A tool result or assistant turn cannot open a conversation: drop up to the next user turn.
            if messages[first].get("role") != "user" and len(messages) - first > 1:
                continue
            text, ids = self._encode(messages, tools)
            if len(ids) <= budget:
                return PreparedPrompt(messages, text, ids, notice=f"truncated: dropped {dropped} oldest messages")
        text, ids = self._encode(messages, tools)
        if len(ids) <= budget:
            return PreparedPrompt(messages, text, ids, notice=f"truncated: dropped {dropped} oldest messages")
        return PreparedPrompt(
            messages, text, ids, error=f"prompt too long even after truncation: {len(ids)} tokens; {limit}"
        )
