"""Generation throughput: aceforge's backends beside the bare engines they wrap, and the cache-hit path.

1. vLLM offline: the same chat prompts through ``CachedGenerator(VllmBackend)``
   (rendering, length rule, cache writes included) and through bare
   ``vllm.LLM.chat`` on the same engine, alternating for a few rounds.
2. OpenAI-compatible: the same prompts through ``CachedGenerator(OpenAIBackend)``
   and through the bare ``openai.AsyncOpenAI`` client with the same concurrency,
   against one ``vllm serve`` of the same model.
3. The cache-hit path: a fully cached rerun, in results/s.

Prefix caching is off in both engines so that a later round does not reuse
an earlier round's prompts. Each path starts from an empty aceforge cache.
Figures: completion tokens/s (best round of each) and the ratio aceforge/bare.

    python bench/generation.py                    # 64 prompts, 64 tokens, 3 rounds
    python bench/generation.py --skip-openai --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

TOPICS = ["the sea", "a mountain", "bread", "a library", "rain", "a city at night", "bees", "a violin"]
ASKS = [
    "Write one sentence about {}.",
    "Give three words that describe {}.",
    "Explain {} to a child.",
    "Write a short title for a story about {}.",
    "What is interesting about {}?",
    "Describe {} in a haiku.",
    "List two facts about {}.",
    "Ask a question about {}.",
]


def prompts(count: int) -> list[list[dict]]:
    pairs = [(ask, topic) for ask in ASKS for topic in TOPICS]
    return [
        [{"role": "user", "content": ask.format(topic)}] for ask, topic in (pairs * (count // len(pairs) + 1))[:count]
    ]


def _rate(tokens: int, seconds: float) -> str:
    return f"{tokens / seconds:8.1f} tok/s ({tokens} tokens in {seconds:.2f} s)"


def _report(name: str, ours: list[tuple[int, float]], bare: list[tuple[int, float]]) -> None:
    best_ours = max(t / s for t, s in ours)
    best_bare = max(t / s for t, s in bare)
    print(
        f"{name}: aceforge best {best_ours:.1f} tok/s, bare best {best_bare:.1f} tok/s, "
        f"ratio {best_ours / best_bare:.3f} (target >= 0.95)"
    )


def _compare(
    tag: str, title: str, messages, max_tokens: int, rounds: int, cache_dir: Path, bare_tokens, backend_for_round
) -> None:
    """Alternate ``bare_tokens()`` (completion tokens) with aceforge on a fresh cache, ``rounds`` times; report."""
    from generators.llm.cache import GenerationCache
    from generators.llm.cached import CachedGenerator
    from generators.llm.interface import ChatRequest, SamplingParams

    requests = [ChatRequest(messages=m) for m in messages]
    params = SamplingParams(max_tokens=max_tokens)
    ours, bare = [], []
    for r in range(rounds):
        start = time.perf_counter()
        tokens = bare_tokens()
        bare.append((tokens, time.perf_counter() - start))
        generator = CachedGenerator(backend_for_round(), GenerationCache(cache_dir / f"{tag}-{r}.sqlite"))
        start = time.perf_counter()
        results = generator.generate(requests, params)
        ours.append((sum(x.tokens_out for x in results), time.perf_counter() - start))
        print(f"  {tag} round {r}: bare {_rate(*bare[-1])} | aceforge {_rate(*ours[-1])}")
    _report(title, ours, bare)
    bench_cache_hits(generator, requests, params)


def bench_vllm(model: str, messages: list[list[dict]], max_tokens: int, rounds: int, cache_dir: Path) -> None:
    from vllm import SamplingParams as VllmSampling

    from generators.llm.vllm_backend import VllmBackend

    backend = VllmBackend(model, enable_prefix_caching=False)
    bare_params = VllmSampling(max_tokens=max_tokens, temperature=0.0, seed=0)
    llm = backend._loaded()
    llm.chat(messages[:4], bare_params, use_tqdm=False)  # warm-up

    def bare_tokens() -> int:
        outputs = llm.chat(messages, bare_params, use_tqdm=False)
        return sum(len(o.outputs[0].token_ids) for o in outputs)

    _compare("vllm", "vllm offline", messages, max_tokens, rounds, cache_dir, bare_tokens, lambda: backend)
    backend.close()


def bench_cache_hits(generator, requests, params) -> None:
    start = time.perf_counter()
    results = generator.generate(requests, params)
    seconds = time.perf_counter() - start
    assert all(r.cached for r in results), "the rerun should be served from the cache"
    print(f"cache-hit path: {len(results) / seconds:.0f} results/s ({len(results)} results in {seconds * 1000:.1f} ms)")


async def _bare_openai(base_url: str, model: str, messages, max_tokens: int, concurrency: int) -> int:
    import openai

    client = openai.AsyncOpenAI(base_url=base_url, api_key="EMPTY")
    gate = asyncio.Semaphore(concurrency)

    async def one(m) -> int:
        async with gate:
            response = await client.chat.completions.create(
                model=model, messages=m, max_tokens=max_tokens, temperature=0.0, seed=0
            )
            return response.usage.completion_tokens

    try:
        return sum(await asyncio.gather(*(one(m) for m in messages)))
    finally:
        await client.close()


def bench_openai(model: str, messages, max_tokens: int, rounds: int, cache_dir: Path) -> None:
    from generators.llm.openai_backend import OpenAIBackend
    from generators.llm.vllm_server import VllmServer

    concurrency = len(messages)
    with VllmServer(model, cache_dir / "serve.log", extra_args=["--no-enable-prefix-caching"]) as server:
        asyncio.run(_bare_openai(server.base_url, model, messages[:4], max_tokens, 4))  # warm-up
        _compare(
            "openai",
            "openai (vllm serve)",
            messages,
            max_tokens,
            rounds,
            cache_dir,
            lambda: asyncio.run(_bare_openai(server.base_url, model, messages, max_tokens, concurrency)),
            lambda: OpenAIBackend(model, server.base_url, max_concurrency=concurrency),
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prompts", type=int, default=64, help="number of chat prompts")
    parser.add_argument("--max-tokens", type=int, default=64, help="tokens generated per prompt")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per comparison")
    parser.add_argument("--model", default="default", help="model folder (default: SmolLM2 from its GGUF)")
    parser.add_argument("--skip-vllm", action="store_true", help="skip the offline comparison")
    parser.add_argument("--skip-openai", action="store_true", help="skip the server comparison")
    args = parser.parse_args()

    from generators.llm.model_store import resolve_model

    model = resolve_model(args.model)
    messages = prompts(args.prompts)
    print(f"model {model}; {len(messages)} prompts, {args.max_tokens} tokens each, greedy; {args.rounds} rounds")
    with tempfile.TemporaryDirectory(prefix="aceforge-bench-") as tmp:
        if not args.skip_vllm:
            bench_vllm(model, messages, args.max_tokens, args.rounds, Path(tmp))
        if not args.skip_openai:
            bench_openai(model, messages, args.max_tokens, args.rounds, Path(tmp))


if __name__ == "__main__":  # vLLM spawns its engine processes: keep this guard
    main()
