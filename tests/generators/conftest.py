"""Shared fixtures for generator tests: one vLLM engine on the default model; ``ask``; tool schemas; torch on one
thread."""

from __future__ import annotations

import pytest

from generators.llm.interface import ChatRequest

ANSWER_SCHEMA = {
    "type": "object",
    "properties": {
        "answer": {"type": "integer"},
        "unit": {"type": "string", "enum": ["apples", "pears"]},
    },
    "required": ["answer", "unit"],
    "additionalProperties": False,
}
WEATHER = {
    "name": "get_weather",
    "description": "Weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
# A schema that only admits a call of the one tool: forces the plain-JSON tool-call style.
CALL_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"const": "get_weather"},
        "arguments": {
            "type": "object",
            "properties": {"city": {"type": "string", "maxLength": 20}},
            "required": ["city"],
            "additionalProperties": False,
        },
    },
    "required": ["name", "arguments"],
    "additionalProperties": False,
}


def ask(text: str, **kw) -> ChatRequest:
    """A one-message user request."""
    return ChatRequest(messages=[{"role": "user", "content": text}], **kw)


@pytest.fixture(scope="session")
def smol_tokenizer(smol_path):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smol_path)


@pytest.fixture(scope="session")
def transformers_backend(smol_path):
    """One loaded model for every transformers test (loading costs seconds on a shared CPU)."""
    from generators.llm.transformers_backend import TransformersBackend

    backend = TransformersBackend(smol_path, batch_size=4)
    yield backend
    backend.close()


@pytest.fixture(scope="package")
def smol_vllm_engine(smol_path):
    """One vLLM engine on SmolLM2 for every generator test that needs one: starting one takes 30-40 s on a CPU.

    float32: CPUs without AVX512-BF16 emulate bfloat16, several times slower for batches (see bench/rollouts.py).
    """
    from generators.llm.vllm_backend import VllmBackend

    backend = VllmBackend(smol_path, max_model_len=6144, dtype="float32", batch_size=64)
    yield backend
    backend.close()


@pytest.fixture
def one_torch_thread():
    """On two shared cores, two spinning torch threads run several times slower than one."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
