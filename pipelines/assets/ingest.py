"""The ingest stage (pipelines/stages/ingest.py) as a Dagster asset: one partition per catalog source.

``converted`` is partitioned by the names of the catalog entries (YAML in
data_catalog/entries/, or the directory ``ACEFORGE_ENTRIES`` names). Each
partition runs the stage on its source's raw files, into Parquet plus
quarantine under the data directory; the record store (the IO manager)
registers both in the DuckDB catalog, under the source's name, as it
registers every asset. Row and quarantine counts become materialization
metadata, and a blocking check fails the partition when the stage judges
that too many of its records were quarantined.

Its run config is the stage's ``IngestConfig`` (see config_schema.py).
"""

from collections.abc import Iterator

from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetCheckSpec,
    AssetExecutionContext,
    AssetsDefinition,
    MetadataValue,
    Output,
    StaticPartitionsDefinition,
    asset,
)

from data_catalog.entries import CatalogEntry
from pipelines.assets.config_schema import config_schema
from pipelines.assets.progress import engine_step
from pipelines.assets.resources import StorageResource
from pipelines.stages.ingest import INGEST, Converted, IngestConfig
from runtime.executor import ExecutorConfig

CHECK_NAME = "quarantine_rate"


def quarantine_check(ran: Converted, cfg: IngestConfig) -> AssetCheckResult:
    """The blocking check: too large a share of the source's records quarantined (its format or data likely wrong)."""
    return AssetCheckResult(
        check_name=CHECK_NAME,
        passed=ran.quarantine_passed,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "quarantine_rate": ran.quarantine_rate,
            "max_quarantine_rate": cfg.max_quarantine_rate,
            "quarantined": ran.stats.quarantined,
            "read": ran.stats.read,
        },
    )


def source_metadata(ran: Converted) -> dict:
    stats = ran.stats
    return {
        "dagster/row_count": stats.converted,
        "read": stats.read,
        "converted": stats.converted,
        "quarantined": stats.quarantined,
        "quarantine_rate": ran.quarantine_rate,
        "raw_items": stats.raw_items,
        "format": ran.format,
        "output": MetadataValue.path(stats.output or ""),
        "quarantine": MetadataValue.path(stats.quarantine or ""),
        "config_hash": ran.config_hash,
        "top_errors": MetadataValue.json(dict(stats.top_errors(5))),
    }


def build_ingest_assets(entries: list[CatalogEntry], executor: ExecutorConfig) -> AssetsDefinition:
    """The partitioned ``converted`` asset over ``entries`` (partition key = entry name)."""
    by_name = {entry.name: entry for entry in entries}
    (records, _) = INGEST.outputs

    @asset(
        name=INGEST.op,
        group_name="ingest",
        partitions_def=StaticPartitionsDefinition(list(by_name)),
        check_specs=[
            AssetCheckSpec(
                CHECK_NAME,
                asset=INGEST.op,
                blocking=True,
                description=IngestConfig.model_fields["max_quarantine_rate"].description,
            )
        ],
        description=records.description,
        kinds={"python", "parquet", "duckdb"},
        io_manager_key="record_store",
        config_schema=config_schema(INGEST.config),
    )
    def converted(context: AssetExecutionContext, storage: StorageResource) -> Iterator[Output | AssetCheckResult]:
        cfg = INGEST.config.from_mapping(context.op_execution_context.op_config, origin="run config")
        entry = by_name[context.partition_key]
        context.log.info(f"converting {entry.name} ({entry.format}) from {entry.paths}")
        # the converted files (and generated demo sources) go under the data home
        with storage.as_data_home(), engine_step(context, executor) as running:
            inputs, outputs = INGEST.from_assets({"source": entry}, {})
            ran = INGEST.run(inputs, outputs, cfg, running, False)
        for line in ran.lines:
            context.log.info(f"{entry.name}: {line}")
        yield Output(ran, metadata=source_metadata(ran))
        yield quarantine_check(ran, cfg)

    return converted
