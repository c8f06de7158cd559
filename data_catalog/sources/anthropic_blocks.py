"""Anthropic Messages content blocks as steps, shared by claude_code and anthropic_messages.

A message is ``{role: user | assistant, content: str | [blocks]}``; blocks, in order:

- ``thinking`` (its ``thinking`` text) -> reasoning of the agent's next action; a
  ``redacted_thinking`` block or a thinking block with no text says nothing and is counted;
- ``text`` -> an assistant's MessageAction, or a user TextObservation; text an assistant
  writes before a ``tool_use`` is the lead-in to the call, so it is that call's reasoning
  (after the thinking), as in openai_chat;
- ``tool_use`` / ``server_tool_use`` / ``mcp_tool_use`` (``id``, ``name``, ``input``) -> ApiAction
  with its id (a shell tool's call: CodeAction(bash)); the result of a server tool comes in the
  assistant's own content (``web_search_tool_result``, ``mcp_tool_result``, ...) and is read as
  tool_result is;
- ``tool_result`` (``tool_use_id``, ``content``: a string or text/image blocks, ``is_error``)
  -> TextObservation(source="tool") linked to its call; an error result says so in details;
- ``image`` -> ImageObservation (a URL, or a data URI of a base64 source).

One API message may arrive split over several events (Claude Code writes one event per block):
the pending thinking and text carry over until the next action, the next message, or the end.
Thinking that no action follows becomes an empty MessageAction carrying it, where it happened.
"""

from __future__ import annotations

from typing import Any

import orjson

from data_catalog.sources.base import ConversionError, each_object
from data_catalog.sources.chat_common import Calls
from data_catalog.sources.step_dicts import call_step, image, message, observation

_CALL_BLOCKS = ("tool_use", "server_tool_use", "mcp_tool_use")


def _image_url(block: dict[str, Any]) -> str:
    source = block.get("source") if isinstance(block.get("source"), dict) else {}
    if source.get("type") == "base64":
        return f"data:{source.get('media_type', 'image/png')};base64,{source.get('data', '')}"
    return source.get("url") or source.get("file_id") or ""


def result_text(content: Any, where: str) -> tuple[str, list[str]]:
    """A tool result's text and image URLs (content: a string, None, or text / image blocks)."""
    if content is None or isinstance(content, str):
        return content or "", []
    if not isinstance(content, list):
        return orjson.dumps(content).decode(), []
    texts, images = [], []
    for _, block in each_object(content, f"{where} content"):
        kind = block.get("type")
        if kind == "text":
            texts.append(block.get("text") or "")
        elif kind == "image":
            images.append(_image_url(block))
        else:  # a search result, a document: kept as the JSON the agent was shown
            texts.append(orjson.dumps(block).decode())
    return "\n".join(texts), images


class AnthropicTurns:
    """The steps of a sequence of Anthropic messages (see the module docstring)."""

    def __init__(self, calls: Calls | None = None) -> None:
        self.steps: list[dict[str, Any]] = []
        self.calls = calls or Calls()
        self.thinking: list[str] = []
        self.text: list[str] = []
        self.silent_thinking = 0  # redacted or empty thinking blocks
        self.errors: list[str] = []  # tool_use ids whose result is an error
        self.message_id: Any = None

    def add(self, role: Any, content: Any, where: str, message_id: Any = None) -> None:
        """One message (or one event's part of one: the same ``message_id`` continues it)."""
        if role == "assistant":
            if message_id is None or message_id != self.message_id:
                self.flush()
            self.message_id = message_id
            self._assistant(content, where)
        elif role in ("user", "system"):
            self.flush()
            self.message_id = None
            self._incoming(content, where, role)
        else:
            raise ConversionError(f"{where}: unknown role {role!r}")

    def _assistant(self, content: Any, where: str) -> None:
        if isinstance(content, str):
            self.text.append(content)
            return
        if not isinstance(content, list):
            raise ConversionError(f"{where}: content is {type(content).__name__}, expected a string or blocks")
        for at, block in each_object(content, f"{where} content"):
            kind = block.get("type")
            if kind == "thinking":
                text = (block.get("thinking") or "").strip()
                if text:
                    self.thinking.append(text)
                else:
                    self.silent_thinking += 1
            elif kind == "redacted_thinking":
                self.silent_thinking += 1
            elif kind == "text":
                self.text.append(block.get("text") or "")
            elif kind in _CALL_BLOCKS:
                self._call(block, at)
            elif isinstance(kind, str) and kind.endswith("tool_result"):  # a server tool's result, in the reply
                self._result(block, at)
            else:
                raise ConversionError(f"{at}: unsupported assistant block {kind!r}")

    def _call(self, block: dict[str, Any], where: str) -> None:
        name, call_id, arguments = block.get("name"), block.get("id"), block.get("input")
        if not isinstance(name, str):
            raise ConversionError(f"{where}: tool_use has no name")
        if arguments is not None and not isinstance(arguments, dict):
            raise ConversionError(f"{where}: tool_use input is {type(arguments).__name__}, expected an object")
        self.calls.add(call_id, name)
        self.steps.append(call_step(name, arguments or {}, call_id, self._lead()))

    def _lead(self) -> str | None:
        """The pending thinking and text, as the reasoning of what comes next; cleared."""
        text = "\n\n".join(t for t in (*self.thinking, "\n".join(self.text).strip()) if t) or None
        self.thinking, self.text = [], []
        return text

    def flush(self) -> None:
        """The pending text as a MessageAction (its thinking as reasoning), or thinking alone as an empty one."""
        text = "\n".join(self.text).strip()
        if text or self.thinking:
            thinking = "\n\n".join(self.thinking) or None
            self.thinking, self.text = [], []
            self.steps.append(message(text, thinking))
        self.text = []

    def _incoming(self, content: Any, where: str, role: str) -> None:
        source = "user" if role == "user" else "system"
        if isinstance(content, str):
            self.steps.append(observation(content, source))
            return
        if not isinstance(content, list):
            raise ConversionError(f"{where}: content is {type(content).__name__}, expected a string or blocks")
        for at, block in each_object(content, f"{where} content"):
            kind = block.get("type")
            if kind == "text":
                self.steps.append(observation(block.get("text") or "", source))
            elif kind == "image":
                self.steps.append(image(_image_url(block), source))
            elif kind == "tool_result":
                self._result(block, at)
            else:
                raise ConversionError(f"{at}: unsupported {role} block {kind!r}")

    def _result(self, block: dict[str, Any], where: str) -> None:
        use_id = block.get("tool_use_id")
        call_id, name = self.calls.answer(None if use_id is None else str(use_id), where)
        text, images = result_text(block.get("content"), where)
        self.steps.append(observation(text, "tool", name, call_id))
        self.steps.extend(image(url, "tool") for url in images)
        if block.get("is_error"):
            self.errors.append(str(use_id))

    def notes(self) -> dict[str, Any]:
        """What the record's details say beside the steps: unread thinking, error results, kept orphans."""
        return {
            **({"thinking_blocks_without_text": self.silent_thinking} if self.silent_thinking else {}),
            **({"tool_results_with_error": self.errors} if self.errors else {}),
            **self.calls.note(),
        }
