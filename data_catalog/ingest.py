"""Where a catalog source converts to: its input files and the hash that addresses its output.

The ingest stage (pipelines/stages/ingest.py) converts a source into
``<data_home>/datasets/<name>/<hash>/records.parquet`` plus
``quarantine.parquet``; the hash covers what determines the output (format,
options, licence, schema and package version, and the inputs' content), so
rerunning on the same inputs rewrites the same files and keeps the same
catalog version, while changed inputs get a new version beside the old one,
which stays readable (pipelines/registrar.py registers them).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rest is imported where it is used
    from data_catalog.entries import CatalogEntry
    from data_catalog.sources.base import ConvertOptions

QUARANTINE_SUFFIX = "_quarantine"
QUARANTINE_SCHEMA_VERSION = "quarantine-1"


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
