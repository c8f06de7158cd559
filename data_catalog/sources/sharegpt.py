"""ShareGPT conversations: ``{"conversations" | "messages": [{from, value} | {role, content}], "system"?, "tools"?, "id"?}``.

Roles: human/user; gpt/assistant/model; system; observation/tool/function
(tool results); function_call/tool_call (a JSON call ``{name, arguments}``
or a list of them, LLaMA-Factory style). System prompts are kept as
TextObservation(source="system"), which ADP drops.

How assistant turns write actions depends on the dialect (option
``dialect``; ``auto`` detects it per record, see text_actions.py):
``react``, ``codeact``, ``markdown`` or ``plain``. In ``auto``, a fenced block
is code the agent ran only when the next turn is its output (framed
"Execution result:" and the like, or a tool turn); a snippet shown in prose
that nothing ran stays in its MessageAction, and a record with no block that
ran is ``plain``. User turns are ``source="user"``, except environment
output: in every dialect but ``plain`` a turn framed as output
("Observation:", "The output of the OS:", "Execution result:") is
``source="environment"`` with the frame stripped, and so is any turn that
answers an ApiAction or CodeAction (alfworld's feedback and CodeAct's bare
output have no frame; ADP labels them user; mini_swe_agent labels them
environment too).

Tool calls written as text in a turn (``<tool_call>``, ``<function=...>``;
option ``text_calls``) and calls listed beside a turn (``actions``, with
``thoughts``) are ApiActions, as in openai_chat; a turn's other fields are
kept in ``details["turn_fields"]`` by turn index.
"""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import ConversionError, ConvertOptions, Detected, register
from data_catalog.sources.chat_common import (
    ORPHANS_OPTION,
    TEXT_CALLS_OPTION,
    Calls,
    ChatConverter,
    bare_messages,
    chat_data,
    json_value,
    keeps_orphans,
    message_parts,
    openai_signals,
    plain_call,
    record_tools,
    result_steps,
    split_turn_extras,
    written_call_steps,
    written_results,
)
from data_catalog.sources.step_dicts import ACTION_KINDS, call_step, message, observation
from data_catalog.sources.text_actions import ASSISTANT_PARSERS, DIALECTS, ENV_PREFIX, detect_dialect, fenced_code
from data_catalog.sources.text_tool_calls import may_have_calls, text_calls, tool_responses, tools_in_prompt

_ROLES = {
    "human": "user", "user": "user",
    "gpt": "assistant", "assistant": "assistant", "model": "assistant", "chatgpt": "assistant",
    "system": "system",
    "observation": "tool", "tool": "tool", "function": "tool", "function_response": "tool", "ipython": "tool",
    "function_call": "call", "tool_call": "call",
}  # fmt: skip
_CONSUMED = ("conversations", "messages", "system")
_TURN_KEYS = frozenset({"from", "value", "role", "content"})
_MISSING = object()
Turn = tuple[str, str, dict[str, Any] | None]  # (role, text, the turn's other fields)


def _turns(raw: Any) -> tuple[str, list[Turn]]:
    """The field holding the turns, and each turn with its role mapped to user/assistant/system/tool/call."""
    if not isinstance(raw, dict):
        raise ConversionError(f"record is {type(raw).__name__}, expected an object")
    key = "conversations" if "conversations" in raw else "messages"
    turns = raw.get(key)
    if not isinstance(turns, list):
        found = "missing" if turns is None else f"a {type(turns).__name__}"
        raise ConversionError(f"field 'conversations' (or 'messages') is {found}, expected a list of turns")
    if not turns:
        raise ConversionError(f"field {key!r} is empty")
    out = []
    for i, turn in enumerate(turns):
        if type(turn) is not dict:
            raise ConversionError(f"{key}[{i}] is {type(turn).__name__}, expected an object")
        speaker = turn.get("from") or turn.get("role")
        role = (_ROLES.get(speaker) or _ROLES.get(speaker.lower())) if isinstance(speaker, str) else None
        if role is None:
            raise ConversionError(f"{key}[{i}]: unknown role {speaker!r}")
        text = turn.get("value", _MISSING)
        if text is _MISSING:
            text = turn.get("content", _MISSING)
            if text is _MISSING:
                raise ConversionError(f"{key}[{i}] has no 'value' or 'content'")
        extra = None if len(turn) == 2 else {k: v for k, v in turn.items() if k not in _TURN_KEYS} or None
        if type(text) is not str:
            text, images, reasoning, calls = message_parts(text, f"{key}[{i}]")
            if images:
                raise ConversionError(f"{key}[{i}]: image content is not supported in sharegpt")
            if reasoning is not None or calls:  # LLaMA-Factory v1 parts: read as the thoughts and actions beside a turn
                extra = {**(extra or {}), "thoughts": reasoning, "actions": calls or None}
        out.append((role, text, extra))
    return key, out


def _calls(text: str, where: str, calls: Calls) -> list[dict]:
    """A function_call turn: a JSON object ``{name, arguments}`` or a list of them; or prose with the
    calls written in it (``<function=...>``, ``<tool_call>``), the prose being their lead-in."""
    prose = None
    if not text.lstrip().startswith(("{", "[")) and (found := text_calls(text)) is not None:
        prose, listed = found
        values: Any = [{"name": name, "arguments": arguments} for name, arguments in listed]
    else:
        values = json_value(text, f"{where}: function call is")
    actions = []
    for call in values if isinstance(values, list) else [values]:
        if not isinstance(call, dict):
            raise ConversionError(f"{where}: function call has no name")
        _, name, kwargs = plain_call(call, f"{where}: function call")
        calls.add(None, name)
        actions.append(call_step(name, kwargs, None, None if actions else prose or None))
    return actions


def _answered_by_output(turns: list[Turn]) -> list[bool]:
    """For each turn: is the next one the output of something it ran (a framed or a tool turn)?"""
    answered = [False] * len(turns)
    for i in range(len(turns) - 1):
        role, text, _ = turns[i + 1]
        answered[i] = role == "tool" or (role == "user" and ENV_PREFIX.match(text) is not None)
    return answered


@register
class ShareGPTConverter(ChatConverter):
    name = "sharegpt"
    description = "ShareGPT conversations (from/value or role/content) with ReAct, CodeAct, markdown or plain dialects."
    options = {
        "dialect": f"how assistant turns write actions: auto (default, per record), {', '.join(DIALECTS)}",
        **TEXT_CALLS_OPTION,
        **ORPHANS_OPTION,
    }
    layouts = (
        "{conversations | messages: [{from, value} | {role, content}], system?, tools | available_tools?, id?}",
        "assistant turns in ReAct (Thought/Action), CodeAct (<execute>), markdown (fenced code that ran) or plain prose",
        "tool calls as function_call turns, written in text (<tool_call>, <function=...>) or listed beside a turn "
        "(actions: [{API_name, API_params}], thoughts)",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if bare_messages(value):  # read as {messages: value}, so judged as that
            found = ShareGPTConverter.sniff({"messages": value})
            return found and (found[0], f"a bare list of {found[1]}")
        if not isinstance(value, dict):
            return None
        key = "conversations" if "conversations" in value else "messages"
        turns = value.get(key)
        if not isinstance(turns, list) or not turns or not isinstance(turns[0], dict):
            return None
        if "from" in turns[0] or key == "conversations":
            return 2, f"{key}: [{{from, value}}]" if "from" in turns[0] else "conversations: [{role, content}]"
        if "role" not in turns[0]:
            return None
        return (1, "messages: [{role, content}]") if openai_signals(turns) else (2, "messages: [{role, content}]")

    def __init__(self, options: ConvertOptions | None = None):
        super().__init__(options)
        self.dialect = self.opts.extra.get("dialect", "auto")
        if self.dialect not in ("auto", *DIALECTS):
            raise ValueError(f"format 'sharegpt' has no dialect {self.dialect!r}; known: auto, {', '.join(DIALECTS)}")
        text_calls = self.opts.extra.get("text_calls", "auto")
        if text_calls not in ("auto", "off"):
            raise ValueError(f"option text_calls must be auto or off, not {text_calls!r}")
        self.parse_text = text_calls == "auto"
        self.keep_orphans = keeps_orphans(self.opts.extra)

    def items(self, document: Any, source: str = "-") -> list[Any]:
        if bare_messages(document):
            return [{"messages": document}]  # json.dump(messages): one conversation, not a list of records
        return list(super().items(document, source))

    def record_data(self, raw: Any) -> dict[str, Any]:
        raw = {"messages": raw} if bare_messages(raw) else raw
        key, turns = _turns(raw)
        assistant = [text for role, text, _ in turns if role == "assistant"]
        # Text tool calls are looked for turn by turn only in a record that has some (the cheap test, once).
        parse_calls = self.parse_text and any(may_have_calls(text) for text in assistant)
        dialect = self._dialect(turns, assistant, parse_calls)
        # Only markdown needs it: there a fenced block is an action only when its output follows.
        answered = _answered_by_output(turns) if self.dialect == "auto" and dialect == "markdown" else None
        system = raw.get("system")
        if system is not None and not isinstance(system, str):
            raise ConversionError(f"field 'system' is {type(system).__name__}, expected a string")
        tools, tool_fields = record_tools(raw)
        steps: list = [observation(system, "system")] if system else []
        prompts = [system] if system else []
        calls = Calls(self.keep_orphans)
        fields: dict[str, dict[str, Any]] = {}
        parse, user_step = ASSISTANT_PARSERS[dialect], _USER_STEPS[dialect]
        for i, (role, text, extra) in enumerate(turns):
            thought = actions = None
            if extra:
                thought, actions, rest = split_turn_extras(extra)
                if rest:
                    fields[str(i)] = rest
            if role == "assistant":
                written = None
                if actions or parse_calls:
                    written = written_call_steps(text, thought, actions, f"{key}[{i}]", calls, parse_calls)
                if not written:
                    written = parse(text) if answered is None or answered[i] else [message(text)]
                    if thought:
                        _with_thought(written, thought)
                steps.extend(written)
            elif role == "user":
                results = written_results(text, f"{key}[{i}]", calls) if calls.unanswered and self.parse_text else None
                if results:
                    steps.extend(results)
                else:
                    steps.append(user_step(text, steps))
            elif role == "system":
                steps.append(observation(text, "system"))
                prompts.append(text)
            elif role == "call":
                steps.extend(_calls(text, f"{key}[{i}]", calls))
            else:
                steps.extend(self._tool_steps(text, f"{key}[{i}]", calls))
        if not tools and self.parse_text:
            tools = next((found for prompt in prompts if (found := tools_in_prompt(prompt))), [])
        details = {"dialect": dialect, **({"turn_fields": fields} if fields else {}), **calls.note()}
        return chat_data(self, raw, steps, tools, (*_CONSUMED, *tool_fields), details)

    def _dialect(self, turns: list[Turn], assistant: list[str], parse_calls: bool) -> str:
        if self.dialect != "auto":
            return self.dialect
        dialect = detect_dialect([t for t in assistant if not may_have_calls(t)] if parse_calls else assistant)
        if dialect == "markdown" and not any(
            ran and role == "assistant" and fenced_code(text)
            for (role, text, _), ran in zip(turns, _answered_by_output(turns))
        ):
            return "plain"  # code snippets, but none that ran: prose
        return dialect

    def _tool_steps(self, text: str, where: str, calls: Calls) -> list:
        results = tool_responses(text) if self.parse_text else None
        if results is not None and len(results) > 1:
            return result_steps(results, where, calls)
        content = results[0] if results else text
        name = calls.answer(None, where)[1] if calls.unanswered else None
        return [observation(content, "tool", name=name)]


def _with_thought(steps: list[dict], thought: str) -> None:
    """The thought written beside a turn (``thoughts``) put first in the reasoning of the turn's first step."""
    first = steps[0]
    first["reasoning"] = f"{thought}\n\n{first['reasoning']}" if first["reasoning"] else thought


def _plain_user(text: str, steps: list[dict]) -> dict:
    return observation(text, "user")


def _framed_user(text: str, steps: list[dict]) -> dict:
    """Environment output framed as such ("Observation:", ...), frame stripped; else the user's turn."""
    framed = ENV_PREFIX.match(text)
    if framed is not None:
        return observation(text[framed.end() :], "environment")
    return observation(text, "user")


def _answering_user(text: str, steps: list[dict]) -> dict:
    """Framed output, or any turn that answers an action (alfworld's feedback, CodeAct's bare output have no
    frame): environment, in every dialect that has actions, as mini_swe_agent labels the reply to a command."""
    if steps and steps[-1]["class_"] in ACTION_KINDS:
        framed = ENV_PREFIX.match(text)
        return observation(text[framed.end() :] if framed else text, "environment")
    return _framed_user(text, steps)


_USER_STEPS = {"plain": _plain_user, "react": _answering_user, "codeact": _answering_user, "markdown": _answering_user}
