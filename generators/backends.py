"""Backends by name, so configs and the CLI can pick one with a string.

Modules are imported on demand: choosing transformers never imports vLLM.
"""

from __future__ import annotations

import importlib
from typing import Any

from generators.cache import GenerationCache
from generators.cached import CachedGenerator
from generators.interface import Backend

BACKENDS = {
    "transformers": ("generators.transformers_backend", "TransformersBackend"),
    "vllm": ("generators.vllm_backend", "VllmBackend"),
    "openai": ("generators.openai_backend", "OpenAIBackend"),
}


def default_backend() -> str:
    """vLLM where there is a GPU; transformers on a CPU-only machine."""
    import torch

    return "vllm" if torch.cuda.is_available() else "transformers"


def make_backend(name: str | None = None, model: str | None = "default", **options: Any) -> Backend:
    name = name or default_backend()
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; choose one of {sorted(BACKENDS)}")
    module, cls = BACKENDS[name]
    return getattr(importlib.import_module(module), cls)(model=model, **options)


def make_generator(
    name: str | None = None, model: str | None = "default", cache: bool = True, chunk_size: int = 256, **options: Any
) -> CachedGenerator:
    """A backend behind the default cache (under the data directory) and a fresh ledger."""
    backend = make_backend(name, model, **options)
    return CachedGenerator(backend, GenerationCache() if cache else None, chunk_size=chunk_size)
