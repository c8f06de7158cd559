"""What every verifier shares: the check context, the result constructor, the verifier base class.

A verifier is a pure check of one record: it reads the record (and what
earlier checks in the chain left in the context, e.g. the replayed
environment) and returns a VerifierResult with stable reason codes. It never
mutates the record and never raises for bad input: the runner turns an
unexpected exception into the reason ``verifier_error:<Type>``.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from environments.base import ToolEnvironment
from schemas.record import AgentRecord, Tool, VerifierResult

EnvFactory = Callable[..., ToolEnvironment]


def default_env_factory(name: str, **kwargs: Any) -> ToolEnvironment:
    from environments.registry import get_environment

    return get_environment(name, **kwargs)


@dataclass
class CheckContext:
    """One record under verification, plus what the chain has learned about it so far."""

    record: AgentRecord
    env_factory: EnvFactory = default_env_factory
    # Filled by the replay verifier: the environments at the start and at the end of τ.
    initial_env: ToolEnvironment | None = None
    final_env: ToolEnvironment | None = None
    # Per replayed call: {"step", "tool", "ok", "access", "changed"} (see replay.py).
    write_log: list[dict[str, Any]] = field(default_factory=list)
    live_tools: list[Tool] | None = None

    @property
    def spec(self) -> dict[str, Any]:
        return self.record.verifier.spec

    def tools(self) -> dict[str, Tool]:
        """The tools the agent was given (E.tools), else those of the named live environment."""
        env = self.record.environment
        if env.tools:
            return {t.name: t for t in env.tools}
        if self.live_tools is None:
            self.live_tools = []
            if env.name:
                # An unknown or broken environment: every call is then an unknown tool.
                with contextlib.suppress(Exception):
                    self.live_tools = self.env_factory(env.name, **dict(env.sandbox.get("env_params", {}))).tools()
        return {t.name: t for t in self.live_tools}


class RecordVerifier(ABC):
    name: str = ""
    version: str = "1"
    # A hard failure makes later checks meaningless (the chain stops there).
    hard: bool = False

    @abstractmethod
    def check(self, ctx: CheckContext) -> VerifierResult: ...

    def result(
        self,
        passed: bool,
        score: float | None = None,
        reasons: list[str] | None = None,
        evidence: dict[str, Any] | None = None,
    ) -> VerifierResult:
        return VerifierResult(
            passed=passed,
            score=(1.0 if passed else 0.0) if score is None else round(float(score), 6),
            reasons=list(dict.fromkeys(reasons or [])),  # unique, in first-seen order
            evidence=evidence or {},
            verifier=self.name,
            version=self.version,
        )
