"""Usage accounting: tokens, model calls, cache hits and time, per run and per record.

A "call" is one request handed to a backend, whether it generated or was
refused (refusals are also counted in ``errors``); cache hits are counted
apart. Wall time is measured per backend batch, so throughput is tokens out
over the time the engine was busy.
"""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass, field
from typing import Any

from generators.llm.interface import GenerationResult, SamplingParams
from schemas.record import Lineage


@dataclass
class RunSummary:
    calls: int = 0
    cache_hits: int = 0
    errors: int = 0
    completions: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    batches: int = 0
    wall_s: float = 0.0
    notices: dict[str, int] = field(default_factory=dict)

    @property
    def tokens_per_s(self) -> float:
        return self.tokens_out / self.wall_s if self.wall_s > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "tokens_per_s": round(self.tokens_per_s, 2)}


class Ledger:
    """Collects usage as results arrive (thread-safe; async backends report from a loop thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.summary = RunSummary()

    def record_result(self, result: GenerationResult) -> None:
        with self._lock:
            s = self.summary
            if result.cached:
                s.cache_hits += 1
                return
            s.calls += 1
            if result.error:
                s.errors += 1
            if result.notice:
                reason = result.notice.split(":")[0]
                s.notices[reason] = s.notices.get(reason, 0) + 1
            s.completions += len(result.completions)
            s.tokens_in += result.tokens_in
            s.tokens_out += result.tokens_out

    def record_batch(self, wall_s: float) -> None:
        with self._lock:
            self.summary.batches += 1
            self.summary.wall_s += wall_s


def generator_info(backend: str, model_id: dict[str, str], params: SamplingParams) -> dict[str, Any]:
    """The lineage.generator block: which backend and model, with which sampling and seed."""
    return {
        "backend": backend,
        "model": model_id["model"],
        "model_hash": model_id["hash"],
        "sampling": params.model_dump(),
        "seed": params.seed,
    }


def usage_of(results: list[GenerationResult]) -> dict[str, Any]:
    """The lineage.usage block for a record built from one or more generation results."""
    return {
        "calls": sum(not r.cached for r in results),
        "cache_hits": sum(r.cached for r in results),
        "tokens_in": sum(r.tokens_in for r in results),
        "tokens_out": sum(r.tokens_out for r in results),
        "latency_s": round(sum(r.latency_s for r in results), 4),
    }


def with_generation(
    lineage: Lineage, backend: str, model_id: dict[str, str], params: SamplingParams, results: list[GenerationResult]
) -> Lineage:
    """A copy of ``lineage`` carrying the generator and the usage of ``results``."""
    return lineage.model_copy(
        update={"generator": generator_info(backend, model_id, params), "usage": usage_of(results)}
    )
