"""``aceforge eval``: pass^k of a model on held-out tasks, through the rollout stage (generators/rollouts)."""

from __future__ import annotations

from pathlib import Path

from generators.rollouts.config import RolloutConfig


class EvalConfig(RolloutConfig):
    """``aceforge eval``: the rollout stage's options, with the model under test as the agent."""

    tasks: Path
    """Held-out tasks: a Parquet (or JSONL) file of task records, as `aceforge synth tasks` writes them."""
    agent: str = "llm"
    """Agent policy: llm (the model given by --model, through --backend); oracle or perturbed check the harness."""
    report: Path | None = None
    """Where the JSON report goes (default: <tasks>.eval.json beside the tasks file)."""
    rollouts: Path | None = None
    """Also write every verified rollout here (.parquet or .jsonl), registered in the catalog unless --no-catalog."""

    def report_path(self) -> Path:
        return self.report or self.tasks.with_name(self.tasks.stem + ".eval.json")
