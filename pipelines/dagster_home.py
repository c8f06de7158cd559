"""The Dagster instance of aceforge runs lives under the data directory (its DAGSTER_HOME)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import yaml

from runtime.settings import data_home

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


@contextmanager
def run_log_level(home: Path, level: str) -> Iterator[Path]:
    """Within: the log level of the runs on this instance that do not configure their loggers (those the UI
    launches); after: the instance's setting as it was.

    Dagster gives such runs a console logger at the instance's ``python_logs.python_log_level`` (DEBUG when
    unset) and drops any run's own log messages below it, whatever its loggers say (so it is not left set for
    ``aceforge run --verbose``); Dagster events are recorded at any level. The rest of dagster.yaml is kept.
    """
    before = _set_python_log_level(home / CONFIG_FILE, level.upper())
    try:
        yield home
    finally:
        _set_python_log_level(home / CONFIG_FILE, before)


def _set_python_log_level(config_file: Path, level: str | None) -> str | None:
    """Set (None: remove) python_logs.python_log_level in this dagster.yaml, keeping the rest; the old value."""
    config = (yaml.safe_load(config_file.read_text()) if config_file.exists() else None) or {}
    python_logs = config.pop("python_logs", None) or {}
    before = python_logs.pop("python_log_level", None)
    if level is not None:
        python_logs["python_log_level"] = level
    if python_logs:
        config["python_logs"] = python_logs
    config_file.write_text(yaml.safe_dump(config, sort_keys=False))
    return before
