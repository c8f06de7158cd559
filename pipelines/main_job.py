"""The main job (``aceforge run``): materialize the whole asset graph through Dagster, stage by stage.

Every run is an in-process Dagster run on a persistent instance (its
DAGSTER_HOME under the data directory), so the runs, materializations and
check results show up in ``aceforge ui`` afterwards: one run per catalog
source (ingest), one per environment (synthesize: tasks, then rollouts), then
one run of the unpartitioned rest (curate and publish). Independent partition
runs go to ``workers`` processes at once. A failing source does not stop the
others; every outcome is reported. Outputs are written atomically to paths
keyed by asset and partition and registered idempotently, so a run killed
midway and started again ends with the same files and catalog versions.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from dagster import AssetKey, AssetSelection, DagsterInstance, materialize

from data_catalog.entries import load_entries
from data_catalog.ingest import IngestConfig
from pipelines.assets.ingest import ASSET_NAME, build_ingest_assets
from pipelines.assets.resources import StorageResource
from pipelines.catalog_names import CURATE_AND_PUBLISH, SYNTHESIZE
from pipelines.pipeline_config import PipelineConfig


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
            resources={"storage": StorageResource()},
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


@dataclass
class StageOutcome:
    """One asset (or asset partition) of a pipeline run."""

    stage: str
    success: bool
    rows: int | None
    pass_rate: float | None
    checks: dict[str, bool]
    error: str | None = None
    path: str | None = None
    seconds: float | None = None  # from the step's start to its end

    @property
    def ok(self) -> bool:
        return self.success and all(self.checks.values())

    def line(self) -> str:
        """One progress line: what the stage made and how long it took."""
        took = "" if self.seconds is None else f" in {self.seconds:.1f}s"
        if not self.ok:
            return f"{self.stage}: FAILED{took}: {self.error or 'a check failed'}"
        rows = "" if self.rows is None else f": {self.rows:,} rows"
        return f"{self.stage}: done{rows}{took}"


# Per-stage run config: the asset (op) name -> the PipelineConfig section it reads.
SECTIONS = {
    "synth_tasks": "tasks",
    "rollouts": "rollouts",
    "learner_rollouts": "learner",
    "scored": "score",
    "deduplicated": "dedup",
    "selected": "select",
    "ace_report": "report",
    "hub_folder": "hub",
}


def pipeline_run_config(cfg: PipelineConfig, keys: tuple[str, ...], log_level: str) -> dict[str, Any]:
    """Each selected stage's section (the selection op that writes sft_set and rl_set is "selected")."""
    sections = cfg.model_dump(mode="json")
    ops = {"selected" if key in ("sft_set", "rl_set") else key for key in keys}
    return {
        "ops": {op: {"config": sections[section]} for op, section in SECTIONS.items() if op in ops},
        "loggers": {"console": {"config": {"log_level": log_level}}},
    }


def _step_seconds(instance: DagsterInstance, run_id: str) -> dict[str, float]:
    """Seconds from each step's start to its success or failure, by step key (the op's name)."""
    from dagster import DagsterEventType

    starts, seconds = {}, {}
    for entry in instance.all_logs(run_id):
        event = entry.dagster_event
        if event is None or entry.step_key is None:
            continue
        if event.event_type == DagsterEventType.STEP_START:
            starts[entry.step_key] = entry.timestamp
        elif event.event_type in (DagsterEventType.STEP_SUCCESS, DagsterEventType.STEP_FAILURE):
            seconds[entry.step_key] = entry.timestamp - starts.get(entry.step_key, entry.timestamp)
    return seconds


def _stage_outcomes(
    result, keys: tuple[str, ...], partition: str | None, seconds: dict[str, float] | None = None
) -> list[StageOutcome]:
    checks: dict[str, dict[str, bool]] = {}
    for evaluation in result.get_asset_check_evaluations():
        checks.setdefault(evaluation.asset_key.to_user_string(), {})[evaluation.check_name] = evaluation.passed
    outcomes = []
    for key in keys:
        events = [e for e in result.get_asset_materialization_events() if e.asset_key == AssetKey(key)]
        metadata = {k: getattr(v, "value", v) for k, v in events[-1].materialization.metadata.items()} if events else {}
        outcomes.append(
            StageOutcome(
                stage=key + (f"[{partition}]" if partition else ""),
                success=bool(events),
                rows=metadata.get("dagster/row_count", metadata.get("written")),
                pass_rate=metadata.get("pass_rate"),
                checks=checks.get(key, {}),
                error=None if events else (_error(result) or "not materialized: an upstream stage failed"),
                path=str(metadata.get("path") or metadata.get("folder") or metadata.get("output") or "") or None,
                seconds=(seconds or {}).get("selected" if key in ("sft_set", "rl_set") else key),
            )
        )
    return outcomes


def _materialize_stages(
    cfg_json: str, entries_dir: str | None, keys: tuple[str, ...], partition: str | None, log_level: str
) -> list[StageOutcome]:
    """One Dagster run of ``keys`` (one partition of them, when given), on the instance of DAGSTER_HOME.

    A top-level function of plain arguments, so that a worker process can run it.
    """
    from pipelines.definitions import build_assets, build_resources

    cfg = PipelineConfig.model_validate_json(cfg_json)
    with DagsterInstance.get() as instance:
        result = materialize(
            build_assets(entries_dir, cfg),
            selection=AssetSelection.assets(*keys),
            instance=instance,
            partition_key=partition,
            resources=build_resources(),
            run_config=pipeline_run_config(cfg, keys, log_level),
            raise_on_error=False,
            tags={"aceforge/job": "run"},
        )
        seconds = _step_seconds(instance, result.run_id)
    return _stage_outcomes(result, keys, partition, seconds)


def run_pipeline(
    cfg: PipelineConfig,
    entries_dir: str | Path | None = None,
    log_level: str = "WARNING",
    workers: int = 1,
    progress: Callable[[str], None] = lambda _: None,
) -> tuple[list[SourceOutcome], list[StageOutcome]]:
    """Ingest, then synthesize per environment, then curate and publish; every outcome, in order.

    ``progress`` gets a line as each group of stages starts and one per stage as the group ends.

    A source that fails (or fails its blocking quarantine check) stops the run after ingest: curating
    what is left would publish a dataset silently missing that source.
    """
    progress("ingest: converting the catalog sources ...")
    with DagsterInstance.get() as instance:
        sources = run_ingest(instance, entries_dir, cfg.ingest, log_level)
    for source in sources:
        converted = source.metadata.get("converted")
        progress(
            f"ingest[{source.source}]: {'done' if source.ok else 'FAILED'}"
            + (f": {converted:,} records" if converted is not None else "")
        )
    if not all(o.ok for o in sources):
        return sources, []
    entries = str(entries_dir) if entries_dir else None
    cfg_json = cfg.model_dump_json()
    with (
        ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) if workers > 1 else _Inline() as pool
    ):
        futures = []
        for env in cfg.environments:
            progress(f"synthesize[{env}]: {', '.join(SYNTHESIZE)} ...")
            futures.append(pool.submit(_materialize_stages, cfg_json, entries, SYNTHESIZE, env, log_level))
        stages = []
        for future in futures:
            stages += _reported(future.result(), progress)
    progress(f"curate and publish: {', '.join(CURATE_AND_PUBLISH)} ...")
    stages += _reported(_materialize_stages(cfg_json, entries, CURATE_AND_PUBLISH, None, log_level), progress)
    return sources, stages


def _reported(outcomes: list[StageOutcome], progress: Callable[[str], None]) -> list[StageOutcome]:
    for outcome in outcomes:
        progress(outcome.line())
    return outcomes


class _Inline:
    """The executor interface, run in this process (one worker: no process start-up cost)."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, fn, *args):
        from concurrent.futures import Future

        future: Future = Future()
        future.set_result(fn(*args))
        return future
