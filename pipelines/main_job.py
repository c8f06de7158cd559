"""The main job (``aceforge run``): materialize every ingest partition through Dagster.

Each source is one in-process Dagster run on a persistent instance (its
DAGSTER_HOME under the data directory), so the runs, materializations and
check results show up in ``dagster dev`` afterwards. A failing source does
not stop the others; each outcome is reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dagster import DagsterInstance, materialize

from data_catalog.entries import load_entries
from data_catalog.ingest import IngestConfig
from pipelines.ingest_assets import ASSET_NAME, build_ingest_assets


@dataclass
class SourceOutcome:
    source: str
    run_id: str
    success: bool
    check_passed: bool | None
    metadata: dict[str, Any]
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.success and self.check_passed is not False


def _metadata(result) -> dict[str, Any]:
    materializations = result.asset_materializations_for_node(ASSET_NAME)
    if not materializations:
        return {}
    return {key: getattr(value, "value", value) for key, value in materializations[-1].metadata.items()}


def _error(result) -> str | None:
    """The root cause of a failed run, in one line (Dagster wraps the asset's own exception)."""
    failures = result.get_step_failure_events()
    if not failures:
        return None if result.success else "run failed"
    error = failures[0].step_failure_data.error if failures[0].step_failure_data else None
    if error is None:
        return "step failed"
    while error.cause is not None:
        error = error.cause
    return " ".join(error.message.split())


def run_ingest(
    instance: DagsterInstance,
    entries_dir: str | Path | None = None,
    config: IngestConfig | None = None,
    log_level: str = "WARNING",
) -> list[SourceOutcome]:
    """One Dagster run per catalog source partition; returns each source's outcome."""
    converted = build_ingest_assets(load_entries(entries_dir))
    run_config = {
        "ops": {ASSET_NAME: {"config": (config or IngestConfig()).model_dump(mode="json")}},
        "loggers": {"console": {"config": {"log_level": log_level}}},
    }
    outcomes = []
    for key in converted.partitions_def.get_partition_keys():
        result = materialize(
            [converted],
            instance=instance,
            partition_key=key,
            run_config=run_config,
            raise_on_error=False,
            tags={"aceforge/job": "run"},
        )
        checks = [evaluation.passed for evaluation in result.get_asset_check_evaluations()]
        outcomes.append(
            SourceOutcome(
                source=key,
                run_id=result.run_id,
                success=result.success,
                check_passed=all(checks) if checks else None,
                metadata=_metadata(result),
                error=_error(result),
            )
        )
    return outcomes
