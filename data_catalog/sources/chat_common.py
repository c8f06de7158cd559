"""Pieces shared by the chat-shaped formats (openai_chat, sharegpt, the τ-bench ones).

Message content, tool lists and tool-call arguments arrive in a few shapes
(a string or a list of parts; a list or a JSON string; a dict or a JSON
string). These helpers turn each into one shape, or raise a ConversionError
that says which message or call is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from data_catalog.sources.base import ConversionError, each_object
from data_catalog.sources.step_dicts import api_call, image, observation
from schemas.adp import first_user_text
from schemas.record import AgentRecord, Tool, record_id


def content_parts(content: Any, where: str) -> tuple[str, list[str]]:
    """The text and the image URLs of a message ``content`` (a string, None, or a list of parts)."""
    if isinstance(content, str):
        return content, []
    if content is None:
        return "", []
    if not isinstance(content, list):
        raise ConversionError(f"{where}: content is {type(content).__name__}, expected a string or a list of parts")
    texts: list[str] = []
    images: list[str] = []
    for part in content:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("type") == "text":
            texts.append(part.get("text") or "")
        elif isinstance(part, dict) and part.get("type") == "image_url":
            url = part.get("image_url")
            images.append(url.get("url", "") if isinstance(url, dict) else str(url))
        else:
            kind = part.get("type") if isinstance(part, dict) else type(part).__name__
            raise ConversionError(f"{where}: unsupported content part {kind!r}")
    return "\n".join(texts), images


def observation_steps(content: Any, source: str, where: str, **fields: Any) -> list[dict[str, Any]]:
    """A text observation (plus one image observation per image part) for one incoming message."""
    text, images = content_parts(content, where)
    steps = [observation(text, source, **fields)]
    steps.extend(image(url, source) for url in images)
    return steps


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
        steps.append(api_call(name, kwargs, call_id, None if steps else lead))
    return steps


def parse_tools(value: Any) -> list[Tool]:
    """A tool list: OpenAI function tools ``{"type": "function", "function": {...}}`` or bare
    ``{name, description, parameters}`` objects, as a list or as a JSON string of one."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        value = json_value(value, "field 'tools' is")
    if not isinstance(value, list):
        raise ConversionError(f"field 'tools' is {type(value).__name__}, expected a list")
    tools = []
    for i, item in enumerate(value):
        spec = item.get("function", item) if isinstance(item, dict) else None
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
            raise ConversionError(f"tools[{i}] has no function name")
        parameters = spec.get("parameters") or {"type": "object", "properties": {}}
        tools.append(Tool(name=spec["name"], description=spec.get("description") or "", parameters=parameters))
    return tools


def environment_kind(tools: list[Tool], steps: list[dict[str, Any]]) -> str:
    """What the agent acted in, judged by its declared tools and the actions it took."""
    kinds = {s["class_"] for s in steps}
    if tools or "api_action" in kinds:
        return "tool_use"
    if "code_action" in kinds:
        languages = {s["language"] for s in steps if s["class_"] == "code_action"}
        return "shell" if languages == {"bash"} else "code_sandbox"
    return "chat"


def chat_record(
    raw: dict[str, Any],
    fmt: str,
    dataset: str,
    license: str | None,
    steps: list[dict[str, Any]],
    tools: list[Tool],
    consumed: tuple[str, ...],
    details: dict[str, Any] | None = None,
) -> AgentRecord:
    """The AgentRecord of one chat record, validated in one call (see step_dicts.py);
    top-level fields not in ``consumed`` are kept in details."""
    original = raw.get("id")
    original_id = None if original in (None, "") else str(original)
    extra = {k: v for k, v in raw.items() if k not in consumed and k != "id"}
    if details:
        extra.update(details)
    record = AgentRecord.model_validate(
        {
            "id": record_id(dataset, fmt, original_id, fallback=raw),
            "environment": {"kind": environment_kind(tools, steps), "tools": tools},
            "trajectory": steps,
            "source": {"dataset": dataset, "format": fmt, "original_id": original_id, "license": license},
            "details": extra,
        }
    )
    record.task.instruction = first_user_text(record.trajectory)
    return record
