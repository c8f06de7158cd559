"""Where training runs and in what precision: a GPU when there is one (bf16 if it supports it), else the CPU.

Under ``accelerate launch`` the device per process comes from accelerate; these
settings only say whether a GPU may be used and which dtype the weights take.
"""

from __future__ import annotations

from typing import Any


def has_gpu() -> bool:
    import torch

    return torch.cuda.is_available()


def uses_bf16(precision: str) -> bool:
    import torch

    if precision == "auto":
        return has_gpu() and torch.cuda.is_bf16_supported()
    return precision == "bf16"


def precision_args(precision: str) -> dict[str, Any]:
    """TrainingArguments for the device and precision."""
    return {"use_cpu": not has_gpu(), "bf16": uses_bf16(precision)}


# TRL's fused LM head (the loss without full logits) projects tiles of 4096 tokens x 32768 vocabulary entries,
# 512 MB in fp32. Without Triton (on a CPU) each tile is folded with whole-tile torch ops that hold several
# tile-sized temporaries at once: gigabytes at the peak of a step. Smaller tiles give the same sums.
CPU_TILE_TOKENS = 1024
CPU_TILE_VOCAB = 8192


def small_lm_head_tiles() -> None:
    """On a CPU, TRL's fused LM head in tiles of CPU_TILE_TOKENS x CPU_TILE_VOCAB (32 MB) instead of 512 MB."""
    if has_gpu():
        return
    import trl.kernels.chunked_logprob as kernel
    import trl.trainer.utils as trl_utils

    # Module constants TRL reads at each call; a TRL that renames them must fail here, not train at 512 MB tiles.
    if not hasattr(kernel, "TOKEN_CHUNK_SIZE") or not hasattr(trl_utils, "_CHUNKED_LOGPROB_CHUNK_SIZE"):
        raise RuntimeError("this TRL version has no LM-head tile sizes to set (trl.kernels.chunked_logprob)")
    kernel.TOKEN_CHUNK_SIZE = CPU_TILE_TOKENS
    trl_utils._CHUNKED_LOGPROB_CHUNK_SIZE = CPU_TILE_VOCAB
