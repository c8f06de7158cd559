"""The Dagster instance of aceforge runs lives under the data directory (its DAGSTER_HOME)."""

from __future__ import annotations

from pathlib import Path

from schemas.settings import data_home


def dagster_home(create: bool = True) -> Path:
    """DAGSTER_HOME for runs of the aceforge pipelines (its run and event storage)."""
    path = data_home() / "dagster"
    if create:
        path.mkdir(parents=True, exist_ok=True)
        config = path / "dagster.yaml"
        if not config.exists():
            # Local-only machines: keep Dagster's telemetry off.
            config.write_text("telemetry:\n  enabled: false\n")
    return path
