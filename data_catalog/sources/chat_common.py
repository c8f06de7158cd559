"""Pieces shared by the chat-shaped formats (openai_chat, sharegpt, the τ-bench ones).

Message content, tool lists and tool-call arguments arrive in a few shapes
(a string or a list of parts; a list or a JSON string; a dict or a JSON
string). These helpers turn each into one shape, or raise a ConversionError
that says which message or call is wrong. Tool calls arrive in the message's
own fields, written as text in it (text_tool_calls.py), or listed beside it
(``actions: [{API_name, API_params}]``); ``Calls`` links each result to its call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from data_catalog.sources.base import ConversionError, Converter, each_object, require_content
from data_catalog.sources.instructions import task_instruction
from data_catalog.sources.step_dicts import SHELL_OPTIONS, call_step, image, observation, take_shell_options
from data_catalog.sources.text_tool_calls import framed_observation, may_have_calls, text_calls, tool_responses
from schemas.record import AgentRecord, Tool, VerifierResult

# Where datasets put the tool list, and what a tool's or a call's parts are called.
TOOL_FIELDS = ("tools", "available_tools", "functions")
_CALL_NAMES = ("name", "API_name", "api_name", "function")
_CALL_ARGUMENTS = ("arguments", "API_params", "api_params", "parameters", "args")
_SCHEMA_FIELDS = ("parameters", "input_schema", "inputSchema")
TEXT_CALLS_OPTION = {
    "text_calls": "tool calls written in messages (<tool_call>{...}</tool_call>, <function=name>...): "
    "auto (default: parsed when present) or off"
}
ORPHANS_OPTION = {
    "orphan_results": "a tool result that answers no earlier call: quarantine (default: the whole record) or keep "
    "(an unlinked tool observation; the record's details.orphan_tool_results says where)"
}
ORPHANS_NOTE = "orphan_tool_results"


def keeps_orphans(extra: dict[str, str]) -> bool:
    """Whether option ``orphan_results`` (ORPHANS_OPTION) says keep."""
    value = extra.get("orphan_results", "quarantine")
    if value not in ("quarantine", "keep"):
        raise ValueError(f"option orphan_results must be quarantine or keep, not {value!r}")
    return value == "keep"


def content_parts(content: Any, where: str) -> tuple[str, list[str]]:
    """The text and the image URLs of a message ``content`` (a string, None, or a list of parts)."""
    text, images, reasoning, calls = message_parts(content, where)
    if reasoning is not None or calls:
        kind = "reasoning" if reasoning is not None else "tool_call"
        raise ConversionError(f"{where}: a {kind!r} part outside an assistant message")
    return text, images


def message_parts(content: Any, where: str) -> tuple[str, list[str], str | None, list[dict[str, Any]]]:
    """A message ``content`` as (text, image URLs, reasoning, calls ``{name, arguments}``).

    Parts are OpenAI's ``{type: text, text}`` / ``{type: image_url, image_url}`` or LLaMA-Factory v1's
    ``{type: text | reasoning | tool_call | image_url, value}`` (a tool_call's value is a JSON string of
    ``{name, arguments}``): reading only ``text`` would make every v1 message empty."""
    if isinstance(content, str):
        return content, [], None, []
    if content is None:
        return "", [], None, []
    if not isinstance(content, list):
        raise ConversionError(f"{where}: content is {type(content).__name__}, expected a string or a list of parts")
    texts: list[str] = []
    images: list[str] = []
    reasoning: list[str] = []
    calls: list[dict[str, Any]] = []
    for i, part in enumerate(content):
        if part is None:  # a null part says nothing (ATIF writers emit one for an empty result)
            continue
        if isinstance(part, str):
            texts.append(part)
            continue
        kind = part.get("type") if isinstance(part, dict) else type(part).__name__
        value = part.get("text", part.get("value")) if isinstance(part, dict) else None
        if kind == "text":
            texts.append(value or "")
        elif kind == "image_url":
            url = part.get("image_url", part.get("value"))
            images.append(url.get("url", "") if isinstance(url, dict) else str(url))
        elif kind == "reasoning" and isinstance(value, str):
            reasoning.append(value)
        elif kind == "tool_call" and isinstance(value, (str, dict)):
            call = json_value(value, f"{where} content[{i}]: tool_call is") if isinstance(value, str) else value
            calls.extend(call if isinstance(call, list) else [call])
        else:
            raise ConversionError(f"{where}: unsupported content part {kind!r}")
    return "\n".join(texts), images, "\n".join(reasoning) if reasoning else None, calls


_NATIVE_CALL_FIELDS = ("tool_calls", "tool_call_id", "function_call")


def bare_messages(value: Any) -> list[dict[str, Any]] | None:
    """``value`` when it is a bare list of role messages (``json.dump(messages)``: one conversation), else None."""
    if isinstance(value, list) and value and all(isinstance(m, dict) and "role" in m for m in value):
        return value
    return None


def openai_signals(messages: list[Any]) -> int:
    """How surely role/content messages are OpenAI chat rather than a ShareGPT-like conversation:
    3 when they carry OpenAI's own call fields (tool_calls, tool_call_id, function_call), which only
    openai_chat reads; 2 for tool turns, calls written in the text, or content parts; else 0."""
    found = 0
    for msg in messages:
        if not isinstance(msg, dict):
            continue
        if any(msg.get(key) for key in _NATIVE_CALL_FIELDS):
            return 3
        role, content = msg.get("role"), msg.get("content")
        written = role == "assistant" and isinstance(content, str) and may_have_calls(content)
        if written or role in ("tool", "function", "developer") or isinstance(content, list):
            found = 2
    return found


def observation_steps(content: Any, source: str, where: str, **fields: Any) -> list[dict[str, Any]]:
    """A text observation (plus one image observation per image part) for one incoming message."""
    text, images = content_parts(content, where)
    steps = [observation(text, source, **fields)]
    steps.extend(image(url, source) for url in images)
    return steps


def optional_text(message: dict[str, Any], field: str, where: str) -> str | None:
    """A message's optional string field (a name, a reasoning), as it is; anything but a string or None
    is a ConversionError that names it."""
    value = message.get(field)
    if value is not None and not isinstance(value, str):
        raise ConversionError(f"{where}: {field} is {type(value).__name__}, expected a string")
    return value


def json_value(text: str, subject: str) -> Any:
    """``text`` parsed as JSON; otherwise a ConversionError "<subject> not valid JSON", with an excerpt
    (``subject`` carries its verb: "field 'tools' is", "messages[3] tool_calls[0]: arguments are")."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise ConversionError(f"{subject} not valid JSON ({exc}): {text[:200]!r}") from None


def parse_arguments(arguments: Any, where: str) -> dict[str, Any]:
    """Tool-call arguments (a dict, or a JSON string of an object; empty means none) as a dict."""
    if isinstance(arguments, dict):
        return arguments
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        return {}
    if not isinstance(arguments, str):
        raise ConversionError(f"{where}: arguments are {type(arguments).__name__}, expected an object or a JSON string")
    value = json_value(arguments, f"{where}: arguments are")
    if not isinstance(value, dict):
        raise ConversionError(f"{where}: arguments are JSON {type(value).__name__}, expected an object")
    return value


def plain_call(call: dict[str, Any], where: str) -> tuple[None, str, dict[str, Any]]:
    """A call without an id: ``{name, arguments}`` or ``{API_name, API_params}`` (and their kin)."""
    name = next((call[k] for k in _CALL_NAMES if isinstance(call.get(k), str)), None)
    if not name:
        raise ConversionError(f"{where} has no function name")
    arguments = next((call[k] for k in _CALL_ARGUMENTS if k in call), None)
    return None, name, parse_arguments(arguments, where)


class Calls:
    """Tool calls made so far in a conversation, to link each result to the call it answers."""

    def __init__(self, keep_orphans: bool = False) -> None:
        self.names: dict[str, str] = {}  # call id -> function name
        self.unanswered: list[tuple[str | None, str]] = []  # (call id, function name), oldest first
        self.written = False  # whether the calls waiting for results were written in a turn's text
        self.keep_orphans = keep_orphans
        self.orphans: list[str] = []  # where each kept result that answers no call was, and why

    def _orphan(self, why: str) -> tuple[None, None]:
        if not self.keep_orphans:
            raise ConversionError(why)
        self.orphans.append(why)
        return None, None

    def note(self) -> dict[str, Any]:
        """What the record's details say about kept orphan results (nothing when there were none)."""
        return {ORPHANS_NOTE: self.orphans} if self.orphans else {}

    def add(self, call_id: str | None, name: str) -> None:
        if call_id is not None:
            self.names[call_id] = name
        self.unanswered.append((call_id, name))

    def answer(self, call_id: str | None, where: str) -> tuple[str | None, str | None]:
        """(call id, function name) of the call a result answers; (None, None) for an orphan that is kept."""
        if call_id is None:
            if not self.unanswered:
                return self._orphan(f"{where}: tool result answers no earlier call")
            return self.unanswered.pop(0)
        if call_id not in self.names:
            return self._orphan(f"{where}: tool result for tool_call_id {call_id!r} answers no earlier call")
        self.unanswered = [c for c in self.unanswered if c[0] != call_id]
        return call_id, self.names[call_id]


def call_steps(
    text: str,
    thought: str | None,
    raw_calls: list[Any],
    where: str,
    parse_call: Callable[[dict[str, Any], str], tuple[Any, str, dict[str, Any]]],
    register: Callable[[Any, str], None],
) -> list[dict[str, Any]]:
    """The steps of an assistant message that makes tool calls: one ApiAction per call, read by
    ``parse_call(call, where) -> (id, name, kwargs)`` (each format has its call shape) and passed to
    ``register(id, name)`` so that later tool results can be linked to it. Text sent along with the
    calls is the lead-in to them, so it becomes the *first call's* reasoning (after the model's own):
    the turn stays one action group and renders back as one message."""
    lead = "\n\n".join(part for part in (thought, text) if part) or None
    steps = []
    for at, call in each_object(raw_calls, f"{where} tool_calls"):
        call_id, name, kwargs = parse_call(call, at)
        register(call_id, name)
        steps.append(call_step(name, kwargs, call_id, None if steps else lead))
    return steps


def written_call_steps(
    text: str, thought: str | None, actions: Any, where: str, calls: Calls, parse_text: bool
) -> list[dict[str, Any]] | None:
    """The steps of an assistant turn whose calls are written in its text or listed beside it
    (``actions``); None when it makes no such call."""
    found = text_calls(text) if parse_text and may_have_calls(text) else None
    if found is not None:
        prose, calls_in_text = found
        listed = [{"name": name, "arguments": arguments} for name, arguments in calls_in_text]
        calls.written = True
        return call_steps(prose, thought, listed, where, plain_call, calls.add)
    if not actions:
        return None
    if not isinstance(actions, list):
        raise ConversionError(f"{where}: actions is {type(actions).__name__}, expected a list of calls")
    return call_steps(text, thought, actions, f"{where} actions", plain_call, calls.add)


def written_results(text: str, where: str, calls: Calls) -> list[dict[str, Any]] | None:
    """A user turn that is really the output of calls written as text (``<tool_response>`` blocks,
    ``OBSERVATION:``), as tool observations answering them; None when it is not, or no call waits.
    After calls written in the text, the user turn that follows is their output even when unframed
    (an error message, "Your command ran successfully..."): such calls have no other channel back."""
    if not calls.unanswered:
        return None
    results = tool_responses(text)
    if results is None:
        output = framed_observation(text)
        if output is None and calls.written:
            output = text
        results = None if output is None else [output]
    return None if results is None else result_steps(results, where, calls)


def result_steps(results: list[str], where: str, calls: Calls) -> list[dict[str, Any]]:
    """One tool observation per result, each answering the oldest unanswered call."""
    steps = []
    for result in results:
        call_id, name = calls.answer(None, where)
        steps.append(observation(result, "tool", name, call_id))
    return steps


def split_turn_extras(extra: dict[str, Any]) -> tuple[str | None, Any, dict[str, Any]]:
    """Fields beside a turn's message: (its reasoning ``thoughts``, its calls ``actions``, the rest)."""
    rest = dict(extra)
    thought = rest.pop("thoughts", None) or rest.pop("thought", None)
    if thought is not None and not isinstance(thought, str):
        rest["thoughts"] = thought
        thought = None
    return thought, rest.pop("actions", None), rest


def parse_tools(value: Any, field: str = "tools") -> list[Tool]:
    """A tool list: OpenAI function tools ``{"type": "function", "function": {...}}`` or bare
    ``{name, description, parameters}`` objects (MCP's ``inputSchema`` too), as a list or a JSON string of one."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        value = json_value(value, f"field {field!r} is")
    if not isinstance(value, list):
        raise ConversionError(f"field {field!r} is {type(value).__name__}, expected a list")
    tools = []
    for i, item in enumerate(value):
        spec = item.get("function", item) if isinstance(item, dict) else None
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
            raise ConversionError(f"{field}[{i}] has no function name")
        parameters = next((spec[k] for k in _SCHEMA_FIELDS if spec.get(k)), None) or {
            "type": "object",
            "properties": {},
        }
        tools.append(Tool(name=spec["name"], description=spec.get("description") or "", parameters=parameters))
    return tools


def record_tools(raw: dict[str, Any]) -> tuple[list[Tool], tuple[str, ...]]:
    """The tools a chat record declares under the first of TOOL_FIELDS it has, and the fields read
    (an empty one is read too: it says nothing; a second tool list stays in details)."""
    for field in TOOL_FIELDS:
        if raw.get(field):
            return parse_tools(raw[field], field), (*(f for f in TOOL_FIELDS if f in raw and not raw[f]), field)
    return [], tuple(f for f in TOOL_FIELDS if f in raw)


def environment_kind(tools: list[Tool], steps: list[dict[str, Any]]) -> str:
    """What the agent acted in, judged by its declared tools and the actions it took: tool_use with a tool or an
    API call, else shell when every code action is bash, code_sandbox when one is not, chat without actions."""
    if tools:
        return "tool_use"
    bash_only = None  # None: no code action yet
    for step in steps:
        kind = step["class_"]
        if kind == "api_action":
            return "tool_use"
        if kind == "code_action" and bash_only is not False:
            bash_only = step["language"] == "bash"
    return "chat" if bash_only is None else "shell" if bash_only else "code_sandbox"


def chat_data(
    converter: Converter,
    raw: dict[str, Any],
    steps: list[dict[str, Any]],
    tools: list[Tool],
    consumed: tuple[str, ...],
    details: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The plain data of one chat record (see record_rows.py); top-level fields not in ``consumed``
    are kept in details. A boolean ``resolved`` (SWE-smith: the patch passed the tests) is the verdict.
    ``AgentRecord.model_validate`` of it is the record."""
    require_content(steps)
    shell_options = take_shell_options(steps)
    original = raw.get("id")
    original_id = None if original in (None, "") else str(original)
    verifier = resolved_verdict(raw.get("resolved"))
    extra = {k: v for k, v in raw.items() if k not in consumed and k != "id" and not (k == "resolved" and verifier)}
    if details:
        extra.update(details)
    if shell_options:
        extra[SHELL_OPTIONS] = shell_options
    return {
        "id": converter.record_id(original_id, raw),
        "environment": {"kind": environment_kind(tools, steps), "tools": tools},
        "task": {"instruction": task_instruction(steps)},
        "trajectory": steps,
        "source": {
            "dataset": converter.dataset,
            "format": converter.name,
            "original_id": original_id,
            "license": converter.opts.license,
        },
        "details": extra,
        **({"verifier": verifier} if verifier else {}),
    }


def resolved_verdict(resolved: Any) -> dict[str, Any] | None:
    """The unit-test verdict a source states as ``resolved: true|false`` (SWE-smith, SWE-Gym), as
    mini-coder's ``verified`` and nebius's ``target`` are read; None when it states none."""
    if not isinstance(resolved, bool):
        return None
    result = VerifierResult(
        passed=resolved, score=float(resolved), evidence={"resolved": resolved}, verifier="swe-bench"
    )
    return {"kind": "unit_tests", "result": result.model_dump(mode="json")}


class ChatConverter(Converter):
    """A chat format: it builds each record as plain data (``record_data``), validated into an AgentRecord
    by ``convert`` and written as a row straight from the data in bulk conversion."""

    def record_data(self, raw: Any) -> dict[str, Any]:
        raise NotImplementedError

    def convert(self, raw: Any) -> AgentRecord:
        return AgentRecord.model_validate(self.record_data(raw))

    def convert_row(self, raw: Any) -> tuple[str, dict[str, Any]]:
        from data_catalog.record_rows import row_from_data

        data = self.record_data(raw)
        return data["id"], row_from_data(data)
