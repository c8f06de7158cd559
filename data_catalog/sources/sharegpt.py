"""ShareGPT conversations: ``{"conversations" | "messages": [{from, value} | {role, content}], "system"?, "tools"?, "id"?}``.

Roles: human/user; gpt/assistant/model; system; observation/tool/function
(tool results); function_call/tool_call (a JSON call ``{name, arguments}``
or a list of them, LLaMA-Factory style). System prompts are kept as
TextObservation(source="system"), which ADP drops.

How assistant turns write actions depends on the dialect (option
``dialect``; ``auto`` detects it per record, see text_actions.py):
``react``, ``codeact``, ``markdown`` or ``plain``. User turns are
``source="user"``, except environment output: in every dialect but
``plain`` a turn framed as output ("Observation:", "The output of the OS:",
"Execution result:") is ``source="environment"`` with the frame stripped,
and in ``react`` any turn that answers an ApiAction or CodeAction is too
(alfworld's feedback has no frame; ADP labels it user).
"""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import ConversionError, Converter, ConvertOptions, register
from data_catalog.sources.chat_common import chat_record, content_parts, json_value, parse_arguments, parse_tools
from data_catalog.sources.step_dicts import ACTION_KINDS, api_call, observation
from data_catalog.sources.text_actions import ASSISTANT_PARSERS, DIALECTS, ENV_PREFIX, detect_dialect
from schemas.record import AgentRecord

_ROLES = {
    "human": "user", "user": "user",
    "gpt": "assistant", "assistant": "assistant", "model": "assistant", "chatgpt": "assistant",
    "system": "system",
    "observation": "tool", "tool": "tool", "function": "tool", "function_response": "tool", "ipython": "tool",
    "function_call": "call", "tool_call": "call",
}  # fmt: skip
_CONSUMED = ("conversations", "messages", "system", "tools")
_MISSING = object()


def _turns(raw: Any) -> tuple[str, list[tuple[str, str]]]:
    """The field holding the turns, and (role, text) for each turn, roles mapped to user/assistant/system/tool/call."""
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
        if type(text) is not str:
            text, images = content_parts(text, f"{key}[{i}]")
            if images:
                raise ConversionError(f"{key}[{i}]: image content is not supported in sharegpt")
        out.append((role, text))
    return key, out


def _calls(text: str, where: str) -> list[dict]:
    """A function_call turn: a JSON object ``{name, arguments}`` or a list of them."""
    value = json_value(text, f"{where}: function call is")
    calls = value if isinstance(value, list) else [value]
    actions = []
    for call in calls:
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            raise ConversionError(f"{where}: function call has no name")
        actions.append(api_call(call["name"], parse_arguments(call.get("arguments"), where)))
    return actions


@register
class ShareGPTConverter(Converter):
    name = "sharegpt"
    description = "ShareGPT conversations (from/value or role/content) with ReAct, CodeAct, markdown or plain dialects."
    options = {"dialect": f"how assistant turns write actions: auto (default, per record), {', '.join(DIALECTS)}"}

    def __init__(self, options: ConvertOptions | None = None):
        super().__init__(options)
        self.dialect = self.opts.extra.get("dialect", "auto")
        if self.dialect not in ("auto", *DIALECTS):
            raise ValueError(f"format 'sharegpt' has no dialect {self.dialect!r}; known: auto, {', '.join(DIALECTS)}")

    def convert(self, raw: Any) -> AgentRecord:
        key, turns = _turns(raw)
        dialect = self.dialect
        if dialect == "auto":
            dialect = detect_dialect(text for role, text in turns if role == "assistant")
        steps: list = []
        system = raw.get("system")
        if system is not None and not isinstance(system, str):
            raise ConversionError(f"field 'system' is {type(system).__name__}, expected a string")
        if system:
            steps.append(observation(system, "system"))
        parse = ASSISTANT_PARSERS[dialect]
        pending: list[str] = []  # names of function calls not yet answered
        for i, (role, text) in enumerate(turns):
            if role == "assistant":
                steps.extend(parse(text))
            elif role == "user":
                steps.append(self._user_step(text, dialect, steps))
            elif role == "system":
                steps.append(observation(text, "system"))
            elif role == "call":
                actions = _calls(text, f"{key}[{i}]")
                pending.extend(a["function"] for a in actions)
                steps.extend(actions)
            else:
                steps.append(observation(text, "tool", name=pending.pop(0) if pending else None))
        tools = parse_tools(raw.get("tools"))
        return chat_record(
            raw, self.name, self.dataset, self.opts.license, steps, tools, _CONSUMED, {"dialect": dialect}
        )

    @staticmethod
    def _user_step(text: str, dialect: str, steps: list[dict]) -> dict:
        if dialect == "plain":
            return observation(text, "user")
        framed = ENV_PREFIX.match(text)
        if framed is not None:
            return observation(text[framed.end() :], "environment")
        if dialect == "react" and steps and steps[-1]["class_"] in ACTION_KINDS:
            return observation(text, "environment")
        return observation(text, "user")
