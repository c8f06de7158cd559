from generators.llm.cache import GenerationCache, cache_key
from generators.llm.cached import CachedGenerator
from generators.llm.interface import ChatRequest, Completion, GenerationResult, SamplingParams

MODEL = {"model": "/models/smol", "hash": "abc"}
ENGINE = {"backend": "vllm", "dtype": "bfloat16"}
REQUEST = ChatRequest(messages=[{"role": "user", "content": "hi"}])
PARAMS = SamplingParams()
TOOL = {
    "type": "function",
    "function": {"name": "f", "description": "", "parameters": {"type": "object", "properties": {}}},
}

# One changed value per SamplingParams field: every field changes outputs, so every one must change the key.
SAMPLING_VARIANTS = {
    "n": {"n": 2},
    "temperature": {"temperature": 0.7},
    "top_p": {"top_p": 0.9},
    "max_tokens": {"max_tokens": 17},
    "stop": {"stop": ["\n"]},
    "seed": {"seed": 1},
    "logprobs": {"logprobs": True},
}


def _key(model=MODEL, engine=ENGINE, prompt="<p>", request=REQUEST, params=PARAMS) -> str:
    return cache_key(model, engine, prompt, request, params)


def test_every_sampling_parameter_changes_the_key():
    assert set(SAMPLING_VARIANTS) == set(SamplingParams.model_fields)  # a new field needs a variant here
    base = _key()
    keys = {name: _key(params=SamplingParams(**change)) for name, change in SAMPLING_VARIANTS.items()}
    assert base not in keys.values()
    assert len(set(keys.values())) == len(keys)
    assert _key(params=SamplingParams(seed=None)) != base


def test_model_engine_prompt_tools_and_schema_change_the_key():
    base = _key()
    variants = [
        _key(model={"model": "/models/smol", "hash": "abd"}),  # same path, other weights
        _key(model={"model": "/elsewhere/smol", "hash": "abc"}),
        _key(engine={"backend": "vllm", "dtype": "float32"}),
        _key(engine={"backend": "transformers", "dtype": "bfloat16"}),
        _key(prompt="<p> "),
        _key(request=ChatRequest(messages=REQUEST.messages, tools=[TOOL])),
        _key(request=ChatRequest(messages=REQUEST.messages, json_schema={"type": "object"})),
    ]
    assert base not in variants and len(set(variants)) == len(variants)
    assert _key() == base  # and the key is deterministic


def test_a_per_request_override_is_keyed_by_the_params_that_apply(transformers_backend):
    generator = CachedGenerator(transformers_backend, cache=None)
    own = ChatRequest(messages=REQUEST.messages, sampling=SamplingParams(seed=5))
    assert generator.key(own, PARAMS) == generator.key(REQUEST, SamplingParams(seed=5))
    assert generator.key(own, PARAMS) != generator.key(REQUEST, PARAMS)


def test_throughput_knobs_do_not_change_the_key(smol_path):
    from generators.llm.openai_backend import OpenAIBackend
    from generators.llm.transformers_backend import TransformersBackend
    from generators.llm.vllm_backend import VllmBackend

    def keys(backend) -> str:
        return CachedGenerator(backend, cache=None, chunk_size=3).key(REQUEST, PARAMS)

    # Constructing these loads only the tokenizer: engines start on first generate.
    assert keys(VllmBackend(smol_path)) == keys(
        VllmBackend(smol_path, batch_size=7, tensor_parallel_size=2, data_parallel_size=2, gpu_memory_utilization=0.5)
    )
    assert keys(TransformersBackend(smol_path, batch_size=1)) == keys(TransformersBackend(smol_path, batch_size=16))
    url = "http://127.0.0.1:9/v1"
    assert keys(OpenAIBackend(smol_path, url, max_concurrency=1)) == keys(
        OpenAIBackend(smol_path, "http://127.0.0.1:10/v1", max_concurrency=64, timeout_s=5)
    )
    # ...while the engine's numerics do.
    assert keys(VllmBackend(smol_path)) != keys(VllmBackend(smol_path, dtype="float32"))


def test_store_round_trip_first_writer_wins_and_survives_reopen(tmp_path):
    path = tmp_path / "cache.sqlite"
    cache = GenerationCache(path)
    first = GenerationResult(completions=[Completion(text="a")], tokens_in=3, tokens_out=1, latency_s=0.5)
    cache.put("k1", first)
    cache.put("k1", GenerationResult(completions=[Completion(text="b")]))
    assert cache.get_many(["k1", "k2"]) == {"k1": first}
    cache.close()
    reopened = GenerationCache(path)
    assert len(reopened) == 1 and reopened.get_many(["k1"])["k1"].texts == ["a"]
    many = {f"key{i}": GenerationResult(tokens_in=i) for i in range(1200)}
    for key, result in many.items():
        reopened.put(key, result)
    assert reopened.get_many(list(many)) == many  # beyond SQLite's per-statement parameter limit


def test_default_cache_lives_in_the_data_home(data_home):
    cache = GenerationCache()
    assert cache.path == data_home / "cache" / "generations.sqlite"
    assert cache.path.is_file()


def test_the_backend_config_sets_a_local_models_dtype_and_leaves_the_default_alone(smol_path):
    from generators.llm.config import BackendConfig

    def built(**options):
        return BackendConfig(model=smol_path, cache=False, **options).make_generator().backend

    assert built(backend="vllm", dtype="float32").dtype == "float32"
    assert built(backend="vllm").dtype == "bfloat16"  # auto: the backend's own default
    assert built(backend="transformers", dtype="bfloat16").dtype == "bfloat16"
    served = BackendConfig(backend="openai", base_url="http://127.0.0.1:9/v1", dtype="float32")
    assert "dtype" not in served.backend_options()  # a server's numerics are its own
