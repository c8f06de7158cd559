"""``aceforge convert``: raw files of one format into records (``formats`` lists the formats).

``--format auto`` (the default) picks the format from the first records of the
first input (data_catalog/formats.py) and says which; a folder input stands for
the files its format says (a τ² results directory: its results.json).

``convert`` exits 0 when at least one record converted, 1 when none did or an
input could not be read to its end (a truncated .gz: what it held before the
break and what the other inputs hold are converted and registered all the
same) or the disk is full, and 2 on usage errors (unknown format or option,
missing input); errors are one line on stderr, never a traceback. Outputs are
registered in the DuckDB catalog of the data directory unless ``--no-catalog``.
A share of quarantined records above ``--max-quarantine-rate`` (what fails the
pipeline's quarantine_rate check) is a warning line, not an exit code. The
command runs the ingest stage (pipelines/stages/ingest.py) on its arguments.
The converters, the writers and the catalog are imported when the command
runs, so ``--help`` starts fast.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from data_catalog.convert import ConvertConfig
from pipelines.cli.app import app
from pipelines.cli.common import FAILED, disk_full_is_one_line, fail, print_json, say, say_error, stderr_is_terminal
from pipelines.cli.config import with_config
from pipelines.stages.ingest import INGEST, Converted, IngestConfig, error_summary
from runtime.executor import ExecutorConfig

if TYPE_CHECKING:
    from data_catalog.convert import ConvertStats


def check_inputs(inputs: list[str]) -> None:
    if inputs.count("-") > 1:
        fail("stdin ('-') can be given only once")
    for path in inputs:
        if path != "-" and not Path(path).is_file():
            fail(f"input not found: {path}")


def nothing_converted(stats: ConvertStats, fmt: str, inputs: list[str]) -> str:
    from data_catalog.formats import not_a_layout

    if stats.read == 0:
        return "no record converted: the inputs hold no records"
    other = next((line for path in inputs if path != "-" and (line := not_a_layout(path, fmt))), None)
    return f"no record converted of {stats.read} read; most common errors: {error_summary(stats)}; " + (
        other or f"is --format {fmt} right?"
    )


def output_folders(output: Path, quarantine: Path | None) -> dict[Path, str]:
    """Where convert writes, for the line a full disk gives."""
    folders = {output.parent: "the output's folder"}
    if quarantine is not None:
        folders.setdefault(quarantine.parent, "the quarantine's folder")
    return folders


def broken_line(stats: ConvertStats, path: str, reason: str) -> str:
    """What an input that broke off gave: why it broke, and how much of it was read (and kept) before."""
    why = reason.removeprefix("unreadable input: ").removesuffix(f"; the rest of {path} was not read")
    unit = "records" if stats.raw_items == stats.read else "raw items"
    before = stats.read_before_break.get(path, 0)
    return f"{path}: {why} ({before} {unit} read before it; the break is quarantined)"


class ConvertCommand(ConvertConfig, IngestConfig, ExecutorConfig):
    """``aceforge convert``: the stage's options and where it converts."""


@app.command()
@with_config(ConvertCommand)
def convert(
    cfg: ConvertCommand,
    inputs: Annotated[
        list[str], typer.Argument(help="Input files: JSON array or document, JSONL, .gz of either; '-' reads stdin.")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output Parquet file of AgentRecords.")],
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="Raw format of the inputs (see `aceforge formats`); auto (the default) picks it from the first "
            "records and says which, or refuses naming the candidates.",
        ),
    ] = "auto",
    quarantine: Annotated[
        Path | None,
        typer.Option("--quarantine", "-q", help="Quarantine Parquet file (default: <output stem>.quarantine.parquet)."),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help='Print {"read", "raw_items", "converted", "quarantined", "output"} as the last stdout line.'
        ),
    ] = False,
    no_register: Annotated[bool, typer.Option("--no-register", hidden=True, help="Old name of --no-catalog.")] = False,
) -> None:
    """Convert raw trajectories of one format into a Parquet file of AgentRecords.

    Records that cannot be converted go to the quarantine file with their reason; read = converted + quarantined
    (read counts records as the format defines them; raw_items the items read, more for grouping formats).
    Exit codes: 0 when at least one record converted, 1 when none did, an input broke off (a truncated .gz;
    what came before the break and the other inputs still convert) or the disk is full, 2 on usage errors.
    """
    from data_catalog.arrow_imports import import_arrow_without_numpy
    from data_catalog.formats import AUTO, BrokenInput, DetectionError, detect, expand_inputs
    from data_catalog.sources import get_converter
    from runtime.executor import open_executor

    if cfg.engine == "local":  # this process only converts (Ray's driver may hand pyarrow numpy arrays)
        import_arrow_without_numpy()
    if output.suffix != ".parquet":
        fail(f"--output must be a .parquet file, got {output}")
    options = cfg.convert_options()
    options.dataset = options.dataset or output.stem  # what --dataset's help says, and what the ids hash
    try:
        inputs = expand_inputs(inputs, fmt)
    except (KeyError, ValueError) as exc:
        fail(exc.args[0] if exc.args else str(exc))
    check_inputs(inputs)
    if fmt == AUTO:
        if inputs == ["-"]:
            fail("format auto cannot sniff stdin; give --format")
        try:
            detection = detect(next(p for p in inputs if p != "-"))
        except BrokenInput as exc:  # nothing of it to judge by: an input that broke off, as below
            fail(str(exc), FAILED)
        except (DetectionError, OSError) as exc:
            fail(str(exc))
        fmt = detection.fmt
        say(detection.describe(inputs[0]))
    try:
        get_converter(fmt, options)
    except (KeyError, ValueError) as exc:
        fail(exc.args[0] if exc.args else str(exc))
    register = cfg.catalog and not no_register
    chash = None
    if register:  # the catalog's modules only for a run that registers (--no-catalog imports none of them)
        from data_catalog.ingest import config_hash

        chash = config_hash(fmt, options, inputs)
    try:
        with (
            disk_full_is_one_line(output_folders(output, quarantine), "convert"),
            open_executor(cfg) as executor,
        ):
            stage_inputs = {"format": fmt, "paths": inputs, "options": options, "config_hash": chash}
            ran = INGEST.run(
                stage_inputs, {"records": output, "quarantine": quarantine}, cfg, executor, stderr_is_terminal()
            )
    except OSError as exc:
        fail(f"cannot convert: {exc}")
    stats = ran.stats
    if cfg.workers > stats.workers:
        say(f"note: {fmt} groups raw items into records across the input, so it converted in one process")
    if stats.converted == 0:
        say_error(nothing_converted(stats, fmt, inputs))
    else:
        for line in ran.lines:
            say(line)
        if register:
            register_output(cfg.dataset or output.stem, ran)
    for path, reason in stats.unreadable.items():
        say_error(broken_line(stats, path, reason))
    if as_json:
        print_json(ran.summary)
    # Done: the interpreter's exit collections would walk every object of the run only to free memory the process
    # gives back; frozen, they are not (4 % of a one-record convert's instructions). Not for every command: an
    # extension that checks its own objects at exit (triton's nanobind, loaded with vLLM) reports them as leaked.
    gc.freeze()
    if stats.converted == 0 or stats.unreadable:
        raise typer.Exit(FAILED)


def register_output(dataset: str, ran: Converted) -> None:
    from data_catalog.catalog import safe_name
    from pipelines.catalog_names import adhoc_name
    from pipelines.registrar import CONVERT, conversion_config, conversion_outputs, register_or_warn

    register_or_warn(CONVERT, conversion_config(ran), [], conversion_outputs(adhoc_name(safe_name(dataset)), ran), say)
