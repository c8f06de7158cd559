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


def code(language: str, content: str, reasoning: str | None = None, tool_call_id: str | None = None) -> dict[str, Any]:
    step = {"class_": "code_action", "language": language, "content": content, "reasoning": reasoning}
    if tool_call_id is not None:
        step["tool_call_id"] = tool_call_id
    return step


# Tools that run one shell command: the names agent frameworks give their bash tool.
SHELL_TOOLS = frozenset({"bash", "execute_bash", "run_shell_command", "shell"})


def shell_command(function: str, kwargs: dict[str, Any]) -> str | None:
    """The command of a call to a shell tool whose only argument is the command, else None.

    Every format writes a shell command as CodeAction(bash), whether the agent typed it in a fenced
    block (mini-swe-agent, SWE-agent) or called a bash tool (OpenAI tool calls, OpenHands): ADP's
    vocabulary has CodeAction for it, and one representation lets curation and training count and
    render shell steps alike. A call with more arguments (a timeout, a session) stays an ApiAction,
    so that nothing it says is lost."""
    command = kwargs.get("command") if function in SHELL_TOOLS and len(kwargs) == 1 else None
    return command if isinstance(command, str) else None


def call_step(
    function: str, kwargs: dict[str, Any], tool_call_id: str | None = None, reasoning: str | None = None
) -> dict[str, Any]:
    """A tool call as its step: CodeAction(bash) for a shell command (see shell_command), else ApiAction."""
    command = shell_command(function, kwargs)
    if command is not None:
        return code("bash", command, reasoning, tool_call_id)
    return api_call(function, kwargs, tool_call_id, reasoning)


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
