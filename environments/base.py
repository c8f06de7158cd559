"""The one protocol every executable environment follows.

reset (seeded, or from a saved state) -> tools -> call(name, arguments) ->
state / state_hash. A failed call returns an error ToolResult and leaves the
state unchanged, so replaying a trajectory is deterministic.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import orjson

from schemas.record import Tool, canonical_json


@dataclass(frozen=True)
class ToolResult:
    ok: bool
    content: Any = None  # JSON-able result on success
    error: str | None = None  # a stable, human-readable message on failure

    def as_text(self) -> str:
        """The observation text an agent sees (and a trajectory records)."""
        if not self.ok:
            return f"Error: {self.error}"
        if isinstance(self.content, str):
            return self.content
        return orjson.dumps(self.content, option=orjson.OPT_SORT_KEYS).decode()


def canonical_hash(value: Any) -> str:
    """sha256 of canonical JSON (sorted keys, no whitespace)."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


class ToolEnvironment(ABC):
    name: str
    policy: str = ""

    @abstractmethod
    def reset(self, seed: int | None = None, state: dict[str, Any] | None = None) -> None:
        """Start over: from ``state`` when given, else from a seeded initial state."""

    @abstractmethod
    def tools(self) -> list[Tool]:
        """Tools with JSON-schema parameters and read/write access."""

    @abstractmethod
    def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Run one tool; errors come back as ToolResult(ok=False), never as exceptions."""

    @abstractmethod
    def state(self) -> dict[str, Any]:
        """The full current state, JSON-able (a deep copy or an immutable view)."""

    def state_hash(self) -> str:
        return canonical_hash(self.state())
