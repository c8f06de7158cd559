"""``aceforge train sft``: supervised fine-tuning on an SFT set of AgentRecords."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Self

from pydantic import Field, model_validator

from training.train_config import TrainConfig


class SftConfig(TrainConfig):
    data: Path
    """The SFT set: a Parquet (or JSONL) file of AgentRecords, as `aceforge select` writes it."""
    batch_size: int = Field(1, ge=1)
    """Sequences per device in each micro-batch (one: activations of a single max_length sequence at a time)."""
    gradient_accumulation: int = Field(2, ge=1)
    """Micro-batches per optimizer step (two of one sequence: an optimizer step sees two sequences, as a batch of
    two would, in about half its activation memory)."""
    max_length: int | None = Field(None, ge=16)
    """Longest training sequence in tokens; longer records are cut there (default: chosen from the data, the
    shortest length that holds 95% of the records whole, at most max_length_cap)."""
    max_length_cap: int = Field(4096, ge=16)
    """The most tokens a max_length chosen from the data may take (memory grows with it)."""
    packing: bool = False
    """Pack several conversations into each max_length sequence (best-fit; fewer pad tokens)."""
    eval_fraction: float = Field(0.0, ge=0.0, lt=1.0)
    """Share of the records held out for evaluation loss (chosen by record id, the same on every run)."""
    eval_steps: int | None = Field(None, ge=1)
    """Evaluate every this many steps (default: at save_steps)."""

    @model_validator(mode="after")
    def _known_trainer_args(self) -> Self:
        if self.trainer_args:
            from trl import SFTConfig

            self.check_trainer_args(SFTConfig)
        return self

    def trl_config(self, run_dir: Path, has_eval: bool, max_length: int | None = None) -> Any:
        """TRL's SFTConfig; ``max_length`` is the one chosen from the data when the config leaves it open."""
        from trl import SFTConfig

        evaluation = {}
        if has_eval:
            evaluation = {
                "eval_strategy": "steps",
                "eval_steps": self.eval_steps or self.save_steps,
                "per_device_eval_batch_size": self.batch_size,
            }
        return SFTConfig(
            **self.common_args(run_dir),
            **evaluation,
            max_length=max_length or self.max_length,
            packing=self.packing,
            # aceforge renders and tokenizes (training.render): TRL gets input_ids with assistant masks.
            assistant_only_loss=False,
            **self.trainer_args,
        )
