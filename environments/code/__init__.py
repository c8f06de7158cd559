"""The `code` environment: Python function tasks with hidden tests, run in a bubblewrap sandbox."""

from environments.code.config import SandboxConfig, SandboxLimits, sandbox_config
from environments.code.env import CodeEnvironment
from environments.code.sandbox import SandboxResult, run_python
from environments.code.task import EXAMPLE_TASKS, CodeTask, example_task

__all__ = [
    "CodeEnvironment",
    "CodeTask",
    "EXAMPLE_TASKS",
    "SandboxConfig",
    "SandboxLimits",
    "SandboxResult",
    "example_task",
    "run_python",
    "sandbox_config",
]
