"""What every verifier shares: the check context, the result constructor, the verifier base class.

A verifier is a pure check of one record: it reads the record (and what
earlier checks in the chain left in the context, e.g. the replayed
environment) and returns a VerifierResult with stable reason codes. It never
mutates the record and never raises for bad input: the runner turns an
unexpected exception into the reason ``verifier_error:<Type>``.

A verifier declares what it needs and how its failure weighs, and the runner
reads only these declarations (never the verifier's type or name):
``needs_env`` (it builds the record's environment through
``ctx.env_factory``), ``needs_model`` (it asks ``ctx.model``, a
``schemas.generation.Generator``), ``hard`` (a failure stops the chain).
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from environments.base import ToolEnvironment
from environments.registry import EnvironmentFactory, get_environment
from schemas.generation import Generator
from schemas.record import AgentRecord, Tool, VerifierResult


def default_env_factory(name: str, **kwargs: Any) -> ToolEnvironment:
    return get_environment(name, **kwargs)


@dataclass
class CheckContext:
    """One record under verification, plus what the chain has learned about it so far."""

    record: AgentRecord
    # None: no environment can be built here (stages that need one are unavailable).
    env_factory: EnvironmentFactory | None = default_env_factory
    # None: no model was given (stages that need one are unavailable).
    model: Generator | None = None
    # Filled by the replay verifier: the environments at the start and at the end of τ.
    initial_env: ToolEnvironment | None = None
    final_env: ToolEnvironment | None = None
    # Per replayed call: {"step", "tool", "arguments", "ok", "access", "changed", "rows"} (see replay.py).
    write_log: list[dict[str, Any]] = field(default_factory=list)
    live_tools: list[Tool] | None = None
    # What later stages derive from the above and share (e.g. the money each write moved): computed once.
    memo: dict[str, Any] = field(default_factory=dict)

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
            if env.name and self.env_factory is not None:
                # An unknown or broken environment: every call is then an unknown tool.
                with contextlib.suppress(Exception):
                    self.live_tools = self.env_factory(env.name, **dict(env.sandbox.get("env_params", {}))).tools()
        return {t.name: t for t in self.live_tools}


class RecordVerifier(ABC):
    name: str = ""
    version: str = "1"
    # A failure makes later checks meaningless (they would judge a trajectory that never happened): the chain
    # stops there with score 0.
    hard: bool = False
    # Builds the record's environment through ctx.env_factory, or reads what a stage that did left in ctx.
    needs_env: bool = False
    # Asks ctx.model. Model calls are the costly ones: such a stage runs only when every earlier stage passed.
    needs_model: bool = False
    # The reason code when a need was not given (default: <need>_unavailable, e.g. environment_unavailable).
    unavailable_reason: str | None = None

    @abstractmethod
    def check(self, ctx: CheckContext) -> VerifierResult: ...

    def missing(self, ctx: CheckContext) -> list[str]:
        """The declared needs that ``ctx`` does not provide."""
        needs = (("environment", self.needs_env, ctx.env_factory), ("model", self.needs_model, ctx.model))
        return [need for need, wanted, given in needs if wanted and given is None]

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

    def unavailable(self, missing: list[str]) -> VerifierResult:
        """No verdict (passed None, not a failure): what the stage needs (``environment``, ``model``) was not given."""
        own = [self.unavailable_reason] if self.unavailable_reason else []
        return VerifierResult(
            passed=None,
            score=None,
            reasons=own or [f"{need}_unavailable" for need in missing],
            evidence={"missing": missing},
            verifier=self.name,
            version=self.version,
        )
