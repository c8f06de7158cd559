"""The settings of ``aceforge export hub`` (kept apart from the export code so the CLI can import them cheaply)."""

from __future__ import annotations

from pydantic import Field

from schemas.stage_config import StageConfig


class HubExportConfig(StageConfig):
    """``aceforge export hub``: how a record dataset becomes a Hub dataset repository."""

    max_shard_bytes: int = Field(500_000_000, gt=0)
    """Close a Parquet shard once its size on disk reaches this many bytes (the Hub's guidance: about 500 MB)."""
    test_fraction: float = Field(0.0, ge=0.0, lt=1.0)
    """Share of tasks held out as a `test` split, drawn by a seeded hash of the task id (a task and its rollouts stay together); 0 writes only `train`."""
    split_seed: int = 0
    """Seed of the train/test draw."""
    private: bool = False
    """Create the Hub repository as private (an existing repository keeps its visibility)."""
    synthetic_license: str | None = None
    """Licence you declare for the rows aceforge synthesized (source formats synth_*) that carry none, e.g.
    cc-by-4.0; the card states it as yours (default: such rows count as licence unknown)."""
    pretty_name: str | None = None
    """Title of the dataset card (default: the repository's name)."""
    commit_message: str = "Upload dataset exported by aceforge"
    """Message of the Hub commit."""
