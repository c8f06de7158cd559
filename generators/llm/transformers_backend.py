"""Local generation with transformers: the default backend on a CPU-only machine.

Greedy requests are batched (left padding); sampled requests run one at a time
after ``torch.manual_seed(seed)``, so a seeded sample does not depend on what
else was in the batch -- batch size stays a pure throughput knob, as the cache
key assumes.
"""

from __future__ import annotations

import time
from typing import Any

from generators.llm.interface import Capabilities, ChatRequest, Completion, SamplingParams
from generators.llm.local_model import DEFAULT_MAX_MODEL_LEN, LocalModelBackend, PreparedItem, timed_result
from generators.llm.prompting import Overflow
from generators.llm.tool_calls import completion_from_text, normalize_tools
from runtime.elapsed import announced


class TransformersBackend(LocalModelBackend):
    name = "transformers"
    capabilities = Capabilities(supports_tools=True, supports_json_schema=False, supports_logprobs=True)

    def __init__(
        self,
        model: str | None = "default",
        max_model_len: int = DEFAULT_MAX_MODEL_LEN,
        overflow: Overflow = "reject",
        batch_size: int = 8,
        dtype: str = "float32",
        device: str = "cpu",
    ):
        super().__init__(model, max_model_len, overflow, dtype, batch_size)
        self.device = device
        self._model: Any = None

    def _loaded(self) -> Any:
        if self._model is None:
            import torch
            from transformers import AutoModelForCausalLM

            from generators.llm.model_store import transformers_bars_off

            what = f"loading {self.model_id['model']} with transformers ({self.device}, {self.dtype})"
            with announced(what), transformers_bars_off():
                model = AutoModelForCausalLM.from_pretrained(self.model_path, dtype=getattr(torch, self.dtype))
            self._model = model.to(self.device).eval()
        return self._model

    def _generate_prepared(self, todo: list[PreparedItem], deliver) -> None:
        groups: dict[str, list[PreparedItem]] = {}
        for item in todo:
            if item[2].greedy:
                groups.setdefault(item[2].model_dump_json(), []).append(item)
            else:
                self._run([item], deliver)
        for items in groups.values():
            for start in range(0, len(items), self.batch_size):
                self._run(items[start : start + self.batch_size], deliver)

    def _run(self, items: list[PreparedItem], deliver) -> None:
        import torch

        started = time.perf_counter()
        params = items[0][2]
        tokenizer = self.renderer.tokenizer
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        width = max(len(item[3].token_ids) for item in items)
        input_ids = torch.full((len(items), width), pad, dtype=torch.long)
        mask = torch.zeros((len(items), width), dtype=torch.long)
        for row, item in enumerate(items):
            ids = item[3].token_ids
            input_ids[row, width - len(ids) :] = torch.tensor(ids)
            mask[row, width - len(ids) :] = 1
        samples = 1 if params.greedy else params.n
        options: dict[str, Any] = {"do_sample": False}
        if not params.greedy:
            options = {"do_sample": True, "temperature": params.temperature, "top_p": params.top_p, "top_k": 0}
            if params.seed is not None:
                torch.manual_seed(params.seed)
        with torch.inference_mode():
            out = self._loaded().generate(
                input_ids=input_ids.to(self.device),
                attention_mask=mask.to(self.device),
                max_new_tokens=params.max_tokens,
                num_return_sequences=samples,
                stop_strings=params.stop or None,
                tokenizer=tokenizer,
                pad_token_id=pad,
                return_dict_in_generate=True,
                output_logits=params.logprobs,
                **options,
            )
        generated = out.sequences[:, width:]
        logprobs = _sampled_logprobs(out.logits, generated) if params.logprobs else None
        for row, (index, request, _, prepared) in enumerate(items):
            rows = range(row * samples, (row + 1) * samples)
            decoded = [self._completion(generated[r], logprobs, r, params, request) for r in rows]
            if params.greedy:
                decoded = decoded * params.n  # greedy samples are all the same
            result = timed_result(
                started,
                completions=[completion for completion, _ in decoded],
                tokens_in=len(prepared.token_ids),
                tokens_out=sum(count for _, count in decoded),
            )
            deliver(index, result)

    def _completion(
        self, row_ids, logprobs, r: int, params: SamplingParams, request: ChatRequest
    ) -> tuple[Completion, int]:
        """The completion for one generated row, and how many tokens it used."""
        tokenizer = self.renderer.tokenizer
        ids = row_ids.tolist()
        eos = tokenizer.eos_token_id
        finish = "length"
        if eos in ids:
            ids = ids[: ids.index(eos) + 1]
            finish = "stop"
        text = tokenizer.decode(ids, skip_special_tokens=True)
        for stop in params.stop:
            if stop in text:
                text, finish = text[: text.index(stop)], "stop"
        tools = normalize_tools(request.tools)
        if not params.logprobs:
            return completion_from_text(text, finish, tools), len(ids)
        return completion_from_text(text, finish, tools, token_ids=ids, logprobs=logprobs[r][: len(ids)]), len(ids)


def _sampled_logprobs(logits: tuple, generated) -> list[list[float]]:
    """Log-probability of each generated token under the model's raw distribution."""
    import torch

    steps = torch.stack(logits, dim=1).float().log_softmax(dim=-1)  # [rows, steps, vocab]
    picked = steps.gather(-1, generated[:, : steps.shape[1]].unsqueeze(-1)).squeeze(-1)
    return picked.tolist()
