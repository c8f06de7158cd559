"""The OpenAI backend against a real ``vllm serve`` of SmolLM2 on a loopback port (one server per module)."""

import json

import jsonschema
import pytest

from generators.llm.cache import GenerationCache
from generators.llm.cached import CachedGenerator
from generators.llm.interface import SamplingParams
from generators.llm.openai_backend import OpenAIBackend
from tests.generators.conftest import ANSWER_SCHEMA, CALL_SCHEMA, WEATHER, ask

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(smol_path, tmp_path_factory):
    from generators.llm.vllm_server import VllmServer

    with VllmServer(smol_path, tmp_path_factory.mktemp("vllm") / "serve.log") as running:
        yield running
    assert running.process.poll() is not None  # stopped by its process group


@pytest.fixture(scope="module")
def backend(server, smol_path):
    return OpenAIBackend(smol_path, server.base_url, max_concurrency=8)


def test_greedy_generation_matches_our_rendering_and_reproduces(backend):
    requests = [ask("What is 2+2?"), ask("Name a color."), ask("Say hello in French.")]
    params = SamplingParams(max_tokens=16)
    first = backend.generate(requests, params)
    again = backend.generate(requests, params)
    assert [r.texts for r in first] == [r.texts for r in again]
    for request, result in zip(requests, first):
        assert result.error is None and result.texts[0].strip()
        # The server's prompt is token for token the one aceforge renders (and keys the cache by).
        assert result.tokens_in == len(backend.renderer.prepare(request, 16).token_ids)
        assert 1 <= result.tokens_out <= 16


def test_seeded_samples_reproduce(backend):
    params = SamplingParams(n=2, temperature=1.0, max_tokens=10, seed=5, logprobs=True)
    first = backend.generate([ask("Write a word.")], params)[0]
    assert len(first.texts) == 2
    assert backend.generate([ask("Write a word.")], params)[0].texts == first.texts
    assert all(c.logprobs and all(lp <= 0 for lp in c.logprobs) for c in first.completions)


def test_structured_output_and_forced_tool_call(backend):
    answers = backend.generate(
        [ask("How many apples are 3+4 apples? Answer in JSON.", json_schema=ANSWER_SCHEMA)],
        SamplingParams(max_tokens=40),
    )
    jsonschema.validate(json.loads(answers[0].texts[0]), ANSWER_SCHEMA)
    result = backend.generate(
        [ask("What's the weather in Paris?", tools=[WEATHER], json_schema=CALL_SCHEMA)], SamplingParams(max_tokens=40)
    )[0]
    assert result.error is None, result.error
    call = result.completions[0]
    assert call.finish_reason == "tool_calls" and call.tool_calls[0].name == "get_weather"


def test_over_long_prompt_is_rejected_before_sending(backend):
    sent = backend.attempts
    result = backend.generate([ask("word " * 2100)], SamplingParams(max_tokens=8))[0]
    assert result.error.startswith("prompt too long")
    assert backend.attempts == sent


def test_cache_hits_do_not_depend_on_concurrency(server, smol_path, tmp_path):
    requests = [ask(f"Give me a number bigger than {i}.") for i in range(5)]
    cache = GenerationCache(tmp_path / "c.sqlite")
    params = SamplingParams(max_tokens=8)
    first = CachedGenerator(OpenAIBackend(smol_path, server.base_url, max_concurrency=5), cache).generate(
        requests, params
    )
    rerun = CachedGenerator(OpenAIBackend(smol_path, server.base_url, max_concurrency=1), cache)
    assert [r.texts for r in rerun.generate(requests, params)] == [r.texts for r in first]
    assert rerun.ledger.summary.calls == 0 and rerun.ledger.summary.cache_hits == 5


def served_requests(base_url: str) -> float:
    """Requests a vllm serve finished, from its own Prometheus metrics."""
    import httpx

    text = httpx.get(base_url.removesuffix("/v1") + "/metrics", timeout=10).text
    lines = [line for line in text.splitlines() if line.startswith("vllm:request_success_total")]
    return sum(float(line.rsplit(" ", 1)[1]) for line in lines)


def test_a_fleet_of_two_servers_shares_the_requests(server, smol_path, tmp_path):
    from generators.llm.vllm_server import VllmServer

    questions = [ask(f"Count to {i}.") for i in range(12)]
    params = SamplingParams(max_tokens=8)
    alone = OpenAIBackend(smol_path, server.base_url, max_concurrency=4).generate(questions, params)
    with VllmServer(smol_path, tmp_path / "second.log") as second:
        before = [served_requests(server.base_url), served_requests(second.base_url)]
        fleet = OpenAIBackend(smol_path, [server.base_url, second.base_url], max_concurrency=4)
        results = fleet.generate(questions, params)
        after = [served_requests(server.base_url), served_requests(second.base_url)]
    assert [r.texts for r in results] == [r.texts for r in alone]  # greedy: the same answers from either server
    assert [s.sent for s in fleet.servers] == [b - a for a, b in zip(before, after)]
    assert all(s.sent >= 3 for s in fleet.servers) and sum(s.sent for s in fleet.servers) == 12
