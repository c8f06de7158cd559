"""The transformers backend generating with SmolLM2 for real."""

import math
import re

import pytest

from generators.llm.interface import SamplingParams
from runtime.elapsed import listening
from tests.conftest import SPENT
from tests.generators.conftest import ask

pytestmark = pytest.mark.slow  # loads SmolLM2 with transformers

QUESTIONS = ["What is 2+2?", "Name a color.", "Say hello in French."]


def test_greedy_is_reproducible_and_independent_of_batching(transformers_backend):
    params = SamplingParams(max_tokens=8)
    batched = transformers_backend.generate([ask(q) for q in QUESTIONS], params)
    alone = transformers_backend.generate([ask(QUESTIONS[2])], params)
    assert [r.texts for r in batched][2] == alone[0].texts
    assert transformers_backend.generate([ask(QUESTIONS[0])], params)[0].texts == batched[0].texts
    for result in batched:
        assert result.error is None and len(result.texts) == 1 and result.texts[0].strip()
        assert result.tokens_in > 20  # the rendered prompt includes the default system message
        assert 1 <= result.tokens_out <= 8
        assert result.finish_reasons[0] in ("stop", "length")
    # A reply that ran into max_tokens says so.
    assert any(r.finish_reasons == ["length"] and r.tokens_out == 8 for r in batched)


def test_seeded_sampling_is_reproducible_and_seed_matters(transformers_backend):
    def sample(seed: int) -> list[str]:
        params = SamplingParams(n=2, temperature=1.0, max_tokens=6, seed=seed)
        return transformers_backend.generate([ask("Write a word.")], params)[0].texts

    first = sample(11)
    assert len(first) == 2
    assert sample(11) == first
    assert sample(12) != first
    assert len(set(first)) > 1  # n samples are distinct draws


def test_stop_strings_and_logprobs(transformers_backend):
    params = SamplingParams(max_tokens=30, stop=[" "], logprobs=True)
    result = transformers_backend.generate([ask("Describe the sea in one sentence.")], params)[0]
    completion = result.completions[0]
    assert " " not in completion.text and completion.text
    assert completion.finish_reason == "stop"
    assert len(completion.logprobs) == len(completion.token_ids) == result.tokens_out
    assert all(lp <= 0.0 and math.isfinite(lp) for lp in completion.logprobs)
    assert completion.text.startswith(transformers_backend.renderer.tokenizer.decode(completion.token_ids[:1]).strip())


def test_greedy_n_gives_n_identical_samples(transformers_backend):
    result = transformers_backend.generate([ask("Hi")], SamplingParams(n=2, max_tokens=6))[0]
    assert len(result.texts) == 2 and result.texts[0] == result.texts[1]


def test_tools_render_into_the_prompt_and_replies_are_parsed(transformers_backend):
    tool = {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    }
    request = ask("What's the weather in Paris?", tools=[tool])
    prepared = transformers_backend.prepare(request, SamplingParams())
    assert "<tools>" in prepared.text and '"name": "get_weather"' in prepared.text
    result = transformers_backend.generate([request], SamplingParams(max_tokens=24))[0]
    completion = result.completions[0]
    # The 135M model rarely calls tools; whatever it says is kept, as text or as parsed calls.
    assert completion.text or completion.tool_calls
    assert all(call.name for call in completion.tool_calls)


def test_loading_the_model_says_what_it_loads_and_how_long_it_took(smol_path):
    from generators.llm.transformers_backend import TransformersBackend

    lines: list[str] = []
    backend = TransformersBackend(smol_path)
    with listening(lines.append):
        backend.generate([ask("Hi")], SamplingParams(max_tokens=1))
        backend.generate([ask("Hi again")], SamplingParams(max_tokens=1))  # loaded once: said once
    backend.close()
    doing = "loading SmolLM2-135M-Instruct with transformers (cpu, float32)"
    assert lines[0] == f"{doing} ..." and len(lines) == 2
    assert re.fullmatch(re.escape(f"{doing} ... ready in ") + SPENT, lines[1])
