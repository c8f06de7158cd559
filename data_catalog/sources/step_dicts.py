"""Trajectory steps as plain dicts, for converters that build whole records at once.

A converter that builds its steps as dicts and validates the finished record
with one ``AgentRecord.model_validate`` call lets pydantic-core check every
step in Rust; constructing each step model in Python first costs about twice
as much, and for chat formats with many short turns that is most of the
conversion time. The dicts have exactly the fields of schemas/steps.py, so
validation still rejects anything malformed.
"""

from __future__ import annotations

from typing import Any

ACTION_KINDS = frozenset({"api_action", "code_action"})  # actions whose reply is environment or tool output


def message(content: str, reasoning: str | None = None) -> dict[str, Any]:
    return {"class_": "message_action", "content": content, "reasoning": reasoning}


def api_call(
    function: str, kwargs: dict[str, Any], tool_call_id: str | None = None, reasoning: str | None = None
) -> dict[str, Any]:
    return {
        "class_": "api_action",
        "function": function,
        "kwargs": kwargs,
        "tool_call_id": tool_call_id,
        "reasoning": reasoning,
    }


def code(language: str, content: str, reasoning: str | None = None) -> dict[str, Any]:
    return {"class_": "code_action", "language": language, "content": content, "reasoning": reasoning}


def observation(content: str, source: str, name: str | None = None, tool_call_id: str | None = None) -> dict[str, Any]:
    return {
        "class_": "text_observation",
        "content": content,
        "source": source,
        "name": name,
        "tool_call_id": tool_call_id,
    }


def image(url: str, source: str) -> dict[str, Any]:
    return {"class_": "image_observation", "content": url, "source": source}
