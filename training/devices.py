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
    """TRL's fused LM head in tiles of CPU_TILE_TOKENS x CPU_TILE_VOCAB (32 MB) instead of 512 MB."""
    import trl.kernels.chunked_logprob as kernel
    import trl.trainer.utils as trl_utils

    # Module constants TRL reads at each call; a TRL that renames them must fail here, not train at 512 MB tiles.
    if not hasattr(kernel, "TOKEN_CHUNK_SIZE") or not hasattr(trl_utils, "_CHUNKED_LOGPROB_CHUNK_SIZE"):
        raise RuntimeError("this TRL version has no LM-head tile sizes to set (trl.kernels.chunked_logprob)")
    kernel.TOKEN_CHUNK_SIZE = CPU_TILE_TOKENS
    trl_utils._CHUNKED_LOGPROB_CHUNK_SIZE = CPU_TILE_VOCAB


# glibc serves buffers above its mmap threshold with mmap and unmaps them on free, but it raises that threshold to
# the size of each mapped buffer freed (up to 32 MB), after which such buffers come from its heap and stay resident
# when freed. A training step allocates and frees hundreds of activation and LM-head buffers of 1-32 MB: measured on
# SmolLM2-135M (4 x 1024 tokens, forward + backward with checkpointing), peak RSS 3997 MB with the raising threshold,
# 1885 MB with it fixed at 1 MiB, the step's time unchanged. mallopt fixes it (as MALLOC_MMAP_THRESHOLD_ would).
M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number (malloc.h)
MMAP_THRESHOLD_BYTES = 1 << 20


def unmap_freed_buffers() -> bool:
    """Fix glibc's mmap threshold at MMAP_THRESHOLD_BYTES so freed large buffers leave RSS; False without glibc."""
    import ctypes
    import ctypes.util
    import os

    if "MALLOC_MMAP_THRESHOLD_" in os.environ:  # the user's own setting wins
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (macOS, musl without mallopt): its allocator as it is
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES))


def lean_cpu_training() -> None:
    """What keeps a training step's memory down on a CPU: small LM-head tiles and freed buffers returned."""
    if has_gpu():
        return
    small_lm_head_tiles()
    unmap_freed_buffers()
