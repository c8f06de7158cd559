"""Backends by name, so configs and the CLI can pick one with a string.

``BACKENDS`` is the backend registry (runtime/plugins.py). Modules are imported
on demand: choosing transformers never imports vLLM. An installed package adds
a backend (a ``Backend`` subclass whose ``name`` is its registry name, taking
``model=`` and keyword options) through the ``aceforge.backends`` entry points.
"""

from __future__ import annotations

from typing import Any

from generators.llm.cache import GenerationCache
from generators.llm.cached import CachedGenerator
from generators.llm.interface import Backend
from runtime.plugins import Registry, named_subclass

BACKENDS: Registry[type[Backend]] = Registry(
    "backends",
    "backend",
    {
        "transformers": "generators.llm.transformers_backend:TransformersBackend",
        "vllm": "generators.llm.vllm_backend:VllmBackend",
        "openai": "generators.llm.openai_backend:OpenAIBackend",
    },
    check=named_subclass(Backend),
)


def default_backend() -> str:
    """vLLM where there is a GPU; transformers on a CPU-only machine."""
    import torch

    return "vllm" if torch.cuda.is_available() else "transformers"


def make_backend(name: str | None = None, model: str | None = "default", **options: Any) -> Backend:
    return BACKENDS.get(name or default_backend())(model=model, **options)


def make_generator(
    name: str | None = None, model: str | None = "default", cache: bool = True, chunk_size: int = 256, **options: Any
) -> CachedGenerator:
    """A backend behind the default cache (under the data directory) and a fresh ledger."""
    backend = make_backend(name, model, **options)
    return CachedGenerator(backend, GenerationCache() if cache else None, chunk_size=chunk_size)
