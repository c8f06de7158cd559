"""The `code` environment: write a Python function, try it in the sandbox, submit it.

Tools: ``run_python`` (read: runs code in a fresh sandbox and returns its
status and output; the hidden tests are never run here) and ``submit_solution``
(write: the submitted code becomes the state that the unit-test verifier
checks). The state is ``{"task_id", "submission", "submissions"}``, so replay
and state hashes work as in the tool worlds. A record names its task with
``E.sandbox["env_params"] = {"task_id": ...}``.

Sandbox limits and the episode's time budget are the operator's
(environments/code/config.py), never a record's: ``env_params`` name the task
and nothing else. Once ``record_budget_s`` of sandbox time is spent,
``run_python`` answers ``budget_exhausted`` without running, so a replayed
record of many slow calls costs at most one budget plus one wall limit.
"""

from __future__ import annotations

from typing import Any

from environments.base import ToolEnvironment, ToolResult
from environments.code.config import sandbox_config
from environments.code.sandbox import run_python
from schemas.record import Tool

CODE_PARAMS = {
    "type": "object",
    "properties": {"code": {"type": "string", "description": "Python source"}},
    "required": ["code"],
    "additionalProperties": False,
}
POLICY = (
    "Write the requested Python function. You may run code with run_python (no network, no files outside "
    "the working directory, a few seconds of CPU). Submit the final code with submit_solution; "
    "hidden unit tests decide whether it is correct."
)


class CodeEnvironment(ToolEnvironment):
    """Python function tasks with hidden unit tests, run in a bubblewrap sandbox."""

    name = "code"
    policy = POLICY

    def __init__(
        self,
        task_id: str = "task",
        seed: int = 0,
        state: dict[str, Any] | None = None,
    ):
        # The environment never sees the hidden tests: they live in q, for the verifier only.
        self.task_id = task_id
        config = sandbox_config()
        self.limits, self.budget_left_s = config.limits, config.record_budget_s
        self.reset(seed=seed, state=state)

    def reset(self, seed: int | None = None, state: dict[str, Any] | None = None) -> None:
        # The seed has nothing to vary: a code task's start state is the empty submission.
        self._state = (
            dict(state) if state is not None else {"task_id": self.task_id, "submission": None, "submissions": 0}
        )

    def tools(self) -> list[Tool]:
        return [
            Tool(
                name="run_python",
                description="Run Python code in a sandbox; returns status, stdout and stderr.",
                parameters=CODE_PARAMS,
                access="read",
            ),
            Tool(
                name="submit_solution",
                description="Submit the final code of the function.",
                parameters=CODE_PARAMS,
                access="write",
            ),
        ]

    def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        code = arguments.get("code") if isinstance(arguments, dict) else None
        if name not in ("run_python", "submit_solution"):
            return ToolResult(ok=False, error=f"unknown tool '{name}'")
        if not isinstance(code, str):
            return ToolResult(ok=False, error=f"invalid arguments for {name}: 'code' must be a string")
        if name == "submit_solution":
            self._state = {**self._state, "submission": code, "submissions": self._state["submissions"] + 1}
            return ToolResult(ok=True, content="submitted")
        if self.budget_left_s <= 0:
            return ToolResult(ok=True, content={"status": "budget_exhausted", "stdout": "", "stderr": ""})
        limits = self.limits.model_copy(update={"wall_s": min(self.limits.wall_s, self.budget_left_s)})
        result = run_python(code, limits=limits)
        self.budget_left_s -= result.wall_s
        return ToolResult(ok=True, content={"status": result.status, "stdout": result.stdout, "stderr": result.stderr})

    def state(self) -> dict[str, Any]:
        return dict(self._state)
