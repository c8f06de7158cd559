"""The whole pipeline's configuration: one section per stage, with the embedded defaults of the main job.

``aceforge run`` uses ``PipelineConfig()`` as it is (a small N on the retail
world, oracle and perturbed rollouts, SmolLM2 as the declared learner on the CPU);
``aceforge run --config my.yaml`` scales the same graph. Each Dagster asset
takes its own section as run config, with these defaults shown in the UI's
launchpad.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field, field_validator

from curation.config import DedupConfig, ReportConfig, ScoreConfig, SelectConfig
from exporters.hub_config import HubExportConfig
from generators.rollouts.config import PolicyConfig, RolloutConfig
from generators.synthesis.config import SynthTasksConfig
from pipelines.stages.ingest import IngestConfig
from runtime.executor import ExecutorConfig
from schemas.stage_config import StageConfig
from training.improve_config import SMOLLM2_LEARNER


class RolloutsSection(StageConfig):
    """Rollouts per environment: each agent's rollouts over the synthesized tasks."""

    runs: list[RolloutConfig] = Field(
        default_factory=lambda: [
            RolloutConfig(agent="oracle", k=1),  # deterministic: more would be exact duplicates
            RolloutConfig(agent="perturbed", k=2),
        ]
    )
    """One entry per agent policy (oracle, perturbed, llm): the data. An llm agent uses the generation resource's
    model. The learner's own rollouts are the learner_rollouts asset's, not these."""
    model_tasks: int = Field(2, ge=0)
    """Tasks per environment rolled out by agents that call a model (the slow kind on a CPU); the rest get none."""


class PipelineConfig(StageConfig):
    """``aceforge run``: ingest, synthesize, verify, score, deduplicate, select, report, export."""

    help_groups: ClassVar[dict[str, str]] = {
        "executor": "executor",
        "ingest": "ingest",
        **dict.fromkeys(("environments", "tasks", "rollouts", "learner"), "synthesize"),
        **dict.fromkeys(("score", "dedup", "max_duplicate_rate", "select", "report"), "curate"),
        **dict.fromkeys(("hub", "hub_repo_id"), "publish"),
    }  # the Dagster asset groups, as in the UI

    executor: ExecutorConfig = Field(default_factory=ExecutorConfig)
    """Where every step that can scale out runs (ingest, rollouts, score, dedup): one executor for the run."""
    ingest: IngestConfig = Field(default_factory=IngestConfig)
    """Ingest of the catalog sources (the demo sources by default)."""
    environments: list[str] = Field(default_factory=lambda: ["retail"])
    """Environments to synthesize in: one partition each (retail, airline)."""
    tasks: SynthTasksConfig = Field(default_factory=lambda: SynthTasksConfig(n=24))
    """Task synthesis per environment (its env is the partition's)."""
    rollouts: RolloutsSection = Field(default_factory=RolloutsSection)
    """Rollouts per environment."""
    learner: PolicyConfig = Field(default_factory=lambda: SMOLLM2_LEARNER)
    """The declared learner, rolled out k times on every task (learner_rollouts): its pass rates place complexity
    and choose the SFT set (tasks it never solves) and the RL set (its frontier)."""
    score: ScoreConfig = Field(default_factory=lambda: ScoreConfig())
    """ACE scores."""
    dedup: DedupConfig = Field(default_factory=lambda: DedupConfig())
    """Deduplication."""
    max_duplicate_rate: float = Field(0.8, ge=0.0, le=1.0)
    """The blocking duplicate_rate check fails when dedup removes more than this share (the data repeats itself)."""
    select: SelectConfig = Field(default_factory=lambda: SelectConfig(budget=40))
    """Selection of the SFT and RL sets."""
    report: ReportConfig = Field(default_factory=ReportConfig)
    """The ACE report."""
    hub: HubExportConfig = Field(default_factory=lambda: HubExportConfig())
    """The Hub-ready folder of the selected sets."""
    hub_repo_id: str = "aceforge/demo-agent-data"
    """Repository id the Hub folder is prepared for (aceforge export hub uploads it)."""

    @field_validator("environments")
    @classmethod
    def _known_environments(cls, names: list[str]) -> list[str]:
        """Checked before any work: an unknown name would otherwise fail every stage after ingest."""
        from environments.registry import ENVIRONMENTS

        if not names:
            raise ValueError("give at least one environment")
        unknown = [name for name in names if name not in ENVIRONMENTS]
        if unknown:
            raise ValueError(f"unknown environment(s) {', '.join(unknown)}; known: {', '.join(ENVIRONMENTS.names())}")
        return names
