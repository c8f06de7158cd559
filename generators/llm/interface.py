"""The one batch interface every generation backend implements.

The request and result types (ChatRequest, SamplingParams, GenerationResult,
...) and the caller's view of a generator (``Generator``) live in
schemas/generation.py, below every package that calls a model; they are
re-exported here. ``Backend`` is the base class a backend implements: a caller
hands a list of ChatRequests and one SamplingParams to ``Backend.generate`` and
gets back one GenerationResult per request, in order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from schemas.generation import (
    Capabilities,
    ChatRequest,
    Completion,
    FinishReason,
    GenerationError,
    GenerationResult,
    Generator,
    OnResult,
    SamplingParams,
    ToolCall,
)

__all__ = [
    "Backend",
    "Capabilities",
    "ChatRequest",
    "Completion",
    "FinishReason",
    "GenerationError",
    "GenerationResult",
    "Generator",
    "OnResult",
    "SamplingParams",
    "ToolCall",
]


class Backend(ABC):
    """A generation backend. Subclasses set ``name`` and ``capabilities``."""

    name: str = "backend"
    capabilities: Capabilities = Capabilities()

    @property
    @abstractmethod
    def model_id(self) -> dict[str, str]:
        """Model identity for cache keys and lineage: {"model": ..., "hash": ...}."""

    @abstractmethod
    def generate(
        self,
        requests: list[ChatRequest],
        params: SamplingParams,
        on_result: OnResult | None = None,
    ) -> list[GenerationResult]:
        """One result per request, in order; ``on_result(i, result)`` is called as each completes."""

    @property
    def engine(self) -> dict[str, Any]:
        """Engine settings that change outputs (same seed, other engine: other sample); part of cache keys."""
        return {"backend": self.name}

    @abstractmethod
    def prompt_text(self, request: ChatRequest, params: SamplingParams) -> str:
        """The exact prompt the model would see (after the length rule), for cache keys."""

    def check(self, requests: list[ChatRequest]) -> None:
        """Refuse, before any generation starts, requests this backend cannot serve."""
        for i, request in enumerate(requests):
            if request.tools and not self.capabilities.supports_tools:
                raise ValueError(f"request {i}: backend {self.name} does not support tools")
            if request.json_schema is not None and not self.capabilities.supports_json_schema:
                raise ValueError(f"request {i}: backend {self.name} does not support JSON-schema output")

    def close(self) -> None:  # noqa: B027  a no-op by default: most backends hold nothing to release
        """Release engines, servers or clients; safe to call twice."""
