"""The ingest stage as Dagster assets: one partition per catalog source.

``converted`` is partitioned by the names of the catalog entries (YAML in
data_catalog/entries/, or the directory ``ACEFORGE_ENTRIES`` names). Each
partition converts its source's raw files into Parquet plus quarantine under
the data directory, through data_catalog.ingest (this module only wires it
into Dagster); the record store (the IO manager) registers both in the DuckDB
catalog, under the source's name, as it registers every asset. Row and
quarantine counts become materialization metadata, and a blocking check
fails the partition when too many of its records were quarantined.

Its run config is ``data_catalog.ingest.IngestConfig`` (see config_schema.py).
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
from data_catalog.ingest import IngestConfig, IngestResult, ingest_entry
from pipelines.assets.config_schema import config_schema
from pipelines.assets.progress import engine_step
from pipelines.assets.resources import StorageResource
from runtime.executor import ExecutorConfig

ASSET_NAME = "converted"
CHECK_NAME = "quarantine_rate"


def quarantine_check(result: IngestResult, max_rate: float) -> AssetCheckResult:
    """The blocking check: too large a share of the source's records quarantined (its format or data likely wrong)."""
    return AssetCheckResult(
        check_name=CHECK_NAME,
        passed=result.quarantine_rate <= max_rate,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "quarantine_rate": result.quarantine_rate,
            "max_quarantine_rate": max_rate,
            "quarantined": result.stats.quarantined,
            "read": result.stats.read,
        },
    )


def source_metadata(result: IngestResult) -> dict:
    stats = result.stats
    return {
        "dagster/row_count": stats.converted,
        "read": stats.read,
        "converted": stats.converted,
        "quarantined": stats.quarantined,
        "quarantine_rate": result.quarantine_rate,
        "raw_items": stats.raw_items,
        "format": result.format,
        "output": MetadataValue.path(stats.output or ""),
        "quarantine": MetadataValue.path(stats.quarantine or ""),
        "config_hash": result.config_hash,
        "top_errors": MetadataValue.json(dict(stats.top_errors(5))),
    }


def build_ingest_assets(entries: list[CatalogEntry], executor: ExecutorConfig) -> AssetsDefinition:
    """The partitioned ``converted`` asset over ``entries`` (partition key = entry name)."""
    by_name = {entry.name: entry for entry in entries}
    partitions = StaticPartitionsDefinition(list(by_name))

    @asset(
        name=ASSET_NAME,
        group_name="ingest",
        partitions_def=partitions,
        check_specs=[
            AssetCheckSpec(
                CHECK_NAME,
                asset=ASSET_NAME,
                blocking=True,
                description=IngestConfig.model_fields["max_quarantine_rate"].description,
            )
        ],
        description="Raw source files converted to AgentRecords (Parquet + quarantine), registered in the DuckDB catalog.",
        kinds={"python", "parquet", "duckdb"},
        io_manager_key="record_store",
        config_schema=config_schema(IngestConfig),
    )
    def converted(context: AssetExecutionContext, storage: StorageResource) -> Iterator[Output | AssetCheckResult]:
        config = IngestConfig.from_mapping(context.op_execution_context.op_config, origin="run config")
        entry = by_name[context.partition_key]
        context.log.info(f"converting {entry.name} ({entry.format}) from {entry.paths}")
        # the converted files (and generated demo sources) go under the data home
        with storage.as_data_home(), engine_step(context, executor) as running:
            result = ingest_entry(entry, executor=running)
        context.log.info(
            f"{entry.name}: read {result.stats.read}, converted {result.stats.converted}, quarantined {result.stats.quarantined}"
        )
        yield Output(result, metadata=source_metadata(result))
        yield quarantine_check(result, config.max_quarantine_rate)

    return converted
