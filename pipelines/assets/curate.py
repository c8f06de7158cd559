"""Curation as Dagster assets: verified -> scored -> deduplicated -> the SFT and RL sets, and the ACE report.

Each asset is made by ``stage_asset`` from a stage of pipelines/stages/ (verify, then the curation stages), the same
definitions the ``aceforge`` commands are made from; the synthesis assets (pipelines/assets/synth.py) are made by it
too. The curation library works file to file with side tables beside each records file (``records.scores.parquet``,
``records.signatures.parquet``, ``records.dedup.parquet``); each asset runs its stage into its own folder and
returns ``StoredRecords``.
"""

import base64
from collections import Counter
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetCheckSpec,
    AssetExecutionContext,
    AssetIn,
    AssetOut,
    AssetsDefinition,
    MaterializeResult,
    MetadataValue,
    Output,
    StaticPartitionsDefinition,
    multi_asset,
)

from pipelines.assets.config_schema import config_schema
from pipelines.assets.progress import engine_step, step_progress
from pipelines.assets.record_store import RecordSet, StoredRecords, asset_dir, without_file_images
from pipelines.assets.resources import StorageResource
from pipelines.pipeline_config import PipelineConfig
from pipelines.stages import ENVIRONMENT, Paths, Ran, Stage
from pipelines.stages.curation import CURATION
from pipelines.stages.verify import VERIFY
from schemas.arrow_schema import RECORD_SCHEMA
from schemas.io import iter_parquet_rows, row_to_record
from verifiers.runner import can_decide


def schema_valid(path: Path, expected: int) -> AssetCheckResult:
    """The verified file read back: the fixed Arrow schema, every row a valid record, every trajectory the chain
    can decide carrying the chain's own verdict (never a stale or imported one), and as many rows as went in."""
    problems: Counter = Counter()
    rows = 0
    try:
        if pq.read_schema(path) != RECORD_SCHEMA:
            problems["arrow_schema"] += 1
        for row in iter_parquet_rows(path) if not problems else ():
            rows += 1
            try:
                record = row_to_record(row)
            except (ValueError, TypeError, KeyError):
                problems["invalid_record"] += 1
                continue
            result = record.verifier.result
            if record.trajectory and can_decide(record) and (result is None or result.origin is None):
                problems["not_reverified"] += 1  # the chain could have decided it, yet the verdict is not its own
    except (OSError, pa.ArrowInvalid) as exc:
        problems[f"unreadable: {exc}"[:120]] += 1
    return AssetCheckResult(
        check_name="schema_valid",
        passed=not problems and rows == expected,
        severity=AssetCheckSeverity.ERROR,
        metadata={"rows": rows, "expected": expected, **{f"problem_{k}": v for k, v in problems.items()}},
    )


def duplicate_rate(removed: int, records: int, max_rate: float) -> AssetCheckResult:
    rate = removed / records if records else 0.0
    return AssetCheckResult(
        check_name="duplicate_rate",
        passed=rate <= max_rate,
        severity=AssetCheckSeverity.ERROR,
        metadata={"duplicate_rate": rate, "max_duplicate_rate": max_rate},
    )


def sft_set_verified(records: RecordSet, accept_imported: bool, accept_undecided: bool = False) -> AssetCheckResult:
    """Every SFT record is a success aceforge verified itself (or, when accepted, one its source vouched for, or
    one the verifier could not decide)."""
    origins = Counter(r.verifier.result.provenance if r.verifier.result else "none" for r in records)
    trusted = {"computed", *(["imported"] if accept_imported else []), *(["undecided"] if accept_undecided else [])}
    # a record that passed, or one the verifier could not decide when those are accepted
    passed = Counter(
        bool(r.verifier.result and (r.verifier.result.passed or r.verifier.result.provenance == "undecided"))
        for r in records
    )
    bad = passed[False] + sum(n for origin, n in origins.items() if origin not in trusted)
    return AssetCheckResult(
        check_name="sft_set_verified",
        asset_key="sft_set",
        passed=sum(origins.values()) > 0 and bad == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "records": sum(origins.values()),
            "not_verified_passed": passed[False],
            **{f"verdicts_{origin}": n for origin, n in origins.items()},
        },
    )


def build_curate_assets(defaults: PipelineConfig) -> list[AssetsDefinition]:
    return [stage_asset(stage, defaults) for stage in (VERIFY, *CURATION)]


@dataclass(frozen=True)
class Check:  # a stage's blocking check: its spec and how it is decided from what the stage ran
    asset: str
    name: str
    decide: Callable[[Ran, Paths, dict[str, RecordSet], Any, PipelineConfig], AssetCheckResult]


CHECKS = {
    "verify": Check(
        "verified",
        "schema_valid",
        lambda ran, outputs, upstream, cfg, defaults: schema_valid(
            outputs["records"], sum(records.rows() for records in upstream.values())
        ),
    ),
    "dedup": Check(
        "deduplicated",
        "duplicate_rate",
        lambda ran, outputs, upstream, cfg, defaults: duplicate_rate(
            ran.summary["removed"], ran.summary["records"], defaults.max_duplicate_rate
        ),
    ),
    "select": Check(
        "sft_set",
        "sft_set_verified",
        lambda ran, outputs, upstream, cfg, defaults: sft_set_verified(
            RecordSet([outputs["sft"]]), cfg.accept_imported_verdicts, cfg.accept_undecided
        ),
    ),
}
MODELS = {"score": ["embedder"]}  # resources a stage's asset loads before it runs
GIVEN = {"rollouts": ["generation"]}  # resources a stage's asset gives its from_assets, by name, with the upstream


def stage_asset(stage: Stage, defaults: PipelineConfig, group: str = "curate") -> AssetsDefinition:
    """The Dagster face of ``stage``: its op reads the upstream assets' records, runs the stage into its assets'
    folders and returns each records output to the record store (a folder output, the report, as metadata). A
    partitioned stage's asset has one partition per environment of ``defaults``; a stage that counts its steps says
    their progress in the run's log."""
    kept = [out for out in stage.outputs if out.asset]
    check = CHECKS.get(stage.name)
    given = GIVEN.get(stage.name, [])

    @multi_asset(
        name=stage.op,
        group_name=group,
        partitions_def=StaticPartitionsDefinition(defaults.environments) if stage.partitioned else None,
        ins={name: AssetIn(key) for name, key in stage.inputs.items()},
        outs={
            out.asset: AssetOut(
                io_manager_key="record_store" if out.kind == "records" else None,
                description=out.description,
                kinds={"python", "parquet" if out.kind == "records" else "markdown"},
            )
            for out in kept
        },
        config_schema=config_schema(stage.config, getattr(defaults, stage.name)) if stage.configured else None,
        check_specs=[AssetCheckSpec(check.name, asset=check.asset, blocking=True)] if check else [],
        required_resource_keys={"storage", *MODELS.get(stage.name, []), *given},
    )
    def run(context: AssetExecutionContext, **upstream: RecordSet):
        for model in MODELS.get(stage.name, []):
            getattr(context.resources, model).activate()
        storage: StorageResource = context.resources.storage
        op_config = context.op_execution_context.op_config
        pipeline_gives = {name: getattr(context.resources, name) for name in given}
        if stage.partitioned:
            pipeline_gives[ENVIRONMENT] = context.partition_key
            if "env" in stage.config.model_fields:
                op_config = {**op_config, "env": context.partition_key}
        cfg = stage.config.from_mapping(op_config, "run config") if stage.configured else stage.config()
        inputs, outputs = stage.from_assets(
            {**upstream, **pipeline_gives}, {out.name: asset_dir(storage, context, out.asset) for out in kept}
        )
        step = engine_step(context, defaults.executor, kept[0].asset) if stage.scales_out else nullcontext()
        progress = partial(logged_step, context) if stage.steps else False
        with storage.as_data_home(), step as executor:
            ran = stage.run(inputs, outputs, cfg, executor, progress)
        for line in ran.lines:  # what the command prints
            context.log.info(line)
        read = [path for records in upstream.values() for path in records.paths]
        products = {product.name: product for product in ran.products}
        for out, product in ((out, products[out.name]) for out in kept):
            if out.kind == "records":
                # A stage the pipeline does not configure has no configuration in its catalog config hash.
                stored = StoredRecords(product.path, product.counts, read, cfg if stage.configured else None)
                yield Output(stored, output_name=out.asset)
            else:  # the report's folder: what the UI shows of it
                yield MaterializeResult(asset_key=out.asset, metadata=report_metadata(ran, product.path))
        if check:
            yield check.decide(ran, outputs, upstream, cfg, defaults)

    return run


def logged_step(context: AssetExecutionContext, doing: str, unit: str, total: int):
    """A stage step's ``Progress`` in the run's log: ``progress: done/total unit, N s``."""
    return step_progress(context, unit, total)


def report_metadata(report: Ran, folder: Path) -> dict[str, MetadataValue]:
    """The report as the UI shows it: its summary, its plots inline, its folder."""
    plots = report.summary["plots"]
    images = "\n\n".join(f"**{name}**\n\n![{name}]({_data_uri(Path(path))})" for name, path in plots.items())
    return {
        "summary": MetadataValue.md(without_file_images(report.lines[0], "see the plots entry")),
        "plots": MetadataValue.md(images),
        "folder": MetadataValue.path(str(folder)),
    }


def _data_uri(png: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()
