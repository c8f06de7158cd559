"""Configuration of a generation backend, shared by every stage that calls a model.

``BackendConfig`` is the one place where the backend's knobs and their
defaults are written down: ``aceforge generate``, the judge, synthesis and
evaluation all embed it (as a base or a section) instead of repeating them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Self

from pydantic import Field, field_validator, model_validator

from generators.llm.interface import SamplingParams
from generators.llm.local_model import DEFAULT_MAX_MODEL_LEN
from generators.llm.prompting import Overflow
from schemas.stage_config import StageConfig

if TYPE_CHECKING:  # the generator stack is imported by make_generator: commands' flags need only these configs
    from generators.llm.cached import CachedGenerator


class BackendConfig(StageConfig):
    backend: str | None = None
    """Generation backend: transformers, vllm, openai or a plug-in's name (default: vllm with a GPU, else transformers)."""
    model: str = "default"
    """'default' (SmolLM2-135M-Instruct), a model folder, a .gguf file, or a served model name (openai)."""
    base_url: list[str] = Field(default_factory=list)
    """OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1 (openai backend only); give it more than once
    for a fleet of servers: requests go to whichever has the most free room."""
    max_model_len: int = Field(DEFAULT_MAX_MODEL_LEN, ge=16)
    """Context length: prompt + max_tokens must fit."""
    overflow: Overflow = "reject"
    """Over-long prompts: reject them, or truncate (drop the oldest turns)."""
    dtype: Literal["auto", "bfloat16", "float16", "float32"] = "auto"
    """Weights and compute of a local model (transformers, vllm); auto: the backend's own (vllm bfloat16,
    transformers float32). On a CPU without AVX512-BF16, float32 runs vllm several times faster."""
    batch_size: int | None = Field(None, ge=1)
    """Requests per engine call (throughput only, not in the cache key; default: the backend's own)."""
    max_concurrency: int = Field(32, ge=1)
    """Most requests in flight to the server (openai backend; throughput only)."""
    cache: bool = True
    """Cache results by content under the data directory, so a killed run resumes without regenerating."""

    @field_validator("backend")
    @classmethod
    def _known_backend(cls, name: str | None) -> str | None:
        if name is None:  # the default: nothing to check, and no backend registry to import
            return name
        from generators.llm.backends import BACKENDS

        if name not in BACKENDS:
            raise ValueError(f"unknown backend {name!r}; choose one of {', '.join(sorted(BACKENDS))}")
        return name

    @field_validator("base_url", mode="before")
    @classmethod
    def _one_url_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value

    @model_validator(mode="after")
    def _server_for_openai(self) -> Self:
        if self.backend == "openai" and not self.base_url:
            raise ValueError("backend openai needs --base-url (base_url), e.g. http://127.0.0.1:8000/v1")
        return self

    def backend_name(self) -> str:
        from generators.llm.backends import default_backend

        return self.backend or default_backend()

    def backend_options(self) -> dict:
        """Constructor arguments for the chosen backend (only those it takes)."""
        name = self.backend_name()
        options: dict = {"max_model_len": self.max_model_len, "overflow": self.overflow}
        if name == "openai":
            return {**options, "base_url": self.base_url, "max_concurrency": self.max_concurrency}
        if self.dtype != "auto":
            options["dtype"] = self.dtype
        return {**options, **({"batch_size": self.batch_size} if self.batch_size else {})}

    def make_generator(self) -> CachedGenerator:
        """The backend behind the result cache (unless ``cache`` is off) and a fresh ledger."""
        from generators.llm.backends import make_generator

        return make_generator(
            self.backend_name(),
            self.model,
            self.cache,
            chunk_size=self.batch_size or 256,
            **self.backend_options(),
        )


class GenerateConfig(BackendConfig, SamplingParams):
    """``aceforge generate``: a backend and the sampling parameters of every request."""

    def sampling(self) -> SamplingParams:
        return SamplingParams(**{name: getattr(self, name) for name in SamplingParams.model_fields})
