"""Configuration of ``aceforge synth rollouts``: which agent and user simulator, k, budgets, the backend."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, field_validator, model_validator

from generators.llm.config import BackendConfig
from generators.rollouts.agent_prompt import RenderingOption
from schemas.generation import SamplingParams
from schemas.record import stable_id
from schemas.stage_config import StageConfig

# Fields that change neither what is generated nor how it is judged: left out of config hashes (where the
# output goes is not a field here: the commands add it, pipelines.cli.config.OutputOptions).
THROUGHPUT_ONLY = {
    "live",
    "batch_size",
    "max_concurrency",
    "cache",
}


# Rollouts sample (a task's k rollouts must differ); a partial sampling section keeps these for the rest
# (schemas.stage_config.with_section_defaults).
ROLLOUT_SAMPLING = {"temperature": 0.7, "max_tokens": 256}


class RolloutBudget(StageConfig):
    max_turns: int = Field(30, ge=1)
    """Most agent turns in one rollout (a turn: one reply, its tool calls or one message); then end_reason max_turns."""
    max_tool_errors: int = Field(5, ge=1)
    """Most failed tool calls in one rollout (refused by E, or to an unknown tool or with arguments that fail the
    schema: each answered with an error, the agent goes on); then end_reason max_tool_errors."""
    max_tokens: int = Field(8192, ge=1)
    """Most generated tokens in one rollout, agent and simulated user together; then end_reason max_tokens."""


# The perturbed agent's fault kinds (perturbed.py draws from them), kept with the config that names them,
# so that building the config's defaults does not import the agent (environments, verifiers, pyarrow).
FAULTS = ("wrong_argument", "skipped_read", "extra_write", "early_end")


class PolicyConfig(BackendConfig, RenderingOption):
    """A policy and its execution configuration: agent, user simulator, model and backend, tool-call format,
    budget, sampling, k and seed. Its ``policy_id`` is what its rollout records carry as lineage.config_hash,
    so a declared learner (curation) is matched with exactly its own rollouts."""

    k: int = Field(4, ge=1)
    """Rollouts per task, each with its own seed."""
    agent: str = "oracle"
    """Agent policy: oracle (follows the gold actions), perturbed (the oracle with one seeded fault) or llm."""
    user: str = "scripted"
    """User simulator: scripted (deterministic, from the scenario's known info) or llm (the same backend and model)."""
    tool_calls: Literal["native", "schema"] = "native"
    """How the llm agent calls tools: native (the chat template's own markup) or schema (JSON-schema constrained output of one call or one message; needs a backend with structured output, e.g. vllm)."""
    faults: list[str] = Field(default_factory=lambda: list(FAULTS))
    """Fault kinds the perturbed agent draws from (repeatable): wrong_argument, skipped_read, extra_write, early_end."""
    seed: int = 0
    """Seed of the run: each rollout's seed derives from it, the task id and k (same seed, same output)."""
    budget: RolloutBudget = Field(default_factory=RolloutBudget)
    """Limits that end a rollout with a reason code."""
    sampling: SamplingParams = Field(default_factory=lambda: SamplingParams(**ROLLOUT_SAMPLING))
    """Sampling of every model turn (agent and llm user); its seed is replaced by each rollout's own."""
    max_model_len: int = Field(8192, ge=16)
    """Context length: prompt + max_tokens must fit (the retail policy and tools alone take about 2.7k tokens in the
    full rendering, 0.55k in the compact one)."""

    @field_validator("faults")
    @classmethod
    def _known_faults(cls, faults: list[str]) -> list[str]:
        unknown = [kind for kind in faults if kind not in FAULTS]
        if unknown or not faults:
            raise ValueError(
                f"unknown fault kind(s) {', '.join(unknown) or '(none given)'}; known: {', '.join(FAULTS)}"
            )
        return faults

    @field_validator("sampling")
    @classmethod
    def _one_sample(cls, sampling: SamplingParams) -> SamplingParams:
        if sampling.n != 1:
            raise ValueError("a rollout takes one sample per turn: sampling.n must be 1 (use k for more rollouts)")
        return sampling

    @model_validator(mode="after")
    def _known_components(self) -> Self:
        from generators.rollouts.actors import AGENT_POLICIES, USER_SIMULATORS

        for registry, name in ((AGENT_POLICIES, self.agent), (USER_SIMULATORS, self.user)):
            if name not in registry:
                raise ValueError(f"unknown {registry.noun} {name!r}; known: {', '.join(registry.names())}")
        return self

    def uses_model(self) -> bool:
        from generators.rollouts.actors import AGENT_POLICIES, USER_SIMULATORS

        return AGENT_POLICIES.get(self.agent).uses_model or USER_SIMULATORS.get(self.user).uses_model

    def policy_id(self) -> str:
        """Hash of every field that decides the rollouts (not throughput or output options); a model policy's
        backend is hashed as resolved here (the default differs with and without a GPU)."""
        fields = self.model_dump(mode="json", include=set(PolicyConfig.model_fields) - THROUGHPUT_ONLY)
        if self.rendering == "full":  # the default keeps the ids policies had before the field existed
            del fields["rendering"]
        if self.uses_model():
            fields["backend"] = self.backend_name()
        return stable_id("synth rollouts", fields)


class RolloutConfig(PolicyConfig):
    """``aceforge synth rollouts``: k verified rollouts per task (agent x user simulator x environment)."""

    live: int = Field(16, ge=1)
    """Conversations advanced together, each step served in one backend batch (throughput only)."""
