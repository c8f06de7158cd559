"""The synthesis stages as functions of their config: what ``aceforge synth ...`` and Dagster assets call."""

from __future__ import annotations

from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.records import Provenance, Solved, config_hash, finish_records
from generators.synthesis.stats import OnProgress, SynthStats
from generators.synthesis.synthesizer import TaskSynthesizer, synthesize_drafts
from schemas.record import AgentRecord


def run_tasks(
    cfg: SynthTasksConfig, dataset: str, on_progress: OnProgress | None = None
) -> tuple[list[AgentRecord], SynthStats]:
    """Constraint-first tasks; records in sample order, every rejection counted in the stats."""
    stats = SynthStats()
    synth = TaskSynthesizer(cfg.env, cfg.users, cfg.db_seed)
    kinds = cfg.goals or synth.domain.kinds()
    drafts = synthesize_drafts(
        synth, cfg.n, cfg.constraint_range(), kinds, cfg.seed, cfg.max_attempts, stats, on_progress, cfg.mix()
    )
    solved = [Solved(draft, gold, rng, synth.environment) for draft, gold, rng in drafts]
    provenance = Provenance(synth.name, synth.version, cfg.seed, dataset, config_hash("synth tasks", cfg))
    return finish_records(solved, cfg, provenance, stats), stats
