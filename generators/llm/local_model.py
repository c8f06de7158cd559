"""The shared part of backends that hold the model's tokenizer: rendering and the length rule.

transformers and vLLM-offline render every prompt themselves with the model's
chat template (so the prompt in the cache key is byte-for-byte what the engine
sees); the OpenAI backend does so too when its model is a local folder.
"""

from __future__ import annotations

import time
from typing import Any

from generators.llm.interface import Backend, ChatRequest, GenerationResult, OnResult, SamplingParams
from generators.llm.model_store import model_identity, resolve_model
from generators.llm.prompting import Overflow, PreparedPrompt, PromptRenderer

DEFAULT_MAX_MODEL_LEN = 2048

# (index in the batch, request, the sampling params that apply to it, its rendered prompt)
PreparedItem = tuple[int, ChatRequest, SamplingParams, PreparedPrompt]


def load_renderer(model_path: str, max_model_len: int, overflow: Overflow) -> PromptRenderer:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_path)
    return PromptRenderer(tokenizer, max_model_len, overflow)


class LocalModelBackend(Backend):
    """A backend whose model is a local folder (or resolvable to one).

    ``dtype`` sets the numerics (part of the cache key through ``engine``);
    ``batch_size`` (prompts per engine call) is a throughput knob only.
    """

    def __init__(self, model: str | None, max_model_len: int, overflow: Overflow, dtype: str, batch_size: int):
        self.model_path = resolve_model(model)
        self._model_id = model_identity(self.model_path)
        self.max_model_len = max_model_len
        self.renderer = load_renderer(self.model_path, max_model_len, overflow)
        self.dtype = dtype
        self.batch_size = batch_size

    @property
    def model_id(self) -> dict[str, str]:
        return self._model_id

    @property
    def engine(self) -> dict[str, Any]:
        return {"backend": self.name, "dtype": self.dtype}

    def prepare(self, request: ChatRequest, params: SamplingParams) -> PreparedPrompt:
        return self.renderer.prepare(request, request.params(params).max_tokens)

    def prompt_text(self, request: ChatRequest, params: SamplingParams) -> str:
        return self.prepare(request, params).text

    def generate(
        self, requests: list[ChatRequest], params: SamplingParams, on_result: OnResult | None = None
    ) -> list[GenerationResult]:
        """Prepare all prompts, report rejects at once, and hand the rest to ``_generate_prepared``."""
        self.check(requests)
        results: list[GenerationResult | None] = [None] * len(requests)

        def deliver(i: int, result: GenerationResult) -> None:
            results[i] = result
            if on_result:
                on_result(i, result)

        todo = []
        for i, request in enumerate(requests):
            prepared = self.prepare(request, params)
            if prepared.error:
                deliver(i, GenerationResult(error=prepared.error, tokens_in=len(prepared.token_ids)))
            else:
                todo.append((i, request, request.params(params), prepared))
        if todo:
            self._generate_prepared(todo, deliver)
        return results  # type: ignore[return-value]

    def _generate_prepared(self, todo: list[PreparedItem], deliver) -> None:
        """Generate for (index, request, params, prompt) items, calling deliver(index, result) for each."""
        raise NotImplementedError


def timed_result(started: float, **fields: Any) -> GenerationResult:
    return GenerationResult(latency_s=round(time.perf_counter() - started, 4), **fields)
