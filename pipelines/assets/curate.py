"""Curation as Dagster assets: verified -> scored -> deduplicated -> the SFT and RL sets, and the ACE report.

Thin wrappers over verifiers/ and curation/, which work file to file with side
tables beside each records file (``records.scores.parquet``,
``records.signatures.parquet``, ``records.dedup.parquet``); each asset runs its
stage into its own folder and returns ``StoredRecords``.
"""

import base64
from collections import Counter
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

from curation.config import DedupConfig, ReportConfig, ScoreConfig, SelectConfig
from curation.dedup_stage import run_dedup
from curation.report import ace_report
from curation.score_stage import run_score
from curation.select_stage import SelectOutputs, run_select
from curation.signatures import sidecar
from pipelines.assets.config_schema import config_schema
from pipelines.assets.ingest import ASSET_NAME as CONVERTED
from pipelines.assets.progress import engine_step
from pipelines.assets.record_store import RECORDS_FILE, RecordSet, StoredRecords, asset_dir, without_file_images
from pipelines.assets.resources import EmbedderResource, StorageResource
from pipelines.pipeline_config import PipelineConfig
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

    @asset(
        group_name="curate",
        io_manager_key="record_store",
        ins={"records": AssetIn("verified"), "learner": AssetIn("learner_rollouts")},
        config_schema=config_schema(ScoreConfig, defaults.score),
        description="ACE scores: accuracy, complexity (structural, and the pass rate of the declared learner counted "
        "from its own rollouts, with its id), diversity.",
        kinds={"python", "parquet"},
    )
    def scored(
        context: AssetExecutionContext,
        records: RecordSet,
        learner: RecordSet,
        storage: StorageResource,
        embedder: EmbedderResource,
    ) -> StoredRecords:
        embedder.activate()
        cfg = ScoreConfig.from_mapping(context.op_execution_context.op_config, "run config")
        path = asset_dir(storage, context) / RECORDS_FILE
        with storage.as_data_home(), engine_step(context, defaults.executor) as executor:
            result = run_score(_single(records), path, cfg, learner, executor=executor)
        return StoredRecords(path, result.summary(), [*records.paths, *learner.paths], cfg)

    @asset(
        group_name="curate",
        io_manager_key="record_store",
        ins={"records": AssetIn("scored")},
        config_schema=config_schema(DedupConfig, defaults.dedup),
        check_specs=[AssetCheckSpec("duplicate_rate", asset="deduplicated", blocking=True)],
        description="Duplicates removed (exact, structural, MinHash, semantic); records.dedup.parquet names each kept twin.",
        kinds={"python", "parquet"},
    )
    def deduplicated(context: AssetExecutionContext, records: RecordSet, storage: StorageResource):
        cfg = DedupConfig.from_mapping(context.op_execution_context.op_config, "run config")
        path = asset_dir(storage, context) / RECORDS_FILE
        with storage.as_data_home(), engine_step(context, defaults.executor) as executor:
            result = run_dedup(_single(records), path, cfg, executor=executor)
        summary = result.summary()
        yield Output(StoredRecords(path, summary, records.paths, cfg))
        yield duplicate_rate(summary["removed"], summary["records"], defaults.max_duplicate_rate)

    @multi_asset(
        group_name="curate",
        outs={
            "sft_set": AssetOut(
                io_manager_key="record_store", description="Verified successes, diverse, under the budget."
            ),
            "rl_set": AssetOut(
                io_manager_key="record_store",
                description="Tasks whose learner rollouts earned unequal rewards, by learnability.",
            ),
        },
        ins={"records": AssetIn("deduplicated")},
        config_schema=config_schema(SelectConfig, defaults.select),
        check_specs=[AssetCheckSpec("sft_set_verified", asset="sft_set", blocking=True)],
    )
    def selected(context: AssetExecutionContext, records: RecordSet, storage: StorageResource):
        cfg = SelectConfig.from_mapping(context.op_execution_context.op_config, "run config")
        sft, rl = (asset_dir(storage, context, name) / RECORDS_FILE for name in ("sft_set", "rl_set"))
        # The left-out table and the manifest are the SFT set's side files (what did not make it, and why).
        paths = SelectOutputs(sft, rl, sft.with_name("records.left_out.parquet"), sft.with_name("selection.json"))
        with storage.as_data_home():
            result = run_select(_single(records), paths, cfg)
        summary = result.summary()
        # Why the RL set is empty is the RL set's to say (the run's table prints it once, under rl_set).
        sft_counts = {key: value for key, value in summary.items() if key != "rl_empty"}
        yield Output(StoredRecords(sft, sft_counts, records.paths, cfg), output_name="sft_set")
        rl_counts = {key: summary[key] for key in ("rl", "rl_empty") if key in summary}  # rl_empty: why none
        yield Output(StoredRecords(rl, rl_counts, records.paths, cfg), output_name="rl_set")
        yield sft_set_verified(RecordSet([sft]), cfg.accept_imported_verdicts, cfg.accept_undecided)

    @asset(
        name="ace_report",
        group_name="curate",
        ins={
            "records": AssetIn("scored"),
            "deduplicated": AssetIn("deduplicated"),
            "sft": AssetIn("sft_set"),
            "rl": AssetIn("rl_set"),
        },
        config_schema=config_schema(ReportConfig, defaults.report),
        description="The ACE report: plots and a markdown summary of scores, dedup and selection.",
        kinds={"python", "markdown"},
    )
    def ace_report_asset(
        context: AssetExecutionContext,
        records: RecordSet,
        deduplicated: RecordSet,
        sft: RecordSet,
        rl: RecordSet,
        storage: StorageResource,
    ):
        cfg = ReportConfig.from_mapping(context.op_execution_context.op_config, "run config")
        out = asset_dir(storage, context)
        with storage.as_data_home():
            report = ace_report(
                _single(records),
                out,
                cfg,
                audit=sidecar(_single(deduplicated), "dedup"),  # the side files beside the upstream records
                left_out=_single(sft).with_name("records.left_out.parquet"),
                sets={"sft": sft.rows(), "rl": rl.rows()},
            )
        images = "\n\n".join(f"**{name}**\n\n![{name}]({_data_uri(path)})" for name, path in report.plots.items())
        return MaterializeResult(
            metadata={
                "summary": MetadataValue.md(without_file_images(report.markdown, "see the plots entry")),
                "plots": MetadataValue.md(images),
                "folder": MetadataValue.path(str(out)),
            }
        )

    return [verified, scored, deduplicated, selected, ace_report_asset]


def _single(records: RecordSet) -> Path:
    (path,) = records.paths
    return path


def _data_uri(png: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()
