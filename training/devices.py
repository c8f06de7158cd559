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
