"""Shared fixtures for generator tests: the default model folder, converted once and kept; ``ask``.

The converted SmolLM2 folder lives in <repo>/aceforge-data/models (git-ignored)
unless ACEFORGE_MODELS says otherwise, so the 20-second conversion happens once
per checkout rather than once per test; tests that use their own data home
(the ``data_home`` fixture) still find it.
"""

from __future__ import annotations

import os

import pytest

from generators.interface import ChatRequest
from tests.conftest import ROOT

os.environ.setdefault("ACEFORGE_MODELS", str(ROOT / "aceforge-data" / "models"))


def ask(text: str, **kw) -> ChatRequest:
    """A one-message user request."""
    return ChatRequest(messages=[{"role": "user", "content": text}], **kw)


@pytest.fixture(scope="session")
def smol_path() -> str:
    from generators.model_store import prepare_default_model

    return str(prepare_default_model())


@pytest.fixture(scope="session")
def smol_tokenizer(smol_path):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smol_path)


@pytest.fixture(scope="session")
def transformers_backend(smol_path):
    """One loaded model for every transformers test (loading costs seconds on a shared CPU)."""
    from generators.transformers_backend import TransformersBackend

    backend = TransformersBackend(smol_path, batch_size=4)
    yield backend
    backend.close()
