"""Fixtures for the training tests: SmolLM2's tokenizer and the template aceforge trains it with."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def smol_tokenizer(smol_path):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smol_path)


@pytest.fixture(scope="session")
def training_template(smol_tokenizer) -> str:
    from training.chat_template import training_chat_template

    return training_chat_template(smol_tokenizer)
