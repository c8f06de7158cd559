"""Call helpers shared by the domain tests: a call that must succeed, a call that must be refused."""

from __future__ import annotations

from typing import Any

from environments.base import ToolEnvironment


def succeed(env: ToolEnvironment, name: str, **arguments: Any) -> Any:
    result = env.call(name, arguments)
    assert result.ok, result.error
    return result.content


def refused(env: ToolEnvironment, name: str, **arguments: Any) -> str:
    """The error message; asserts that the failed call left the state (and its hash) unchanged."""
    before = env.state_hash()
    result = env.call(name, arguments)
    assert not result.ok
    assert env.state_hash() == before
    return result.error
