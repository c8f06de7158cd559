"""The main job (``aceforge run``): the jobs of definitions.py, run by Dagster, one after another.

Every run is a Dagster run on a persistent instance (its DAGSTER_HOME under
the data directory), so the runs, materializations and check results show up
in ``aceforge ui`` afterwards, exactly as runs launched there: one run of the
ingest job per catalog source, one of the synthesize job per environment,
then one of curate and one of publish. ``--workers`` hands each run to
Dagster's multiprocess executor. A failing source does not stop the others;
every outcome is reported. Outputs are written atomically to paths keyed by
asset and partition and registered idempotently, so a run killed midway and
started again ends with the same files and catalog versions.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dagster import (
    DagsterEvent,
    DagsterEventType,
    DagsterInstance,
    EventLogEntry,
    JobDefinition,
    RunsFilter,
    build_reconstructable_job,
    execute_job,
)
from dagster._core.definitions.reconstruct import ReconstructableJob
from dagster._core.execution.job_execution_result import JobExecutionResult
from dagster._core.instance.ref import InstanceRef

from pipelines.assets.progress import progress_of
from pipelines.assets.resources import StorageResource
from pipelines.catalog_names import JOB_ASSETS
from pipelines.interrupts import Interrupts
from pipelines.pipeline_config import PipelineConfig
from pipelines.stages.curation import CURATION
from pipelines.stages.ingest import INGEST, IngestConfig
from pipelines.storage_complaints import storage_complaints_held
from runtime.disk import disk_full
from runtime.settings import data_home

# Tags every run this module launches, so its stage lines can find the run Dagster created.
LAUNCH_TAG = "aceforge/launch"


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
    materializations = result.asset_materializations_for_node(INGEST.op)
    if not materializations:
        return {}
    return {key: getattr(value, "value", value) for key, value in materializations[-1].metadata.items()}


def _error(result) -> str | None:
    """The root cause of a failed run, in one line (Dagster wraps the asset's own exception)."""
    failures = result.get_step_failure_events()
    if not failures:
        return None if result.success else "run failed"
    return _root_cause(failures[0])


def _root_cause(failure: DagsterEvent) -> str:
    error = failure.step_failure_data.error if failure.step_failure_data else None
    if error is None:
        return "step failed"
    while error.cause is not None:
        error = error.cause
    return " ".join(error.message.split())


def run_instance(dagster_home: Path) -> DagsterInstance:
    """The persistent instance in ``dagster_home``, its Python log level INFO: the run's log keeps the steps' INFO
    lines (their progress), and Dagster's DEBUG engine events (the multiprocess executor's "executing step in
    subprocess") stay off the terminal. Step processes get the same settings through the instance's ref."""
    overrides = {"python_logs": {"python_log_level": "INFO"}}
    return DagsterInstance.from_ref(InstanceRef.from_dir(str(dagster_home), overrides=overrides))


def pipeline_job(name: str, entries_dir: str | None, home: str, cfg_json: str) -> JobDefinition:
    """The job ``name`` of definitions.py, built on the run's entries, data directory and configuration.

    Module-level and of plain arguments, so Dagster can rebuild the job in each step's process
    (``build_reconstructable_job``) when the multiprocess executor runs it.
    """
    from pipelines.definitions import build_definitions

    cfg = PipelineConfig.model_validate_json(cfg_json)
    return build_definitions(entries_dir, cfg, StorageResource(home=home)).resolve_job_def(name)


@dataclass(frozen=True)
class PipelineJobs:
    """How this run launches the jobs of definitions.py: on which entries, data, configuration and executor."""

    cfg: PipelineConfig
    entries_dir: str | None
    home: str
    log_level: str = "WARNING"
    workers: int = 1

    def job(self, name: str) -> ReconstructableJob:
        args = (name, self.entries_dir, self.home, self.cfg.model_dump_json())
        return build_reconstructable_job(__name__, pipeline_job.__name__, reconstructable_args=args)

    def partitions(self, name: str) -> list[str]:
        return self.job(name).get_definition().partitions_def.get_partition_keys()

    def execute(
        self, instance: DagsterInstance, name: str, partition: str | None, progress: Callable[[str], None]
    ) -> tuple[JobExecutionResult, dict[str, float]]:
        """One run of the job (one partition of it), its stages' start and end lines to ``progress`` as they come;
        the result and each step's seconds from start to end."""
        executor = {"multiprocess": {"max_concurrent": self.workers}} if self.workers > 1 else {"in_process": {}}
        run_config = {
            **pipeline_run_config(self.cfg, JOB_ASSETS[name], self.log_level),
            "execution": {"config": executor},
        }
        launch = uuid.uuid4().hex
        tags = {"aceforge/job": "run", LAUNCH_TAG: launch, **({"dagster/partition": partition} if partition else {})}
        with StepLines(instance, launch, JOB_ASSETS[name], partition, progress) as lines:
            result = execute_job(self.job(name), instance, run_config=run_config, tags=tags)
        return result, lines.seconds


def run_ingest(
    instance: DagsterInstance,
    entries_dir: str | Path | None = None,
    config: IngestConfig | None = None,
    log_level: str = "WARNING",
) -> list[SourceOutcome]:
    """One run of the ingest job per catalog source partition; returns each source's outcome."""
    cfg = PipelineConfig(ingest=config or IngestConfig())
    jobs = PipelineJobs(cfg, str(entries_dir) if entries_dir else None, str(data_home()), log_level)
    return [_source_outcome(key, jobs.execute(instance, "ingest", key, _quiet)[0]) for key in jobs.partitions("ingest")]


def _source_outcome(key: str, result: JobExecutionResult) -> SourceOutcome:
    checks = [evaluation.passed for evaluation in result.get_asset_check_evaluations()]
    return SourceOutcome(
        source=key,
        run_id=result.run_id,
        success=result.success,
        check_passed=all(checks) if checks else None,
        metadata=_metadata(result),
        error=_error(result),
    )


def _quiet(_: str) -> None:
    return None


@dataclass
class StageOutcome:
    """One asset (or asset partition) of a pipeline run."""

    stage: str
    success: bool
    rows: int | None
    pass_rate: float | None
    checks: dict[str, bool]
    undecided: int = 0  # records the verifier could not decide
    error: str | None = None
    path: str | None = None
    seconds: float | None = None  # from the step's start to its end
    note: str | None = None  # one line on what it made, e.g. why the RL set is empty

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
    "converted": "ingest",
    "synth_tasks": "tasks",
    "rollouts": "rollouts",
    "learner_rollouts": "learner",
    **{stage.op: stage.name for stage in CURATION},
    "hub_folder": "hub",
}


def op_of(key: str) -> str:
    """The op (step) that materializes the asset ``key``: one selection step writes sft_set and rl_set."""
    return next((stage.op for stage in CURATION for out in stage.outputs if out.asset == key), key)


def pipeline_run_config(cfg: PipelineConfig, keys: tuple[str, ...], log_level: str) -> dict[str, Any]:
    """Each selected stage's section of the configuration, as its op's config."""
    sections = cfg.model_dump(mode="json")
    ops = {op_of(key) for key in keys}
    return {
        "ops": {op: {"config": sections[section]} for op, section in SECTIONS.items() if op in ops},
        "loggers": {"console": {"config": {"log_level": log_level}}},
    }


def _stage_outcomes(
    events: list[DagsterEvent], keys: tuple[str, ...], partition: str | None, seconds: dict[str, float]
) -> list[StageOutcome]:
    """The outcome of each asset in ``keys`` from a run's events (all of them, or those so far)."""
    checks: dict[str, dict[str, bool]] = {}
    metadata: dict[str, dict[str, Any]] = {}
    failures = {}
    for event in events:
        if event.event_type == DagsterEventType.ASSET_CHECK_EVALUATION:
            evaluation = event.event_specific_data
            checks.setdefault(evaluation.asset_key.to_user_string(), {})[evaluation.check_name] = evaluation.passed
        elif event.event_type == DagsterEventType.ASSET_MATERIALIZATION:
            values = event.step_materialization_data.materialization.metadata.items()
            metadata[event.asset_key.to_user_string()] = {k: getattr(v, "value", v) for k, v in values}
        elif event.event_type == DagsterEventType.STEP_FAILURE:
            failures[event.step_key] = _root_cause(event)
    outcomes = []
    for key in keys:
        made = metadata.get(key)
        outcomes.append(
            StageOutcome(
                stage=key + (f"[{partition}]" if partition else ""),
                success=made is not None,
                rows=None if made is None else made.get("dagster/row_count", made.get("written")),
                pass_rate=(made or {}).get("pass_rate"),
                checks=checks.get(key, {}),
                undecided=int((made or {}).get("undecided") or 0),
                error=None
                if made is not None
                else failures.get(op_of(key)) or next(iter(failures.values()), None) or NOT_RUN,
                path=str((made or {}).get("path") or (made or {}).get("folder") or (made or {}).get("output") or "")
                or None,
                seconds=seconds.get(op_of(key)),
                note=(made or {}).get("stage/rl_empty"),
            )
        )
    return outcomes


NOT_RUN = "not materialized: an upstream stage failed"


class StepLines:
    """Says when each stage of a run starts, how far it is (its progress lines) and when it ends (rows and time),
    read from the instance's event log as the run writes it: the steps may be in this process or in the
    multiprocess executor's children."""

    def __init__(
        self,
        instance: DagsterInstance,
        launch: str,
        keys: tuple[str, ...],
        partition: str | None,
        progress: Callable[[str], None],
        every_s: float = 0.5,
    ):
        self.instance, self.launch, self.keys, self.partition = instance, launch, keys, partition
        self.progress, self.every_s = progress, every_s
        self.run_id: str | None = None
        self.cursor: str | None = None
        self.events: list[DagsterEvent] = []
        self.starts: dict[str, float] = {}
        self.seconds: dict[str, float] = {}  # by step: from its start to its success or failure
        self.stop = threading.Event()
        self.error: Exception | None = None  # the full disk that ended the watch early
        self.thread = threading.Thread(target=self._watch, name="aceforge-step-lines", daemon=True)

    def __enter__(self) -> StepLines:
        self.thread.start()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.stop.set()
        self.thread.join()
        if exc is None and self.error is not None:
            raise self.error

    def _watch(self) -> None:
        """Reads until told to stop, and once more after. A full disk (SQLite's reads fail on it too) ends the watch
        and is raised where the run was launched, as the run's own error, rather than printed from this thread."""
        try:
            while not self.stop.wait(self.every_s):
                self._read()
            self._read()  # what the run wrote after the last look
        except Exception as exc:
            if disk_full(exc) is None:
                raise
            self.error = exc

    def _read(self) -> None:
        if self.run_id is None:
            runs = self.instance.get_run_records(RunsFilter(tags={LAUNCH_TAG: self.launch}), limit=1)
            if not runs:
                return
            self.run_id = runs[0].dagster_run.run_id
        page = self.instance.get_records_for_run(self.run_id, cursor=self.cursor)
        self.cursor = page.cursor
        for record in page.records:
            self._seen(record.event_log_entry)

    def _seen(self, entry: EventLogEntry) -> None:
        keys = tuple(key for key in self.keys if op_of(key) == entry.step_key)
        stage = f"{', '.join(keys)}{f'[{self.partition}]' if self.partition else ''}"
        event = entry.dagster_event
        if event is None:  # a log line of the step: its progress, when it says any
            said = progress_of(entry.user_message)
            if keys and said:
                self.progress(f"{stage}: {said}")
            return
        self.events.append(event)
        if not keys:
            return
        if event.event_type == DagsterEventType.STEP_START:
            self.starts[entry.step_key] = entry.timestamp
            self.progress(f"{stage}: started")
        elif event.event_type in (DagsterEventType.STEP_SUCCESS, DagsterEventType.STEP_FAILURE):
            self.seconds[entry.step_key] = entry.timestamp - self.starts.get(entry.step_key, entry.timestamp)
            for outcome in _stage_outcomes(self.events, keys, self.partition, self.seconds):
                if disk_full(outcome.error) is None:  # a full disk stops the run, which says so in one line
                    self.progress(outcome.line())


def stop_if_disk_full(stage: str, error: str | None) -> None:
    """A stage that failed for want of space stops the run (every later stage would fail too, its run and event
    storage being in the same folder), raised as an OSError the caller can tell for what it is (runtime/disk.py)."""
    code = disk_full(error)
    if code is not None:
        raise OSError(code, f"{stage}: {error}")


def run_pipeline(
    cfg: PipelineConfig,
    entries_dir: str | Path | None = None,
    log_level: str = "WARNING",
    workers: int = 1,
    progress: Callable[[str], None] = _quiet,
    instance: DagsterInstance | None = None,
) -> tuple[list[SourceOutcome], list[StageOutcome]]:
    """Ingest, then synthesize per environment, then curate, then publish: the jobs of definitions.py, one run
    per partition, on ``instance`` (default: DAGSTER_HOME's); every outcome, in order.

    ``progress`` gets a line as each job starts and as each of its stages starts and ends. ``workers`` > 1 runs
    each job's independent steps in that many processes at once (Dagster's multiprocess executor).

    A source that fails (or fails its blocking quarantine check) stops the run after ingest: curating
    what is left would publish a dataset silently missing that source.
    """
    jobs = PipelineJobs(cfg, str(entries_dir) if entries_dir else None, str(data_home()), log_level, workers)
    with storage_complaints_held(), instance or DagsterInstance.get() as instance, Interrupts() as interrupts:

        def execute(name: str, partition: str | None) -> tuple[JobExecutionResult, dict[str, float]]:
            with interrupts.job():
                done = jobs.execute(instance, name, partition, progress)
            if interrupts.requested:  # Ctrl-C or SIGTERM: nothing more is launched (pipelines/interrupts.py)
                raise KeyboardInterrupt
            return done

        progress("ingest: converting the catalog sources ...")
        sources = []
        for key in jobs.partitions("ingest"):
            sources.append(_source_outcome(key, execute("ingest", key)[0]))
            stop_if_disk_full(sources[-1].source, sources[-1].error)
        if not all(o.ok for o in sources):
            return sources, []
        stages: list[StageOutcome] = []
        for name in ("synthesize", "curate", "publish"):
            for partition in jobs.partitions(name) if name == "synthesize" else [None]:
                where = f"[{partition}]" if partition else ""
                progress(f"{name}{where}: {', '.join(JOB_ASSETS[name])} ...")
                result, seconds = execute(name, partition)
                outcomes = _stage_outcomes(result.all_events, JOB_ASSETS[name], partition, seconds)
                for outcome in outcomes:
                    if outcome.seconds is None:  # never started: no line was said for it
                        progress(outcome.line())
                    stop_if_disk_full(outcome.stage, outcome.error)
                stages += outcomes
    return sources, stages
