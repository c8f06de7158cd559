"""Stage outputs into the DuckDB catalog: the one rule that both faces of a stage follow, the CLI command and the
Dagster asset (its IO manager, pipelines/assets/record_store.py), and the one caller of ``register_dataset``
outside the catalog itself.

The rule. A stage's outputs have as config hash ``stable_id(stage, config, inputs)``: the stage's name, its
config's canonical JSON (without where the output goes: ``OutputOptions``) and, per input, its catalog version
(``name@version``, found by the file's path or its catalog copy) or, for a file the catalog does not hold, its
absolute path and modification time. The catalog versions are the parents of each records output; a side
output (of another kind: a quarantine, a score table) has the first output as its parent. Registering what the
latest version already is keeps that version, so a rerun on the same inputs and config adds none.

The stage names are the faces' own: a command's (``score``, ``synth tasks``), an asset's key (``scored``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemas.record import SCHEMA_VERSION, stable_id
from schemas.stage_config import StageConfig

if TYPE_CHECKING:  # the catalog is imported where a command registers: its --help needs none of it
    from data_catalog.catalog import Catalog, DatasetVersion
    from exporters.hub_folder import ExportSource
    from pipelines.stages.ingest import Converted

    Input = Path | str | DatasetVersion  # what a stage read: a file (or glob), or a catalog version given by name


class OutputOptions(StageConfig):
    """Where a command's output goes in the catalog. A CLI concern: in the pipeline the record store names and
    registers every asset's output, so the stage configs of the library do not carry these fields."""

    dataset: str | None = None
    """Catalog name of the output (default: the output file's stem)."""
    catalog: bool = True
    """Register the output in the DuckDB catalog of the data directory."""


@dataclass
class StageOutput:
    """One file (or glob) a stage wrote, to register as catalog dataset ``name``."""

    name: str
    path: Path | str
    rows: int
    kind: str = "records"
    schema_version: str | None = SCHEMA_VERSION
    details: dict[str, Any] = field(default_factory=dict)


def config_dict(config: StageConfig | dict[str, Any] | None) -> dict[str, Any]:
    """A stage's configuration as JSON, without the CLI's output options (they name the output, not its content)."""
    if config is None:
        return {}
    if isinstance(config, StageConfig):
        return config.model_dump(mode="json", exclude=set(OutputOptions.model_fields))
    return {k: v for k, v in config.items() if k not in OutputOptions.model_fields}


def input_version(catalog: Catalog, path: Path | str) -> str | None:
    """``name@version`` of the latest catalog version registered from ``path`` or copied to it, else None."""
    where = str(Path(path).absolute())
    found = catalog.sql(
        "SELECT name, version FROM datasets WHERE path = ? OR snapshot = ? ORDER BY created_at DESC, version DESC "
        "LIMIT 1",
        [where, where],
    ).rows
    return f"{found[0][0]}@{found[0][1]}" if found else None


def lineage(
    catalog: Catalog, stage: str, config: StageConfig | dict[str, Any] | None, inputs: Sequence[Input]
) -> tuple[str, list[str]]:
    """The outputs' config hash and parents, by the rule above."""
    from data_catalog.catalog import DatasetVersion

    parents, identities = [], []
    for path in inputs:
        version = f"{path.name}@{path.version}" if isinstance(path, DatasetVersion) else input_version(catalog, path)
        if version is not None:
            parents.append(version)
            identities.append(version)
        else:
            where = Path(path).absolute()
            identities.append([str(where), where.stat().st_mtime_ns if where.exists() else None])
    return stable_id(stage, config_dict(config), identities), list(dict.fromkeys(parents))


def register(
    catalog: Catalog,
    stage: str,
    config: StageConfig | dict[str, Any] | None,
    inputs: Sequence[Input],
    outputs: Sequence[StageOutput],
) -> list[DatasetVersion]:
    """Register ``outputs`` (records first, then any side outputs) in ``catalog``; their versions in order."""
    chash, parents = lineage(catalog, stage, config, inputs)
    settings = config_dict(config)
    versions: list[DatasetVersion] = []
    for output in outputs:
        versions.append(
            catalog.register_dataset(
                output.name,
                output.path,
                output.rows,
                kind=output.kind,
                schema_version=output.schema_version,
                config_hash=chash,
                parents=parents if output.kind == "records" else [f"{versions[0].name}@{versions[0].version}"],
                details={"stage": stage, "config": settings, **output.details},
            )
        )
    return versions


def register_or_warn(
    stage: str,
    config: StageConfig | dict[str, Any] | None,
    inputs: Sequence[Input],
    outputs: Sequence[StageOutput],
    say: Callable[[str], None],
) -> list[DatasetVersion]:
    """A command's registration in the data directory's catalog: a line per version registered, or a warning (the
    outputs are written: a catalog that cannot take them does not fail the command)."""
    from data_catalog.catalog import Catalog

    try:
        versions = register(Catalog(), stage, config, inputs, outputs)
    except Exception as exc:
        say(f"warning: could not register {outputs[0].name!r} in the catalog: {' '.join(str(exc).split())[:200]}")
        return []
    for version in versions:
        say(f"registered as {version.name} (version {version.version})")
    return versions


# The stage that converts raw files into records (``aceforge convert``, the pipeline's ``converted`` asset).
CONVERT = "convert"


def conversion_config(converted: Converted) -> dict[str, Any]:
    """A conversion's configuration: its format, licence and the hash that addresses its output folder (options,
    schema and package version, and the inputs' content: data_catalog.ingest.config_hash). It names the raw inputs
    by content, so a conversion registers with no inputs of its own: a rewritten demo file of the same bytes (each
    ``aceforge run`` writes them) keeps the version its path and new mtime would otherwise replace."""
    return {"format": converted.format, "license": converted.license, "conversion": converted.config_hash}


def conversion_outputs(name: str, converted: Converted) -> list[StageOutput]:
    """A conversion's records as ``name`` and its quarantine as ``name_quarantine``."""
    from data_catalog.ingest import QUARANTINE_SCHEMA_VERSION, QUARANTINE_SUFFIX

    fmt, stats = converted.format, converted.stats
    counts = {"read": stats.read, "raw_items": stats.raw_items, "quarantined": stats.quarantined}
    details = {"format": fmt, "inputs": converted.paths, "license": converted.license, **counts}
    return [
        StageOutput(name, stats.output, stats.converted, details=details),
        StageOutput(
            name + QUARANTINE_SUFFIX,
            stats.quarantine,
            stats.quarantined,
            kind="quarantine",
            schema_version=QUARANTINE_SCHEMA_VERSION,
            details={"format": fmt, "errors": stats.errors, "error_examples": stats.examples},
        ),
    ]


def register_hub_folder(result: dict[str, Any], repo_id: str, source: ExportSource, catalog: Catalog) -> DatasetVersion:
    """The Hub folder an export wrote (the hub exporter's ``result``: its folder, rows and splits) as catalog
    dataset ``hub_<org>_<name>`` (a record view over every config and split); its configuration is the folder's
    recipe, its input the exported catalog version (or files)."""
    from data_catalog.catalog import safe_name
    from exporters.hub_folder import RECIPE_FILE

    folder = Path(result["folder"])
    output = StageOutput(
        safe_name(f"hub_{repo_id}"),
        folder / "data" / "**" / "*.parquet",
        result["rows"],
        details={"repo_id": repo_id, "folder": str(folder), "splits": result["splits"]},
    )
    inputs = [source.entry] if source.entry else source.files
    (version,) = register(catalog, "export hub", {"recipe": (folder / RECIPE_FILE).read_text()}, inputs, [output])
    return version


def register_source(catalog: Catalog, name: str, converted: Converted) -> list[DatasetVersion]:
    """An ingested catalog source (the pipeline's ``converted``): its records under its name, and its quarantine."""
    return register(catalog, CONVERT, conversion_config(converted), [], conversion_outputs(name, converted))
