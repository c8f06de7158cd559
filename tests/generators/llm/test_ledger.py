from generators.llm.interface import Completion, GenerationResult, SamplingParams
from generators.llm.ledger import Ledger, usage_of, with_generation
from schemas.record import Lineage

MODEL = {"model": "/models/smol", "hash": "abc123"}


def _result(tokens_in, tokens_out, latency, **kw):
    return GenerationResult(
        completions=[Completion(text="x")], tokens_in=tokens_in, tokens_out=tokens_out, latency_s=latency, **kw
    )


def test_run_summary_counts_calls_hits_errors_tokens_and_time():
    ledger = Ledger()
    ledger.record_result(_result(10, 4, 0.5))
    ledger.record_result(_result(20, 6, 0.7, notice="truncated: dropped 2 oldest messages"))
    ledger.record_result(_result(10, 4, 0.5, cached=True))
    ledger.record_result(GenerationResult(error="prompt too long: 3000 tokens", tokens_in=3000))
    ledger.record_batch(2.0)
    summary = ledger.summary.as_dict()
    assert summary == {
        "calls": 3,
        "cache_hits": 1,
        "errors": 1,
        "completions": 2,
        "tokens_in": 3030,
        "tokens_out": 10,
        "batches": 1,
        "wall_s": 2.0,
        "notices": {"truncated": 1},
        "tokens_per_s": 5.0,
    }


def test_lineage_carries_generator_and_usage():
    params = SamplingParams(temperature=0.7, seed=42, max_tokens=64)
    results = [_result(10, 4, 0.25), _result(12, 5, 0.5, cached=True)]
    lineage = with_generation(Lineage(parents=["p1"]), "vllm", MODEL, params, results)
    assert lineage.parents == ["p1"]
    assert lineage.generator == {
        "backend": "vllm",
        "model": "/models/smol",
        "model_hash": "abc123",
        "sampling": params.model_dump(),
        "seed": 42,
    }
    assert lineage.usage == {"calls": 1, "cache_hits": 1, "tokens_in": 22, "tokens_out": 9, "latency_s": 0.75}
    assert Lineage.model_validate(lineage.model_dump()) == lineage  # stays a valid schemas.record.Lineage
    assert usage_of([]) == {"calls": 0, "cache_hits": 0, "tokens_in": 0, "tokens_out": 0, "latency_s": 0}
