"""Ingest one catalog source: convert its raw files (pipelines/registrar.py puts them in the DuckDB catalog).

The Dagster ingest asset and ``aceforge convert`` both go through here, so a
source converts the same way from either. Outputs are addressed by a
config hash (format, options, licence, schema and package version, and the
inputs' content): ``<data_home>/datasets/<name>/<hash>/records.parquet`` plus
``quarantine.parquet``. Rerunning on the same inputs rewrites the same files
and keeps the same catalog version; changed inputs get a new version beside
the old one, which stays readable.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field

from data_catalog.convert import ConvertStats, convert_files
from runtime.executor import Executor
from runtime.settings import datasets_dir
from schemas.stage_config import StageConfig

if TYPE_CHECKING:  # the rest is imported where it is used: `aceforge --help` needs IngestConfig only
    from data_catalog.entries import CatalogEntry
    from data_catalog.sources.base import ConvertOptions

QUARANTINE_SUFFIX = "_quarantine"
QUARANTINE_SCHEMA_VERSION = "quarantine-1"


class IngestConfig(StageConfig):
    """The ingest stage (the Dagster ``converted`` asset and ``aceforge run``)."""

    max_quarantine_rate: float = Field(0.25, ge=0.0, le=1.0)
    """A source fails its quarantine_rate check when quarantined/read exceeds this (its format or data is likely wrong)."""


@dataclass
class IngestResult:
    """A converted source, not yet registered."""

    source: str
    format: str
    stats: ConvertStats
    config_hash: str
    inputs: list[str]
    license: str | None

    @property
    def quarantine_rate(self) -> float:
        return self.stats.quarantined / self.stats.read if self.stats.read else 0.0


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("aceforge")
    except PackageNotFoundError:
        return "unknown"


def file_digest(path: str) -> str:
    """Content hash of one input (stdin has none: it is read once, as it comes)."""
    if path == "-":
        return "stdin"
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def config_hash(fmt: str, options: ConvertOptions, inputs: list[str]) -> str:
    """What determines an output: changing any part of it gives a different hash."""
    from schemas.record import SCHEMA_VERSION, stable_id

    return stable_id(
        fmt,
        options.dataset,
        options.license,
        sorted(options.extra.items()),
        SCHEMA_VERSION,
        package_version(),
        [file_digest(p) for p in inputs],
    )


def input_paths(entry: CatalogEntry) -> list[str]:
    """The entry's input files; a generated source's files (the demo sources) are written first when any is missing."""
    from data_catalog.demo import write_demo_sources

    try:
        return entry.resolve_paths()
    except FileNotFoundError:
        if entry.generated_by != "demo":
            raise
    write_demo_sources()
    return entry.resolve_paths()


def ingest_entry(
    entry: CatalogEntry,
    on_progress: Callable[[int], None] | None = None,
    executor: Executor | None = None,
) -> IngestResult:
    """Convert one source into the data directory (by ``executor``, default this process); nothing is registered."""
    inputs = input_paths(entry)
    options = entry.convert_options()
    chash = config_hash(entry.format, options, inputs)
    out_dir = datasets_dir() / entry.name / chash
    stats = convert_files(
        entry.format,
        inputs,
        out_dir / "records.parquet",
        out_dir / "quarantine.parquet",
        options,
        on_progress,
        executor=executor,
    )
    return IngestResult(entry.name, entry.format, stats, chash, inputs, entry.license)
