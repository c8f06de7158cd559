"""Configuration of the synthesis stages: ``aceforge synth tasks | backward | evolve``."""

from __future__ import annotations

import re
from typing import Literal, Self

from pydantic import Field, field_validator, model_validator

from generators.llm.config import BackendConfig
from generators.synthesis.levels import DEFAULT_MIX, parse_mix
from schemas.stage_config import StageConfig

_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")
MAX_CONSTRAINTS = 5


class ScenarioOptions(StageConfig):
    scenario_writer: str | None = None
    """Model that writes user scenarios with structured output ('default' is SmolLM2, or a folder, .gguf or served name); unset: templates, no model."""
    writer: BackendConfig = Field(default_factory=BackendConfig)
    """Backend settings of the scenario writer (its model is scenario_writer)."""
    writer_fallback: Literal["template", "reject"] = "template"
    """When the writer's output does not parse or fit the schema: use the template scenario, or reject the sample."""
    writer_max_tokens: int = Field(200, ge=16)
    """Most tokens the scenario writer generates per scenario (greedy)."""
    paraphraser: str | None = None
    """Model that rewrites each scenario's reason in other words, kept only when every id, amount, date, number, name and condition of the original survives ('default' is SmolLM2, or a folder, .gguf or served name); unset: no paraphrasing."""
    paraphrase: BackendConfig = Field(default_factory=BackendConfig)
    """Backend settings of the paraphraser (its model is paraphraser)."""
    paraphrase_max_tokens: int = Field(200, ge=16)
    """Most tokens the paraphraser generates per reason (greedy)."""

    @model_validator(mode="after")
    def _model_named_once(self) -> Self:
        if self.writer.model != "default":
            raise ValueError("name the scenario writer's model with scenario_writer, not writer.model")
        if self.paraphrase.model != "default":
            raise ValueError("name the paraphraser's model with paraphraser, not paraphrase.model")
        return self

    def writer_backend(self) -> BackendConfig | None:
        return None if self.scenario_writer is None else self.writer.model_copy(update={"model": self.scenario_writer})

    def paraphraser_backend(self) -> BackendConfig | None:
        return None if self.paraphraser is None else self.paraphrase.model_copy(update={"model": self.paraphraser})


class WorldOptions(StageConfig):
    env: str = "retail"
    """Environment to synthesize in: retail or airline."""
    users: int = Field(500, ge=1)
    """Users in the environment's generated database."""
    db_seed: int = 0
    """Seed of the environment's generated database (E's initial state)."""
    seed: int = 0
    """Seed of the sampling: the same seed and config give the same records, ids included."""

    @field_validator("env")
    @classmethod
    def _synthesizable(cls, name: str) -> str:
        from generators.synthesis.domains import get_domain

        try:
            get_domain(name)
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None
        return name


class SynthTasksConfig(WorldOptions, ScenarioOptions):
    """``aceforge synth tasks``: constraint-first tasks with verified gold solutions."""

    n: int = Field(100, ge=1)
    """Tasks to make."""
    constraints: str = "1-3"
    """Scored constraints a task aims at, 'LO-HI' or 'N' (1 to 5); its goals' core constraints always count, so a task of several goals may have more."""
    difficulty: str = DEFAULT_MIX
    """Levels to draw (1: one lookup and an answer; 2: one write or refusal; 3: several goals; 4: a conditional goal, mostly among others, and a user behaviour): '4', '1,2' (equal shares) or 'LEVEL:WEIGHT,...'."""
    goals: list[str] = Field(default_factory=list)
    """Goal kinds to draw from (repeatable; default: every kind of the environment)."""
    max_attempts: int = Field(20, ge=1)
    """Samples tried per task asked for before the run stops short."""

    @field_validator("constraints")
    @classmethod
    def _range(cls, text: str) -> str:
        match = _RANGE.match(text)
        low, high = (int(match.group(1)), int(match.group(2) or match.group(1))) if match else (0, 0)
        if not match or not 1 <= low <= high <= MAX_CONSTRAINTS:
            raise ValueError(f"expected 'LO-HI' or 'N' with 1 <= LO <= HI <= {MAX_CONSTRAINTS}, got {text!r}")
        return f"{low}-{high}"

    @field_validator("difficulty")
    @classmethod
    def _mix(cls, text: str) -> str:
        parse_mix(text)
        return text

    @model_validator(mode="after")
    def _known_goals(self) -> Self:
        from generators.synthesis.domains import get_domain

        kinds = get_domain(self.env).kinds()
        unknown = [kind for kind in self.goals if kind not in kinds]
        if unknown:
            raise ValueError(f"unknown goal kind(s) {', '.join(unknown)} for {self.env}; known: {', '.join(kinds)}")
        return self

    def mix(self) -> dict[int, float]:
        return parse_mix(self.difficulty)

    def constraint_range(self) -> tuple[int, int]:
        low, high = self.constraints.split("-")
        return int(low), int(high)


class SynthBackwardConfig(WorldOptions, ScenarioOptions):
    """``aceforge synth backward``: explore, then turn state-changing sub-trajectories into verified (q, τ)."""

    n: int = Field(50, ge=1)
    """(q, τ) pairs to make."""
    steps: int = Field(8, ge=1, le=50)
    """Calls per exploration episode (after the identity lookup)."""
    policy: Literal["random"] = "random"
    """Exploration policy: random (random tools with valid arguments drawn from the user's rows)."""
    max_constraints: int = Field(MAX_CONSTRAINTS, ge=1)
    """Most constraints derived from one state diff (status fields first)."""
    max_episodes: int = Field(200, ge=1)
    """Exploration episodes per pair asked for, at most, before the run stops short."""


class SynthEvolveConfig(ScenarioOptions):
    """``aceforge synth evolve``: compose verified tasks into harder ones."""

    ops: list[Literal["compose", "refuse"]] = Field(default_factory=lambda: ["compose", "refuse"])
    """Evolutions to apply to every task: compose (two requests of one user), refuse (a request turned into a policy refusal)."""
    seed: int = 0
    """Seed of the evolution choices."""
