"""Any backend behind the content cache and the usage ledger: what pipelines call.

For a batch it computes every request's key, takes what the cache has, sends
only the rest to the backend, in chunks, and stores each result the moment
the backend delivers it. A run killed halfway therefore restarts where it
stopped: cached results come back unchanged, nothing is generated twice, and
identical requests within a batch are generated once. Failed requests (too
long, refused) are returned but never cached, so a later run retries them.
"""

from __future__ import annotations

import time

from generators.llm.cache import GenerationCache, cache_key
from generators.llm.interface import Backend, ChatRequest, GenerationResult, OnResult, SamplingParams
from generators.llm.ledger import Ledger


class CachedGenerator:
    def __init__(
        self,
        backend: Backend,
        cache: GenerationCache | None = None,
        ledger: Ledger | None = None,
        chunk_size: int = 256,
    ):
        """``cache=None`` turns caching off; ``chunk_size`` (a throughput knob) bounds each backend call."""
        self.backend = backend
        self.cache = cache
        self.ledger = ledger or Ledger()
        self.chunk_size = chunk_size

    @property
    def capabilities(self):
        return self.backend.capabilities

    @property
    def model_id(self) -> dict[str, str]:
        return self.backend.model_id

    def key(self, request: ChatRequest, params: SamplingParams) -> str:
        prompt = self.backend.prompt_text(request, params)
        return cache_key(self.backend.model_id, self.backend.engine, prompt, request, request.params(params))

    def generate(
        self, requests: list[ChatRequest], params: SamplingParams, on_result: OnResult | None = None
    ) -> list[GenerationResult]:
        self.backend.check(requests)
        keys = [self.key(r, params) for r in requests]
        found = self.cache.get_many(keys) if self.cache is not None else {}
        results: list[GenerationResult | None] = [None] * len(requests)
        pending: dict[str, list[int]] = {}
        for i, key in enumerate(keys):
            if key in found:
                results[i] = found[key].model_copy(update={"cached": True})
                self._deliver(i, results[i], on_result)
            else:
                pending.setdefault(key, []).append(i)
        todo = list(pending.items())
        for start in range(0, len(todo), self.chunk_size):
            chunk = todo[start : start + self.chunk_size]

            def store(j: int, result: GenerationResult, chunk=chunk) -> None:
                key, indices = chunk[j]
                if self.cache is not None and result.error is None:
                    self.cache.put(key, result)
                self.ledger.record_result(result)
                for i in indices:
                    results[i] = result
                    if on_result:
                        on_result(i, result)

            started = time.perf_counter()
            self.backend.generate([requests[indices[0]] for _, indices in chunk], params, on_result=store)
            self.ledger.record_batch(time.perf_counter() - started)
        return results  # type: ignore[return-value]

    def _deliver(self, i: int, result: GenerationResult, on_result: OnResult | None) -> None:
        self.ledger.record_result(result)
        if on_result:
            on_result(i, result)

    def close(self) -> None:
        self.backend.close()
        if self.cache is not None:
            self.cache.close()
