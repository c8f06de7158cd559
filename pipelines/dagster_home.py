"""The Dagster instance of aceforge runs lives under the data directory (its DAGSTER_HOME)."""

from __future__ import annotations

from pathlib import Path

import yaml

from schemas.settings import data_home

CONFIG_FILE = "dagster.yaml"


def dagster_home(create: bool = True) -> Path:
    """DAGSTER_HOME for runs of the aceforge pipelines (its run and event storage)."""
    path = data_home() / "dagster"
    if create:
        path.mkdir(parents=True, exist_ok=True)
        config = path / CONFIG_FILE
        if not config.exists():
            # Local-only machines: keep Dagster's telemetry off.
            config.write_text("telemetry:\n  enabled: false\n")
    return path


def set_run_log_level(home: Path, level: str) -> None:
    """Log level of the runs on this instance that do not configure their loggers (those the UI launches).

    Dagster gives such runs a console logger at the instance's ``python_logs.python_log_level`` (DEBUG when
    unset) and drops their own log messages below it; Dagster events are recorded whatever the level. The
    rest of dagster.yaml is kept as it is.
    """
    config_file = home / CONFIG_FILE
    config = (yaml.safe_load(config_file.read_text()) if config_file.exists() else None) or {}
    config.setdefault("python_logs", {})["python_log_level"] = level.upper()
    config_file.write_text(yaml.safe_dump(config, sort_keys=False))
