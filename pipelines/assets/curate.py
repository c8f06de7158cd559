"""Curation as Dagster assets: verified -> scored -> deduplicated -> the SFT and RL sets, and the ACE report.

``verified`` re-verifies every record (verifiers/); the others are made by ``stage_asset`` from the stages of
pipelines/stage.py, the same definitions the ``aceforge`` commands are made from. The curation library works
file to file with side tables beside each records file (``records.scores.parquet``,
``records.signatures.parquet``, ``records.dedup.parquet``); each asset runs its stage into its own folder and
returns ``StoredRecords``.
"""

import base64
from collections import Counter
from contextlib import nullcontext
from itertools import chain
from pathlib import Path

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
    asset,
    multi_asset,
)

from pipelines.assets.config_schema import config_schema
from pipelines.assets.ingest import ASSET_NAME as CONVERTED
from pipelines.assets.progress import engine_step
from pipelines.assets.record_store import RecordSet, StoredRecords, asset_dir, without_file_images
from pipelines.assets.resources import StorageResource
from pipelines.pipeline_config import PipelineConfig
from pipelines.stage import CURATION, RECORDS_FILE, Ran, Stage
from schemas.arrow_schema import RECORD_SCHEMA
from schemas.io import iter_parquet_rows, row_to_record, write_records
from verifiers.batch import VerifyStats, reverify
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
    @asset(
        group_name="curate",
        io_manager_key="record_store",
        ins={
            # each source's records: the catalog version its materialization recorded
            "sources": AssetIn(CONVERTED),
            "tasks": AssetIn("synth_tasks"),
            "rollouts": AssetIn("rollouts"),
        },
        check_specs=[AssetCheckSpec("schema_valid", asset="verified", blocking=True)],
        description="Every converted record and rollout, verified again by the chain (structure, replay, constraints, "
        "...), plus the synthesized tasks (no trajectory to verify: the RL candidates).",
        kinds={"python", "parquet"},
    )
    def verified(
        context: AssetExecutionContext,
        sources: RecordSet,
        tasks: RecordSet,
        rollouts: RecordSet,
        storage: StorageResource,
    ):
        stats = VerifyStats()
        path = asset_dir(storage, context) / RECORDS_FILE
        with storage.as_data_home():
            write_records(chain(reverify(chain(sources, rollouts), stats), tasks), path)
        yield Output(StoredRecords(path, stats.as_dict(), [*sources.paths, *rollouts.paths, *tasks.paths]))
        yield schema_valid(path, sources.rows() + rollouts.rows() + tasks.rows())

    return [verified, *(stage_asset(stage, defaults) for stage in CURATION)]


CHECKS = {  # each stage's blocking checks, yielded below from what it ran
    "dedup": [AssetCheckSpec("duplicate_rate", asset="deduplicated", blocking=True)],
    "select": [AssetCheckSpec("sft_set_verified", asset="sft_set", blocking=True)],
}
MODELS = {"score": ["embedder"]}  # resources a stage's asset loads before it runs


def stage_asset(stage: Stage, defaults: PipelineConfig) -> AssetsDefinition:
    """The Dagster face of ``stage``: its op reads the upstream assets' records, runs the stage into its assets'
    folders and returns each records output to the record store (a folder output, the report, as metadata)."""
    kept = [out for out in stage.outputs if out.asset]

    @multi_asset(
        name=stage.op,
        group_name="curate",
        ins={name: AssetIn(key) for name, key in stage.inputs.items()},
        outs={
            out.asset: AssetOut(
                io_manager_key="record_store" if out.kind == "records" else None,
                description=out.description,
                kinds={"python", "parquet" if out.kind == "records" else "markdown"},
            )
            for out in kept
        },
        config_schema=config_schema(stage.config, getattr(defaults, stage.name)),
        check_specs=CHECKS.get(stage.name, []),
        required_resource_keys={"storage", *MODELS.get(stage.name, [])},
    )
    def run(context: AssetExecutionContext, **upstream: RecordSet):
        for model in MODELS.get(stage.name, []):
            getattr(context.resources, model).activate()
        storage: StorageResource = context.resources.storage
        cfg = stage.config.from_mapping(context.op_execution_context.op_config, "run config")
        inputs, outputs = stage.from_assets(
            upstream, {out.name: asset_dir(storage, context, out.asset) for out in kept}
        )
        step = engine_step(context, defaults.executor, kept[0].asset) if stage.scales_out else nullcontext()
        with storage.as_data_home(), step as executor:
            ran = stage.run(inputs, outputs, cfg, executor, False)
        read = [path for records in upstream.values() for path in records.paths]
        products = {product.name: product for product in ran.products}
        for out, product in ((out, products[out.name]) for out in kept):
            if out.kind == "records":
                yield Output(StoredRecords(product.path, product.counts, read, cfg), output_name=out.asset)
            else:  # the report's folder: what the UI shows of it
                yield MaterializeResult(asset_key=out.asset, metadata=report_metadata(ran, product.path))
        if stage.name == "dedup":
            yield duplicate_rate(ran.summary["removed"], ran.summary["records"], defaults.max_duplicate_rate)
        elif stage.name == "select":
            yield sft_set_verified(RecordSet([outputs["sft"]]), cfg.accept_imported_verdicts, cfg.accept_undecided)

    return run


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
