"""The `code` environment: Python function tasks with hidden tests, run in a subprocess sandbox."""

from environments.code.env import CodeEnvironment
from environments.code.sandbox import SandboxLimits, SandboxResult, run_python
from environments.code.task import EXAMPLE_TASKS, CodeTask, example_task

__all__ = [
    "CodeEnvironment",
    "CodeTask",
    "EXAMPLE_TASKS",
    "SandboxLimits",
    "SandboxResult",
    "example_task",
    "run_python",
]
