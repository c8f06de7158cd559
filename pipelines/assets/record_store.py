"""The one IO manager of the pipeline's record assets: Parquet under the data directory, a catalog entry, metadata.

A stage asset writes its records to ``records.parquet`` in its own folder,
``<home>/assets/<asset key path>/<partition or all>/`` (``asset_dir``), plus
any side files the stage makes beside it (``records.<name>.parquet``: scores,
signatures, the dedup audit), and returns ``StoredRecords`` with the stage's
own counts. The IO manager registers the records in the DuckDB catalog under
the asset's name (``<key>`` or ``<key>__<partition>``) and records what a
person looks at in the UI: row count, verdicts and pass rate, the stage's
counts (rejects by reason among them), the side files' row counts, the paths
and a markdown preview of the first records.

Loading gives a ``RecordSet``: the upstream asset's files, one per
partition, read lazily, so a downstream stage streams its input. Each is the
file that the partition's latest materialization, as Dagster recorded it,
names (what the lineage shows), never a path guessed later: its ``path`` for
an asset this store wrote (its side files beside it), or, for the ingested
sources (``converted``: the ingest stage's ``Converted``, registered here
under the source's name, its partition key, with its quarantine), the
catalog version it names, an immutable snapshot that a later registration of
the same name (by ``aceforge convert`` or another run) leaves as it was.

This is the one place where the pipeline registers datasets in the catalog, through pipelines/registrar.py
(as the CLI's commands do): the parents are the catalog versions of the files the stage read (``StoredRecords.inputs``),
the config hash that of the stage's configuration and those inputs.
An asset that writes a folder rather than records (``ace_report``) is read
through ``recorded_folder``, the folder its materialization recorded.
"""

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from dagster import (
    AssetRecordsFilter,
    ConfigurableIOManager,
    InputContext,
    MetadataValue,
    OutputContext,
    ResourceDependency,
    TableColumn,
    TableSchema,
    input_manager,
)

from data_catalog.catalog import Catalog, safe_name
from data_catalog.dataset_card import FILE_IMAGE
from pipelines.assets.resources import StorageResource
from pipelines.registrar import StageOutput, register, register_source
from pipelines.stages import RECORDS_FILE
from pipelines.stages.ingest import Converted
from schemas.io import read_records
from schemas.record import AgentRecord
from schemas.stage_config import StageConfig

PREVIEW_ROWS = 5


@dataclass
class StoredRecords:
    """What a stage asset returns: where it wrote its records, its own counts, and what the records come from (the
    files it read, its configuration: their lineage and config hash in the catalog, pipelines/registrar.py)."""

    path: Path
    counts: dict[str, Any] = field(default_factory=dict)
    inputs: list[Path] = field(default_factory=list)
    config: StageConfig | None = None


@dataclass
class RecordSet:
    """An asset's records as stored: one or more Parquet files, read lazily in order."""

    paths: list[Path]

    def __iter__(self) -> Iterator[AgentRecord]:
        for path in self.paths:
            yield from read_records(path)

    def rows(self) -> int:
        return sum(pq.ParquetFile(path).metadata.num_rows for path in self.paths)


def asset_dir(storage: StorageResource, context: Any, output: str | None = None) -> Path:
    """The folder of the asset being materialized (its partition's, when partitioned): the one the record store
    expects its records in. A multi-asset names which of its ``output``s; no asset builds another's folder."""
    partition = context.partition_key if context.has_partition_key else None
    key = context.asset_key_for_output(output) if output else context.asset_key
    folder = storage.asset_dir(list(key.path), partition)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def preview_markdown(records: list[AgentRecord]) -> str:
    lines = ["| id | environment | task | steps | verdict |", "|---|---|---|---|---|"]
    for record in records:
        task = " ".join(record.task.instruction.split())[:80].replace("|", "\\|")
        result = record.verifier.result
        verdict = "-" if result is None else f"{result.passed} {', '.join(result.reasons[:2])}".strip()
        where = record.environment.name or record.environment.kind
        lines.append(f"| {record.id} | {where} | {task} | {len(record.trajectory)} | {verdict} |")
    return "\n".join(lines)


def without_file_images(markdown: str, where: str) -> str:
    """Markdown for a metadata entry: the UI has no folder to resolve an image's relative path against (it shows a
    broken image), so each image of a file becomes a line that names it and says ``where`` to see it."""
    return FILE_IMAGE.sub(lambda m: f"*plot {m[1]} (`{m[2]}`): {where}*", markdown)


def type_name(arrow_type: pa.DataType) -> str:
    """A column's Arrow type as the UI shows it: nested types by their field names, not their full types."""
    if pa.types.is_struct(arrow_type):
        return f"struct<{', '.join(arrow_type.field(i).name for i in range(arrow_type.num_fields))}>"
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        return f"list<{type_name(arrow_type.value_type)}>"
    return str(arrow_type)


def column_schema(path: Path) -> TableSchema:
    """The Parquet file's columns and types: the asset page's column schema."""
    return TableSchema(columns=[TableColumn(f.name, type_name(f.type)) for f in pq.read_schema(path)])


def record_metadata(path: Path) -> dict[str, Any]:
    """Rows, columns, verdicts, pass rate and a preview, read back from the written file."""
    verdicts: Counter = Counter()
    preview: list[AgentRecord] = []
    for record in read_records(path):
        result = record.verifier.result
        if result is not None and result.passed is not None:
            verdicts[str(result.passed).lower()] += 1
        else:  # the verifier ran and could not decide, or no verifier ran
            verdicts["undecided" if result is not None and result.provenance == "undecided" else "unverified"] += 1
        if len(preview) < PREVIEW_ROWS:
            preview.append(record)
    decided = verdicts["true"] + verdicts["false"]
    metadata = {
        "dagster/row_count": sum(verdicts.values()),
        "dagster/column_schema": column_schema(path),
        "verdicts": MetadataValue.json(dict(verdicts)),
        "preview": MetadataValue.md(preview_markdown(preview)),
    }
    if decided:  # a set of tasks has no verdicts: no pass rate rather than 0%
        metadata["pass_rate"] = round(verdicts["true"] / decided, 4)
    if verdicts["undecided"]:
        metadata["undecided"] = verdicts["undecided"]
    return metadata


class RecordStore(ConfigurableIOManager):
    """Registers each stage's records in the catalog and describes them; reads them back for downstream stages."""

    storage: ResourceDependency[StorageResource]

    def handle_output(self, context: OutputContext, obj: StoredRecords | Converted) -> None:
        if isinstance(obj, Converted):  # a catalog source: its records under its own name, and its quarantine
            catalog = self.storage.catalog()
            records, _ = register_source(catalog, context.partition_key, obj)
            context.add_output_metadata(
                {
                    "catalog_dataset": f"{records.name}@{records.version}",
                    "catalog": MetadataValue.path(str(catalog.path)),
                    "dagster/column_schema": column_schema(Path(records.path)),
                }
            )
            return
        partition = context.partition_key if context.has_asset_partitions else None
        key = list(context.asset_key.path)
        expected = self.storage.asset_dir(key, partition) / RECORDS_FILE
        if obj.path.resolve() != expected.resolve():
            raise ValueError(f"asset {'/'.join(key)} wrote {obj.path}, expected {expected}")
        metadata = record_metadata(obj.path)
        name = safe_name("__".join(key) + (f"__{partition}" if partition else ""))
        stage = "/".join(key)
        output = StageOutput(
            name, obj.path, metadata["dagster/row_count"], details={"asset": stage, "partition": partition}
        )
        (version,) = register(self.storage.catalog(), stage, obj.config, obj.inputs, [output])
        metadata |= {"path": MetadataValue.path(str(obj.path)), "catalog_dataset": f"{version.name}@{version.version}"}
        for side in sorted(obj.path.parent.glob("records.*.parquet")):
            metadata[f"file/{side.name}"] = pq.ParquetFile(side).metadata.num_rows
        metadata |= {f"stage/{k}": _metadata_value(v) for k, v in obj.counts.items()}
        context.add_output_metadata(metadata)

    def load_input(self, context: InputContext) -> RecordSet:
        if not context.has_asset_partitions:
            return RecordSet([recorded_records(context, None)])
        wanted = set(context.asset_partition_keys)  # in the partitions' own order: a run reads them the same way
        partitions = [key for key in context.asset_partitions_def.get_partition_keys() if key in wanted]
        return RecordSet([recorded_records(context, key) for key in partitions])


def recorded_metadata(context: InputContext, partition: str | None) -> dict[str, Any]:
    """The metadata of the latest materialization Dagster recorded of the input asset (of its ``partition``)."""
    found = context.instance.fetch_materializations(
        AssetRecordsFilter(asset_key=context.asset_key, asset_partitions=[partition] if partition else None), limit=1
    ).records
    if not found:
        raise FileNotFoundError(f"asset {_name(context, partition)} has not been materialized: materialize it first")
    return {k: getattr(v, "value", v) for k, v in found[0].asset_materialization.metadata.items()}


def recorded_records(context: InputContext, partition: str | None) -> Path:
    """The records file the input's latest materialization names: the file this store wrote (``path``), else the
    catalog version the materialization registered (``catalog_dataset`` in ``catalog``: an ingested source)."""
    metadata, name = recorded_metadata(context, partition), _name(context, partition)
    if "path" in metadata:
        path = Path(metadata["path"])
    elif metadata.get("catalog_dataset"):
        dataset, version = metadata["catalog_dataset"].rsplit("@", 1)
        catalog = Catalog(metadata["catalog"])
        registered = catalog.get(dataset, int(version))
        if registered is None:
            raise FileNotFoundError(f"asset {name}: {dataset}@{version} is not in the catalog {metadata['catalog']}")
        (path,) = catalog.files(registered)  # an ingested source is one file; VersionChanged if it changed
    else:
        raise FileNotFoundError(f"asset {name}: its latest materialization names no records")
    if not path.exists():
        raise FileNotFoundError(f"asset {name}: {path}, named by its latest materialization, is gone")
    return path


@input_manager
def recorded_folder(context: InputContext) -> Path:
    """The folder the input's latest materialization recorded (``folder``: an asset that writes plots and text)."""
    folder = recorded_metadata(context, None).get("folder")
    if not folder or not Path(folder).is_dir():
        raise FileNotFoundError(
            f"asset {_name(context, None)}: no folder {folder}, named by its latest materialization"
        )
    return Path(folder)


def _name(context: InputContext, partition: str | None) -> str:
    return context.asset_key.to_user_string() + (f"[{partition}]" if partition else "")


def _metadata_value(value: Any) -> Any:
    return MetadataValue.json(value) if isinstance(value, dict | list) else value
