"""Loading the model a stage trains and saving what it trained as a plain model folder.

The saved folder is what transformers, vLLM (generators/) and the next stage
load: full weights (LoRA adapters merged in, the adapter itself kept in
``adapter/``), the tokenizer with its inference chat template, and the run's
configuration.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from training.chat_template import training_chat_template

ADAPTER_DIR = "adapter"


def load_tokenizer(model_path: str, chat_template: Path | None = None) -> tuple[Any, str]:
    """The tokenizer (left as it is, for saving) and the training-compatible template to render with."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer, training_chat_template(tokenizer, chat_template)


def load_model(model_path: str) -> Any:
    """fp32 weights: the CPU trains in fp32, and bf16 mixed precision on a GPU keeps fp32 master weights."""
    import torch
    from transformers import AutoModelForCausalLM

    from generators.llm.model_store import transformers_bars_off

    with transformers_bars_off():
        return AutoModelForCausalLM.from_pretrained(model_path, dtype=torch.float32)


def save_model_folder(trainer: Any, tokenizer: Any, output_dir: Path, base_model: str, lora: bool) -> None:
    """Full weights at ``output_dir``; LoRA adapters saved in ``adapter/``, then merged into the base weights.

    ``trainer.save_model`` gathers the weights however they are spread (DDP, FSDP, DeepSpeed ZeRO-3); the merge
    runs once, on the main process, from the saved adapter.
    """
    if not lora:
        trainer.save_model(str(output_dir))
        return
    trainer.save_model(str(output_dir / ADAPTER_DIR))
    if trainer.is_world_process_zero():
        from peft import PeftModel

        merged = PeftModel.from_pretrained(load_model(base_model), output_dir / ADAPTER_DIR).merge_and_unload()
        merged.save_pretrained(output_dir)
        tokenizer.save_pretrained(output_dir)
