"""Trajectory steps as plain dicts, for converters that build whole records at once.

A converter that builds its steps as dicts and validates the finished record
with one ``AgentRecord.model_validate`` call lets pydantic-core check every
step in Rust; constructing each step model in Python first costs about twice
as much, and for chat formats with many short turns that is most of the
conversion time. The dicts have exactly the fields of schemas/steps.py, so
validation still rejects anything malformed.
"""

from __future__ import annotations

import shlex
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
SHELL_TOOLS = frozenset({"bash", "execute_bash", "run_shell_command", "shell", "exec_command"})


_SHELL_PROGRAMS = frozenset({"bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh"})
SHELL_OPTIONS = "shell_call_options"  # the details key that keeps a shell call's other arguments, by step index


def shell_command(function: str, kwargs: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The command of a call to a shell tool and the call's other arguments (a working directory, a
    timeout), else None.

    Every format writes a shell command as CodeAction(bash), whether the agent typed it in a fenced
    block (mini-swe-agent, SWE-agent) or called a bash tool (OpenAI tool calls, OpenHands, Codex): ADP's
    vocabulary has CodeAction for it, and one representation lets curation and training count and
    render shell steps alike, whatever else the call says. A command given as an argv list is the
    script of ``bash -lc SCRIPT`` (Codex writes it so) or else the list joined as the shell would read
    it. The other arguments go to the record's details (``SHELL_OPTIONS``), so nothing is lost."""
    if function.lower() not in SHELL_TOOLS:  # Claude Code's is "Bash"
        return None
    key = "command" if "command" in kwargs else "cmd"  # Inspect's bash tool and Codex's exec_command say cmd
    command = kwargs.get(key)
    if isinstance(command, list) and command and all(isinstance(word, str) for word in command):
        script = len(command) == 3 and command[0] in _SHELL_PROGRAMS and command[1] in ("-c", "-lc")
        command = command[2] if script else shlex.join(command)
    if not isinstance(command, str):
        return None
    return command, {k: v for k, v in kwargs.items() if k != key}


def call_step(
    function: str, kwargs: dict[str, Any], tool_call_id: str | None = None, reasoning: str | None = None
) -> dict[str, Any]:
    """A tool call as its step: CodeAction(bash) for a shell command (see shell_command), else ApiAction.
    A shell call's other arguments ride on the step under SHELL_OPTIONS until ``take_shell_options``
    moves them to the record's details."""
    shell = shell_command(function, kwargs)
    if shell is None:
        return api_call(function, kwargs, tool_call_id, reasoning)
    step = code("bash", shell[0], reasoning, tool_call_id)
    if shell[1]:
        step[SHELL_OPTIONS] = shell[1]
    return step


def take_shell_options(steps: list[Any]) -> dict[str, dict[str, Any]]:
    """The other arguments of the shell calls among ``steps`` (plain dicts or models), by step index,
    taken off the steps (a step has no field for them; the record's details keep them)."""
    return {
        str(i): step.pop(SHELL_OPTIONS)
        for i, step in enumerate(steps)
        if isinstance(step, dict) and SHELL_OPTIONS in step
    }


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
