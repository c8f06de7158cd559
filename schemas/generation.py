"""The batch generation interface, as data: what callers send to a model and what comes back.

A caller hands a list of ChatRequests and one SamplingParams to a generator's
``generate`` and gets back one GenerationResult per request, in order. These
types live here, below every package that calls a model, so that verifiers (the
LLM judge), generators (the backends) and later stages share one definition
without importing each other; ``generators.llm.interface`` re-exports them next
to the ``Backend`` base class that backends implement.

``Generator`` is what a caller may rely on: a backend, or a backend behind the
content cache (``generators.llm.cached.CachedGenerator``), both satisfy it.
Backends say what they can do through ``Capabilities``; callers check those
flags instead of the backend's type. A request that cannot be served (too
long, rejected by the server) comes back as a result with ``error`` set, so one
bad request never sinks the batch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator

from schemas.record import Tool
from schemas.stage_config import StageConfig

OnResult = Callable[[int, "GenerationResult"], None]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SamplingParams(StageConfig):
    """Everything here changes outputs and is part of the cache key."""

    n: int = Field(1, ge=1)
    """Samples per request."""
    temperature: float = Field(0.0, ge=0.0)
    """Sampling temperature; 0 means greedy."""
    top_p: float = Field(1.0, gt=0.0, le=1.0)
    """Nucleus sampling mass."""
    max_tokens: int = Field(256, ge=1)
    """Most tokens to generate per sample."""
    stop: list[str] = Field(default_factory=list)
    """Stop strings (repeatable)."""
    seed: int | None = 0
    """Sampling seed. Deterministic by default; rollouts that want distinct samples pass distinct seeds."""
    logprobs: bool = False
    """Return the log-probability of each generated token."""

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0


class ToolCall(_Model):
    """One parsed call; ``arguments`` is always a JSON object."""

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class ChatRequest(_Model):
    messages: list[dict[str, Any]]
    # OpenAI function-tool dicts or schemas.record.Tool; normalized by generators.llm.tool_calls.normalize_tools.
    tools: list[dict[str, Any] | Tool] | None = None
    json_schema: dict[str, Any] | None = None
    # Per-request override of the batch's sampling params (e.g. a distinct seed per rollout).
    sampling: SamplingParams | None = None

    @field_validator("messages")
    @classmethod
    def _non_empty(cls, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not messages:
            raise ValueError("a chat request needs at least one message")
        for message in messages:
            if "role" not in message:
                raise ValueError(f"message without a role: {message!r}")
        return messages

    @field_validator("json_schema")
    @classmethod
    def _valid_schema(cls, schema: dict[str, Any] | None) -> dict[str, Any] | None:
        # An invalid schema fails here, before any generation starts.
        if schema is not None:
            import jsonschema  # here, not at the top: importing the request types stays light

            try:
                jsonschema.Draft202012Validator.check_schema(schema)
            except jsonschema.SchemaError as exc:
                raise ValueError(f"invalid JSON schema: {exc.message}") from exc
        return schema

    def params(self, default: SamplingParams) -> SamplingParams:
        """The sampling params that apply to this request."""
        return self.sampling or default


FinishReason = Literal["stop", "length", "tool_calls"]


class Completion(_Model):
    """One of the n samples for a request."""

    text: str
    tool_calls: list[ToolCall] = Field(default_factory=list)
    # Tool-call markup that did not parse: the text keeps it, this says why.
    tool_call_errors: list[str] = Field(default_factory=list)
    finish_reason: FinishReason = "stop"
    token_ids: list[int] | None = None
    logprobs: list[float] | None = None


class GenerationResult(_Model):
    completions: list[Completion] = Field(default_factory=list)
    tokens_in: int = 0
    tokens_out: int = 0
    latency_s: float = 0.0
    # Set when the request was not generated (too long, rejected); completions are then empty.
    error: str | None = None
    # A note about input that was changed by rule (e.g. "truncated: dropped 3 messages").
    notice: str | None = None
    cached: bool = False

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self.completions]

    @property
    def tool_calls(self) -> list[list[ToolCall]]:
        return [c.tool_calls for c in self.completions]

    @property
    def finish_reasons(self) -> list[str]:
        return [c.finish_reason for c in self.completions]


@dataclass(frozen=True)
class Capabilities:
    supports_tools: bool = False
    supports_json_schema: bool = False
    supports_logprobs: bool = False


class GenerationError(RuntimeError):
    """The backend as a whole cannot serve (server down after retries, engine failed)."""


class Generator(Protocol):
    """What a caller may use of a backend, cached or not."""

    @property
    def model_id(self) -> dict[str, str]:
        """Model identity for cache keys, lineage and evidence: {"model": ..., "hash": ...}."""
        ...

    def generate(
        self, requests: list[ChatRequest], params: SamplingParams, on_result: OnResult | None = None
    ) -> list[GenerationResult]:
        """One result per request, in order; ``on_result(i, result)`` is called as each completes."""
        ...
