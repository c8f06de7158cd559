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

Calls written as text in the content (Hermes ``<tool_call>``, OpenHands /
SWE-smith ``<function=...>``, see text_tool_calls.py) are ApiActions too, and
a user turn that carries their output (``<tool_response>``, ``OBSERVATION:``)
is their tool result; option ``text_calls=off`` keeps such text as it is.
An assistant message's own reasoning beside it (``thoughts``) and calls listed
beside it (``actions: [{API_name, API_params}]``) are read; any other field a
message's role does not read (a system message's ``name``, a ``reasoning``
beside the ``reasoning_content`` used) is kept in ``details["message_fields"]``
by message index.

The tool list (``tools``, ``available_tools`` or ``functions``: OpenAI function
tools, a list or a JSON string; else the tools a system prompt declares in
text) becomes Environment.tools; kind is ``tool_use`` when tools are declared
or called, else ``chat``.
"""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import ConversionError, ConvertOptions, Detected, register, require
from data_catalog.sources.chat_common import (
    ORPHANS_OPTION,
    TEXT_CALLS_OPTION,
    Calls,
    ChatConverter,
    bare_messages,
    call_steps,
    chat_data,
    keeps_orphans,
    message_parts,
    observation_steps,
    openai_signals,
    optional_text,
    parse_arguments,
    record_tools,
    split_turn_extras,
    written_call_steps,
    written_results,
)
from data_catalog.sources.step_dicts import message
from data_catalog.sources.text_tool_calls import tool_responses, tools_in_prompt

# The fields each role's messages are read from. Any other field is kept in details; so is an empty one
# only when no role reads it (exports often carry "tool_calls": null on every message).
_READ = {
    "assistant": frozenset({"role", "content", "tool_calls", "function_call", "reasoning_content", "reasoning"}),
    "user": frozenset({"role", "content", "name"}),
    "system": frozenset({"role", "content"}),
    "developer": frozenset({"role", "content"}),
    "tool": frozenset({"role", "content", "tool_call_id", "name"}),
    "function": frozenset({"role", "content", "tool_call_id", "name"}),
}
_READ_BY_SOME_ROLE = frozenset().union(*_READ.values())


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


class _Conversation:
    """The state of one conversation while its messages become steps."""

    def __init__(self, parse_text: bool, keep_orphans: bool = False):
        self.parse_text = parse_text
        self.calls = Calls(keep_orphans)
        self.fields: dict[str, dict[str, Any]] = {}  # message index -> fields kept in details
        self.prompt_tools: list = []

    def steps(self, msg: Any, i: int) -> list:
        where = f"messages[{i}]"
        if not isinstance(msg, dict):
            raise ConversionError(f"{where} is {type(msg).__name__}, expected an object")
        role = msg.get("role")
        read = _READ.get(role, _READ_BY_SOME_ROLE)  # an unknown role is refused below
        if role == "assistant" and msg.get("reasoning_content") and msg.get("reasoning"):
            read = read - {"reasoning"}  # reasoning_content is the one read
        thought, actions = None, None
        if not read.issuperset(msg):
            rest = {
                k: v
                for k, v in msg.items()
                if k not in read and (k not in _READ_BY_SOME_ROLE or v not in (None, "", []))
            }
            if role == "assistant":  # reasoning and calls written beside the message
                thought, actions, rest = split_turn_extras(rest)
            if rest:
                self.fields[str(i)] = rest
        if role == "assistant":
            return self._assistant(msg, where, thought, actions)
        if role == "user":
            text = msg.get("content")
            if self.parse_text and isinstance(text, str) and (results := written_results(text, where, self.calls)):
                return results
            return observation_steps(text, "user", where, name=optional_text(msg, "name", where))
        if role in ("system", "developer"):
            text = msg.get("content")
            if self.parse_text and isinstance(text, str) and not self.prompt_tools:
                self.prompt_tools = tools_in_prompt(text)
            return observation_steps(text, "system", where)
        if role in ("tool", "function"):
            return self._tool_result(msg, where)
        raise ConversionError(f"{where}: unknown role {role!r}")

    def _assistant(self, msg: dict[str, Any], where: str, thought: str | None, actions: Any) -> list:
        text, images, part_reasoning, part_calls = message_parts(msg.get("content"), where)
        if images:
            raise ConversionError(f"{where}: assistant message with image content")
        thought = (
            optional_text(msg, "reasoning_content", where)
            or optional_text(msg, "reasoning", where)
            or part_reasoning
            or thought
            or None
        )
        raw_calls = msg.get("tool_calls") or []
        if not isinstance(raw_calls, list):
            raise ConversionError(f"{where}: tool_calls is {type(raw_calls).__name__}, expected a list")
        if part_calls:  # LLaMA-Factory v1's tool_call parts: {name, arguments}
            raw_calls = [*raw_calls, *({"type": "function", "function": call} for call in part_calls)]
        if msg.get("function_call"):  # the legacy single call
            raw_calls = [*raw_calls, {"type": "function", "function": msg["function_call"]}]
        if raw_calls:
            return call_steps(text, thought, raw_calls, where, _tool_call, self.calls.add)
        written = written_call_steps(text, thought, actions, where, self.calls, self.parse_text)
        return written if written is not None else [message(text, thought)]

    def _tool_result(self, msg: dict[str, Any], where: str) -> list:
        call_id = msg.get("tool_call_id")
        content = msg.get("content")
        results = tool_responses(content) if self.parse_text and isinstance(content, str) else None
        if call_id is None and results is not None and len(results) > 1:  # several results in one message
            return [s for r in results for s in self._one_result(r, None, msg, where)]
        return self._one_result(results[0] if results else content, call_id, msg, where)

    def _one_result(self, content: Any, call_id: Any, msg: dict[str, Any], where: str) -> list:
        call_id, name = self.calls.answer(None if call_id is None else str(call_id), where)
        own_name = optional_text(msg, "name", where)
        return observation_steps(content, "tool", where, name=own_name or name, tool_call_id=call_id)


@register
class OpenAIChatConverter(ChatConverter):
    name = "openai_chat"
    description = "OpenAI chat-completions conversations (messages with tool_calls / role tool, tools?, id?)."
    options = {**TEXT_CALLS_OPTION, **ORPHANS_OPTION}
    layouts = (
        "{messages: [{role, content, tool_calls?, tool_call_id?}], tools | available_tools | functions?, id?}, "
        "or a bare JSON list of such messages (one conversation)",
        "tool calls written in content: Hermes <tool_call>{...}</tool_call> + <tool_response>; "
        "OpenHands / SWE-smith <function=name><parameter=k>v</parameter></function> + OBSERVATION: turns",
        "calls listed beside a message: actions: [{API_name, API_params}], thoughts",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        bare = bare_messages(value)
        if isinstance(value, dict) and "llm_config" in value:
            return None  # a Letta agent file (letta.py): its messages are one part of the agent's saved state
        messages = value.get("messages") if isinstance(value, dict) else bare
        if not isinstance(messages, list) or not messages or not isinstance(messages[0], dict):
            return None
        if "role" not in messages[0]:
            return None
        signals = openai_signals(messages)
        kind = "a bare list of " if bare else ""
        if signals == 3:
            return 3, f"{kind}chat completions with tool_calls"
        return (
            (2, f"{kind}messages with tool turns, calls written as text or content parts")
            if signals
            else (1, f"{kind}role/content messages")
        )

    def items(self, document: Any, source: str = "-") -> list[Any]:
        if bare_messages(document):
            return [{"messages": document}]  # json.dump(messages): one conversation, not a list of records
        return list(super().items(document, source))

    def __init__(self, options: ConvertOptions | None = None):
        super().__init__(options)
        value = self.opts.extra.get("text_calls", "auto")
        if value not in ("auto", "off"):
            raise ValueError(f"option text_calls must be auto or off, not {value!r}")
        self.parse_text = value == "auto"
        self.keep_orphans = keeps_orphans(self.opts.extra)

    def record_data(self, raw: Any) -> dict[str, Any]:
        raw = {"messages": raw} if bare_messages(raw) else raw
        messages = require(raw, "messages", list)
        tools, tool_fields = record_tools(raw)
        conversation = _Conversation(self.parse_text, self.keep_orphans)
        steps, prompt_tools, fields = message_steps(messages, conversation)
        details = {**({"message_fields": fields} if fields else {}), **conversation.calls.note()}
        consumed = ("messages", *tool_fields)
        return chat_data(self, raw, steps, tools or prompt_tools, consumed, details)


def message_steps(
    messages: list[Any], conversation: _Conversation | None = None
) -> tuple[list, list, dict[str, dict[str, Any]]]:
    """The steps of a list of chat-completions messages, the tools a system prompt declares in text,
    and the fields of messages their role does not read (by message index). Also for formats that
    keep such a list inside their own records (toolbench)."""
    if not messages:
        raise ConversionError("field 'messages' is empty")
    conversation = conversation or _Conversation(parse_text=True)
    steps: list = []
    for i, msg in enumerate(messages):
        steps.extend(conversation.steps(msg, i))
    return steps, conversation.prompt_tools, conversation.fields
