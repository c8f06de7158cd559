"""``aceforge train rl``: GRPO on an RL set of tasks, rewarded by the verifier in each task's environment."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Self

from pydantic import Field, field_validator, model_validator

from generators.rollouts.config import RolloutBudget
from training.train_config import TrainConfig


class RlConfig(TrainConfig):
    data: Path
    """The RL set: a Parquet (or JSONL) file of task records (E, q with constraints), as `aceforge select` writes it."""
    learning_rate: float = Field(1e-6, gt=0)
    """Peak learning rate (policy-gradient steps want it small)."""
    batch_size: int = Field(1, ge=1)
    """Episodes per device in each micro-batch (one: the activations of a single episode at a time)."""
    gradient_accumulation: int | None = Field(None, ge=1)
    """Micro-batches per optimizer step; batch_size x gradient_accumulation episodes, a multiple of num_generations
    (default: num_generations / batch_size, one group per step)."""
    num_generations: int = Field(4, ge=2)
    """k: episodes per task in each GRPO group; advantages compare them."""
    max_length: int | None = Field(None, ge=16)
    """Longest episode in tokens, prompt included: an episode ends (reason max_length) before outgrowing it; a task
    whose prompt leaves no room for a turn is skipped (default: the longest task prompt plus room for the budget's
    turns, 2 x max_turn_tokens each, at most max_length_cap)."""
    max_length_cap: int = Field(4096, ge=16)
    """The most tokens a max_length chosen from the tasks may take (memory grows with it)."""
    max_turn_tokens: int = Field(128, ge=1)
    """Most tokens the policy generates in one turn; a reply cut there is read as it stands (its end token is added,
    without loss)."""
    budget: RolloutBudget = Field(default_factory=lambda: RolloutBudget(max_turns=4))
    """Limits that end an episode with a reason code, as in `aceforge synth rollouts` (prompt + episode must also
    fit in max_length)."""
    user: str = "scripted"
    """User simulator of the episodes (one without a model: scripted answers from q's user scenario)."""
    temperature: float = Field(1.0, gt=0)
    """Sampling temperature of the episodes."""
    top_p: float = Field(1.0, gt=0, le=1)
    """Nucleus sampling mass of the episodes."""
    reward: Literal["graded", "passed"] = "graded"
    """The reward: graded (1 for a pass; 0 for an undecided verdict, an ungrounded or misstated answer or a policy
    violation; else partial credit for the gold end state reached: verifiers/reward.py) or 1/0 for passed."""
    beta: float = Field(0.0, ge=0)
    """KL coefficient against the starting model (0: no reference model is kept)."""
    loss_type: Literal["grpo", "dr_grpo", "dapo", "bnpo", "cispo", "sapo"] = "dapo"
    """TRL's loss formulation (how token losses are aggregated, clipping variant)."""
    epsilon: float = Field(0.2, gt=0)
    """Lower clipping bound of the importance ratio."""
    epsilon_high: float | None = Field(None, gt=0)
    """Upper clipping bound (default: epsilon)."""
    scale_rewards: Literal["group", "batch", "none"] = "group"
    """Divide advantages by the reward standard deviation of the group, of the batch, or not at all."""
    num_iterations: int = Field(1, ge=1)
    """Optimizer passes over each batch of episodes (GRPO's mu)."""

    @field_validator("user")
    @classmethod
    def _scripted_user(cls, name: str) -> str:
        from generators.rollouts.actors import USER_SIMULATORS

        if name not in USER_SIMULATORS:
            raise ValueError(f"unknown user simulator {name!r}; known: {', '.join(USER_SIMULATORS.names())}")
        if USER_SIMULATORS.get(name).uses_model:
            raise ValueError(f"user simulator {name!r} calls a model; RL episodes take a scripted one")
        return name

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.gradient_accumulation is None:
            self.gradient_accumulation = max(1, self.num_generations // self.batch_size)
        if (self.batch_size * self.gradient_accumulation) % self.num_generations:
            raise ValueError(
                f"batch_size x gradient_accumulation ({self.batch_size} x {self.gradient_accumulation}) must be a "
                f"multiple of num_generations {self.num_generations}: each optimizer step takes whole groups"
            )
        if self.trainer_args:
            from trl import GRPOConfig

            self.check_trainer_args(GRPOConfig)
        return self

    def trl_config(self, run_dir: Path) -> Any:
        from trl import GRPOConfig

        return GRPOConfig(
            **self.common_args(run_dir),
            num_generations=self.num_generations,
            max_completion_length=self.max_turn_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            beta=self.beta,
            loss_type=self.loss_type,
            epsilon=self.epsilon,
            epsilon_high=self.epsilon_high,
            scale_rewards=self.scale_rewards,
            num_iterations=self.num_iterations,
            # Episodes carry the task in their prompt messages; keep every column for the rollout function.
            remove_unused_columns=False,
            **self.trainer_args,
        )
