"""Commands that turn raw files into records: ``formats``, ``convert``.

``convert`` exits 0 when at least one record converted, 1 when none did, and
2 on usage errors (unknown format or option, missing input); errors are one
line on stderr, never a traceback. Outputs are registered in the DuckDB
catalog of the data directory unless ``--no-register``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from data_catalog.catalog import Catalog, safe_name
from data_catalog.convert import ConvertConfig, ConvertStats, convert_files
from data_catalog.ingest import config_hash, register_outputs
from data_catalog.sources import formats, get_converter
from data_catalog.sources.base import ConvertOptions
from pipelines.cli_app import app
from pipelines.cli_common import FAILED, err, fail, out, print_json, say, say_error
from pipelines.cli_config import with_config


@app.command("formats")
def list_formats() -> None:
    """List the registered raw formats, with their options."""
    table = Table("format", "description", "options (--option key=value)", show_lines=False)
    for name, cls in formats().items():
        options = "\n".join(f"{key}: {help_text}" for key, help_text in cls.options.items()) or "-"
        table.add_row(name, Text(cls.description), Text(options))
    out.print(table)


def check_inputs(inputs: list[str]) -> None:
    if inputs.count("-") > 1:
        fail("stdin ('-') can be given only once")
    for path in inputs:
        if path != "-" and not Path(path).is_file():
            fail(f"input not found: {path}")


def run_with_progress(
    fmt: str, inputs: list[str], output: Path, quarantine: Path | None, options: ConvertOptions
) -> ConvertStats:
    """convert_files with a progress line on stderr (shown only on a terminal)."""
    progress = Progress(
        SpinnerColumn(),
        TextColumn("converting {task.description}"),
        TextColumn("{task.completed:,.0f} items"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    with progress:
        task = progress.add_task(fmt, total=None)
        last = [0]

        def on_progress(count: int) -> None:
            if count - last[0] >= 200:  # redrawing per item would cost more than converting
                progress.update(task, completed=count)
                last[0] = count

        return convert_files(fmt, inputs, output, quarantine, options, on_progress)


def nothing_converted(stats: ConvertStats, fmt: str) -> str:
    if stats.read == 0:
        return "no record converted: the inputs hold no records"
    reasons = "; ".join(f"{text} ({count}x)" for text, count in stats.top_errors(3))
    return f"no record converted of {stats.read} read; most common errors: {reasons}; is --format {fmt} right?"


@app.command()
@with_config(ConvertConfig)
def convert(
    cfg: ConvertConfig,
    inputs: Annotated[
        list[str], typer.Argument(help="Input files: JSON array or document, JSONL, .gz of either; '-' reads stdin.")
    ],
    fmt: Annotated[str, typer.Option("--format", "-f", help="Raw format of the inputs (see `aceforge formats`).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output Parquet file of AgentRecords.")],
    quarantine: Annotated[
        Path | None,
        typer.Option("--quarantine", "-q", help="Quarantine Parquet file (default: <output stem>.quarantine.parquet)."),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help='Print {"read", "converted", "quarantined", "output"} as the last stdout line.'),
    ] = False,
) -> None:
    """Convert raw trajectories of one format into a Parquet file of AgentRecords.

    Records that cannot be converted go to the quarantine file with their reason; read = converted + quarantined.
    Exit codes: 0 when at least one record converted, 1 when none did, 2 on usage errors.
    """
    if output.suffix != ".parquet":
        fail(f"--output must be a .parquet file, got {output}")
    options = cfg.convert_options()
    try:
        get_converter(fmt, options)
    except (KeyError, ValueError) as exc:
        fail(exc.args[0] if exc.args else str(exc))
    check_inputs(inputs)
    name = safe_name(cfg.dataset or output.stem)
    chash = config_hash(fmt, options, inputs) if cfg.catalog else None
    try:
        stats = run_with_progress(fmt, inputs, output, quarantine, options)
    except OSError as exc:
        fail(f"cannot convert: {exc}")
    if stats.converted == 0:
        say_error(nothing_converted(stats, fmt))
    else:
        say(
            f"converted {stats.converted} of {stats.read} records -> {stats.output}; quarantined {stats.quarantined} -> {stats.quarantine}"
        )
        if cfg.catalog:
            register_output(name, fmt, stats, chash, inputs, cfg.license)
    if as_json:
        print_json(stats.as_dict())
    if stats.converted == 0:
        raise typer.Exit(FAILED)


def register_output(
    name: str, fmt: str, stats: ConvertStats, chash: str | None, inputs: list[str], license: str | None
) -> None:
    try:
        catalog = Catalog()
        records, _ = register_outputs(catalog, name, fmt, stats, chash or "", inputs, license)
    except Exception as exc:  # the conversion itself succeeded: say so, don't fail it
        say(f"warning: could not register {name!r} in the catalog: {exc}")
        return
    say(f"registered as {records.name} (version {records.version}) in {catalog.path}")
