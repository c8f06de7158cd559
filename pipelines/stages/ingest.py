"""The ingest stage as a ``Stage`` (pipelines/stages/__init__.py): the one ``aceforge convert`` (pipelines/cli/ingest.py)
and the ``converted`` asset (pipelines/assets/ingest.py) are made from. This module is the one in pipelines/ that
calls the conversion's entry point (data_catalog/convert.py's ``convert_files``).

The faces differ only in what they give the run: the command its arguments (the inputs, their format, the
options, where the records and the quarantine go, and the conversion's hash only when it registers them); the
asset its partition's catalog entry, converted into a folder of the data directory named by that hash. Both judge
the share of quarantined records by the stage's rule: the asset as its blocking check, the command as a warning.
Like the command, this module imports the converters and the catalog only when it runs, so ``--help`` starts fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

from pipelines.stages import Out, Paths, Product, Ran, Stage, Upstream
from schemas.stage_config import StageConfig

if TYPE_CHECKING:
    from data_catalog.convert import ConvertStats


class IngestConfig(StageConfig):
    """The ingest stage (``aceforge convert``, the Dagster ``converted`` asset and ``aceforge run``)."""

    max_quarantine_rate: float = Field(0.25, ge=0.0, le=1.0)
    """A source fails its quarantine_rate check when quarantined/read exceeds this (its format or data is likely wrong)."""


@dataclass
class Converted(Ran):
    """A conversion as both faces show and register it (pipelines/registrar.py): its counts and quarantine reasons,
    what it converted, and its quarantine rate judged by the stage's rule."""

    stats: ConvertStats
    format: str
    paths: list[str]
    license: str | None
    config_hash: str | None  # what its catalog versions record (data_catalog/ingest.py); None: not registered
    quarantine_rate: float  # quarantined / read (0 when nothing was read)
    quarantine_passed: bool  # the rate is at most max_quarantine_rate


def error_summary(stats: ConvertStats, n: int = 3) -> str:
    """The most common kinds of quarantine reason, each with its count and a few example positions; the
    first reason of a kind is shown in full (the domain, the duplicate's index, the JSON error position)."""
    parts = []
    for kind, count in stats.top_errors(n):
        first = stats.first_errors.get(kind, kind)
        where = f"e.g. {', '.join(stats.examples[kind])}"
        if count == 1 or first == kind:
            parts.append(f"{first} ({count}x, {where})")
        else:
            parts.append(f"{kind} ({count}x, {where}; first: {first})")
    return "; ".join(parts)


def converted_line(stats: ConvertStats) -> str:
    rows = f" ({stats.raw_items} raw items)" if stats.raw_items != stats.read else ""
    workers = f" with {stats.workers} workers" if stats.workers > 1 else ""
    line = (
        f"converted {stats.converted} of {stats.read} records{rows}{workers} -> {stats.output}; "
        f"quarantined {stats.quarantined} -> {stats.quarantine}"
    )
    return line + (f"; reasons: {error_summary(stats)}" if stats.quarantined else "")


@contextmanager
def progress_line(fmt: str, shown: bool) -> Iterator[Callable[[int], None] | None]:
    """Within: the conversion's ``on_progress``, a transient line on stderr counting the items read (when ``shown``:
    the command's, on a terminal), else None."""
    if not shown:  # no line to draw: rich.progress is not even imported
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    progress = Progress(
        SpinnerColumn(),
        TextColumn("converting {task.description}"),
        TextColumn("{task.completed:,.0f} items"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with progress:
        task = progress.add_task(fmt, total=None)
        last = [0]

        def on_progress(count: int) -> None:
            if count - last[0] >= 200:  # redrawing per item would cost more than converting
                progress.update(task, completed=count)
                last[0] = count

        yield on_progress


def convert_run(inputs: dict[str, Any], outputs: Paths, cfg: IngestConfig, executor, progress=False) -> Converted:
    """``format``, ``paths`` (files; "-" reads stdin) and ``options`` (ConvertOptions) say what to convert,
    ``config_hash`` (optional) what its registration records; ``records`` and ``quarantine`` (None: beside the
    records) where it goes."""
    from data_catalog.convert import convert_files

    fmt, paths, options = inputs["format"], inputs["paths"], inputs["options"]
    with progress_line(fmt, progress) as on_progress:
        stats = convert_files(fmt, paths, outputs["records"], outputs.get("quarantine"), options, on_progress, executor)
    rate = stats.quarantined / stats.read if stats.read else 0.0
    passed = rate <= cfg.max_quarantine_rate
    lines = [converted_line(stats)]
    if not passed:
        lines.append(
            f"warning: {rate:.1%} of the records read were quarantined, more than max_quarantine_rate "
            f"{cfg.max_quarantine_rate:g} allows (the pipeline's quarantine_rate check fails such a source)"
        )
    products = [
        Product("records", Path(stats.output), stats.converted),
        Product("quarantine", Path(stats.quarantine), stats.quarantined),
    ]
    chash = inputs.get("config_hash")
    return Converted(stats.as_dict(), lines, products, stats, fmt, paths, options.license, chash, rate, passed)


def source_in_datasets(upstream: Upstream, folders: Paths) -> tuple[dict[str, Any], Paths]:
    """``source``: the partition's catalog entry. Its files (a generated demo source's written first when missing)
    convert into ``<data home>/datasets/<name>/<conversion hash>/`` rather than the asset's folder: a rerun on the
    same inputs rewrites the same files, changed inputs get a folder beside them (data_catalog/ingest.py), and the
    record store registers them under the source's name."""
    from data_catalog.ingest import config_hash, input_paths
    from runtime.settings import datasets_dir

    entry = upstream["source"]
    paths, options = input_paths(entry), entry.convert_options()
    chash = config_hash(entry.format, options, paths)
    folder = datasets_dir() / entry.name / chash
    inputs = {"format": entry.format, "paths": paths, "options": options, "config_hash": chash}
    return inputs, {"records": folder / "records.parquet", "quarantine": folder / "quarantine.parquet"}


CONVERTED = "Raw source files converted to AgentRecords (Parquet + quarantine), registered in the DuckDB catalog."
INGEST = Stage(
    "convert", "converted", IngestConfig, {},
    (Out("records", "records", "converted", CONVERTED), Out("quarantine", "quarantine")),
    convert_run, source_in_datasets
)  # fmt: skip
