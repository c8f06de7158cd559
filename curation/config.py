"""Configuration of the curation stages: ``aceforge score | dedup | select | report``."""

from __future__ import annotations

from pydantic import Field, field_validator

from generators.rollouts.config import PolicyConfig
from schemas.stage_config import StageConfig

DEDUP_KINDS: tuple[str, ...] = ("exact", "structural", "minhash", "semantic")


class ScoreConfig(StageConfig):
    """``aceforge score``: accuracy, complexity (structural and learner-relative) and diversity columns."""

    learner: PolicyConfig | None = None
    """The declared learner, rolled out k times per task now (agent, model and backend, tool-call format, budget, sampling, k, seed); its rollouts are written beside the output. Unset: the learner is the policy whose rollouts --rollouts gives (or none)."""
    learner_id: str | None = None
    """Which policy's rollouts in --rollouts are the learner's (their lineage.config_hash), when it holds several."""
    seed: int = 0
    """Seed of the clustering."""
    loss_model: str | None = None
    """Learner whose mean token loss on the assistant turns becomes the 'loss' column ('default' is SmolLM2, or a model folder); unset: no loss column."""


class DedupConfig(StageConfig):
    """``aceforge dedup``: remove duplicates, each removal naming the record it duplicates."""

    kinds: list[str] = Field(default_factory=lambda: list(DEDUP_KINDS))
    """Kinds to apply, in this order of precedence (comma-separated or repeated): exact, structural, minhash, semantic."""
    minhash_threshold: float = Field(0.8, gt=0.0, le=1.0)
    """Near-duplicate text: estimated Jaccard similarity of word 3-gram shingles at or above this."""
    num_perm: int = Field(128, ge=16)
    """MinHash permutations (more: a finer Jaccard estimate, slower)."""
    semantic_threshold: float = Field(0.9, gt=0.0, le=1.0)
    """Semantic duplicate: cosine similarity of the task-text embeddings AND of the action-signature embeddings at or above this."""
    semantic_cluster_size: int = Field(2000, ge=2)
    """engine=ray: records per cluster in which semantic pairs are searched exactly (each record joins its two nearest clusters)."""

    @field_validator("kinds", mode="before")
    @classmethod
    def _split_commas(cls, value: object) -> object:
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list):
            return [part.strip() for item in value for part in str(item).split(",") if part.strip()]
        return value

    @field_validator("kinds")
    @classmethod
    def _no_repeats(cls, kinds: list[str]) -> list[str]:
        if not kinds:
            raise ValueError("name at least one dedup kind")
        unknown = [kind for kind in kinds if kind not in DEDUP_KINDS]
        if unknown:
            raise ValueError(f"unknown dedup kind {unknown[0]!r}; choose from {', '.join(DEDUP_KINDS)}")
        return list(dict.fromkeys(kinds))


class SelectConfig(StageConfig):
    """``aceforge select``: a diverse SFT set under a budget, the RL set of tasks with unequal learner rewards, and why the rest was left out."""

    budget: int = Field(ge=1)
    """Most records in the SFT set."""
    rl_budget: int | None = Field(None, ge=1)
    """Most tasks in the RL set (default: every task whose learner rollouts earned unequal rewards)."""
    neighbors: int = Field(16, ge=1)
    """Nearest neighbours per candidate in the facility-location graph (more: a closer optimum, slower)."""
    sft_exclude_agents: list[str] = Field(default_factory=lambda: ["perturbed"])
    """Agents whose rollouts never enter the SFT set (the perturbed agent's faults are injected on purpose)."""
    accept_imported_verdicts: bool = False
    """Let successes whose verdict came with the data (a source's own reward, never re-checked by aceforge) into the SFT set."""
    accept_undecided: bool = False
    """Let trajectories the verifier could not decide (a consent bound to a condition, ...) into the SFT set; by default they stay out."""


class ReportConfig(StageConfig):
    """``aceforge report``: the ACE plots and summary."""

    map_points: int = Field(5000, ge=10)
    """Most records drawn in the 2-D embedding map (a seeded sample beyond that)."""
    seed: int = 0
    """Seed of the map's sample."""
