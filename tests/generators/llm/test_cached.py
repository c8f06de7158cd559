"""The cache in front of a real backend (transformers + SmolLM2)."""

import pytest

from generators.llm.cache import GenerationCache
from generators.llm.cached import CachedGenerator
from generators.llm.interface import SamplingParams
from tests.generators.conftest import ask

pytestmark = pytest.mark.slow  # loads SmolLM2 with transformers

PARAMS = SamplingParams(max_tokens=8)


def test_second_run_is_served_from_cache_even_with_another_batch_size(transformers_backend, tmp_path, monkeypatch):
    requests = [ask("Name a fruit."), ask("Name a river."), ask("Name a fruit."), ask("Count to three.")]
    cache = GenerationCache(tmp_path / "c.sqlite")
    first = CachedGenerator(transformers_backend, cache, chunk_size=4)
    delivered = {}
    results = first.generate(requests, PARAMS, on_result=lambda i, r: delivered.setdefault(i, r))
    assert sorted(delivered) == [0, 1, 2, 3]
    assert first.ledger.summary.calls == 3  # the duplicate request is generated once
    assert results[0].texts == results[2].texts
    assert all(r.texts[0] and not r.cached for r in results)
    assert len(cache) == 3

    monkeypatch.setattr(transformers_backend, "batch_size", 1)  # a throughput knob: must not matter
    again = CachedGenerator(transformers_backend, cache, chunk_size=1)
    rerun = again.generate(requests, PARAMS)
    assert again.ledger.summary.calls == 0 and again.ledger.summary.cache_hits == 4
    assert [r.texts for r in rerun] == [r.texts for r in results]
    assert all(r.cached for r in rerun)

    changed = again.generate([ask("Name a fruit.")], SamplingParams(max_tokens=8, seed=1, temperature=0.8))
    assert again.ledger.summary.calls == 1 and not changed[0].cached


def test_failed_requests_are_returned_but_not_cached(transformers_backend, tmp_path):
    cache = GenerationCache(tmp_path / "c.sqlite")
    generator = CachedGenerator(transformers_backend, cache)
    too_long = ask("word " * 3000)
    results = generator.generate([too_long, ask("Hi")], PARAMS)
    assert results[0].error.startswith("prompt too long") and results[0].completions == []
    assert results[1].error is None and results[1].texts[0]
    assert len(cache) == 1
    assert generator.ledger.summary.errors == 1


def test_capabilities_are_checked_before_anything_runs(transformers_backend, tmp_path):
    generator = CachedGenerator(transformers_backend, GenerationCache(tmp_path / "c.sqlite"))
    with pytest.raises(ValueError, match="request 1: backend transformers does not support JSON-schema output"):
        generator.generate([ask("a"), ask("b", json_schema={"type": "object"})], PARAMS)
    assert generator.ledger.summary.calls == 0
