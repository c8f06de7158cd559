"""``aceforge synth tasks | backward | evolve``: verified tasks synthesized in the tool worlds.

``synth_app`` is the sub-app every synthesis command registers on (rollouts
and code tasks add theirs from their own modules). ``synth tasks`` runs the
tasks stage of pipelines/stages/synth.py (the one the synth_tasks asset runs).
Each command writes its records with schemas.io, registers them in the catalog
(unless ``--no-catalog``) and prints a summary: made, kept, rejected by reason code.
Exit codes: 0 when something was kept, 1 when nothing was, 2 on usage errors
(unknown environment or option, an input of the wrong kind).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from data_catalog.catalog import safe_name
from generators.synthesis.config import SynthBackwardConfig, SynthEvolveConfig, SynthTasksConfig
from pipelines.catalog_names import adhoc_name
from pipelines.cli.app import app
from pipelines.cli.common import FAILED, err, fail, one_line, out, print_json, say
from pipelines.cli.config import with_config
from pipelines.cli.records import check_file
from pipelines.registrar import OutputOptions, StageOutput, register_or_warn
from pipelines.stages import Ran, Stage, StageError
from pipelines.stages.synth import SYNTH_TASKS, synth_lines
from pipelines.throttle import Heartbeat
from runtime.elapsed import spent
from schemas.record import AgentRecord

synth_app = typer.Typer(
    help="Synthesize verified agent data in the tool worlds: constraint-first tasks, backward construction, evolution.",
    no_args_is_help=True,
)
app.add_typer(synth_app, name="synth")

Output = Annotated[Path, typer.Option("-o", "--output", help="Where to write the records (.parquet or .jsonl).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object on stdout.")]


@contextmanager
def progress_bar(description: str, total: int) -> Iterator[Callable[[int, int], None]]:
    """Progress on stderr, through the yielded on_progress(done, total) callback: a bar on a terminal, elsewhere
    a line ``description: done/total, N s`` now and then, when it is complete, and at least every 10 s while
    nothing finishes (``Heartbeat``)."""
    if not err.is_terminal:

        def line(done: int, of: int, elapsed_s: float) -> None:
            say(f"{description}: {done}/{of}, {spent(elapsed_s)}")

        with Heartbeat(line, total).beating() as heartbeat:
            yield heartbeat.update
        return
    progress = Progress(
        TextColumn(description),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )
    with progress:
        task = progress.add_task(description, total=total)
        yield lambda done, of: progress.update(task, completed=done, total=of)


def bar(doing: str, unit: str, total: int):
    """A stage step's ``Progress`` (pipelines/stages/__init__.py) on stderr: ``progress_bar``."""
    return progress_bar(doing, total)


def run_stage(stage: Stage, inputs: dict[str, Any], outputs: dict[str, Path], cfg: Any, executor=None) -> Ran:
    """Run a synthesis stage with a progress bar; what it cannot use (a backend, a model) is a usage error."""
    # The command's config also says where its output goes; the stage gets its own fields, as the asset gives them,
    # so what the records carry (a task's lineage config hash) is the same in both faces.
    own = stage.config.model_validate({name: getattr(cfg, name) for name in stage.config.model_fields})
    try:
        return stage.run(inputs, outputs, own, executor, bar)
    except StageError as exc:
        fail(str(exc))


def check_output(output: Path) -> None:
    if output.suffix not in (".parquet", ".jsonl"):
        fail(f"--output must be a .parquet or .jsonl file, got {output}")


def write_and_report(
    records: list[AgentRecord],
    stats: dict[str, Any],
    output: Path,
    dataset: str,
    cfg: OutputOptions,
    as_json: bool,
    command: str,
    inputs: tuple[Path, ...] = (),
    **details: Any,
) -> None:
    """Write the records of a command that runs no stage (backward, evolve, code), then ``report`` them."""
    from schemas.io import write_records

    written = write_records(records, output)
    report(written, stats, synth_lines(stats), output, dataset, cfg, as_json, command, inputs, **details)


def report(
    written: int,
    stats: dict[str, Any],
    lines: list[str],
    output: Path,
    dataset: str,
    cfg: OutputOptions,
    as_json: bool,
    command: str,
    inputs: tuple[Path, ...] = (),
    **details: Any,
) -> None:
    """Register what was written (with ``inputs``, the files the records come from), print the summary; exit 1 when
    nothing was."""
    if cfg.catalog and written and output.suffix != ".parquet":
        say("not registered in the catalog: it registers Parquet outputs")
    elif cfg.catalog and written:
        registered = StageOutput(adhoc_name(dataset), output, written, details={"command": command, **details, **stats})
        register_or_warn(command, cfg, inputs, [registered], say)
    if as_json:
        print_json({"output": str(output), **stats})
    else:
        for line in lines:
            out.print(line)
        say(f"wrote {written} records -> {output}")
    if not written:
        raise typer.Exit(FAILED)


class SynthTasksCommand(SynthTasksConfig, OutputOptions):
    """``aceforge synth tasks``."""


class SynthBackwardCommand(SynthBackwardConfig, OutputOptions):
    """``aceforge synth backward``."""


class SynthEvolveCommand(SynthEvolveConfig, OutputOptions):
    """``aceforge synth evolve``."""


@synth_app.command("tasks")
@with_config(SynthTasksCommand)
def tasks_cmd(cfg: SynthTasksCommand, output: Output, as_json: AsJson = False) -> None:
    """Constraint-first tasks: goals sampled from the environment's DB rows, identifiers fuzzified and checked
    to resolve uniquely, a user scenario, and a programmatic gold solution that passes the verifier chain."""
    check_output(output)
    dataset = safe_name(cfg.dataset or output.stem)
    ran = run_stage(SYNTH_TASKS, {"dataset": dataset}, {"records": output}, cfg)
    written = ran.products[0].rows
    report(written, ran.summary, ran.lines, output, dataset, cfg, as_json, "synth tasks", env=cfg.env)


@synth_app.command("backward")
@with_config(SynthBackwardCommand)
def backward_cmd(cfg: SynthBackwardCommand, output: Output, as_json: AsJson = False) -> None:
    """Backward construction: random exploration, then (q, τ) pairs whose constraints come from the state diff,
    kept only when replaying τ passes them."""
    from generators.synthesis.backward import run_backward

    check_output(output)
    dataset = safe_name(cfg.dataset or output.stem)
    with progress_bar(f"exploring {cfg.env}", cfg.n) as on_progress:
        records, stats = run_backward(cfg, dataset, on_progress)
    write_and_report(records, stats.as_dict(), output, dataset, cfg, as_json, "synth backward", env=cfg.env)


def read_tasks(path: Path) -> list[AgentRecord]:
    """The tasks of a `synth tasks` output; anything else is a usage error (exit 2)."""
    from generators.synthesis.records import TASK_FORMAT
    from schemas.io import read_records

    check_file(path)
    try:
        records = list(read_records(path))
    except Exception as exc:  # a row further on that is not a record (check_file looked at the first)
        fail(f"{path} is not a file of records: {one_line(exc, 200)}")
    formats = sorted({record.source.format for record in records})
    if formats != [TASK_FORMAT]:
        fail(
            f"{path} is not a tasks file (source formats {formats or 'none'}); give the output of `aceforge synth tasks`"
        )
    return records


@synth_app.command("evolve")
@with_config(SynthEvolveCommand)
def evolve_cmd(
    cfg: SynthEvolveCommand,
    tasks: Annotated[Path, typer.Argument(help="Tasks written by `aceforge synth tasks` (.parquet or .jsonl).")],
    output: Output,
    as_json: AsJson = False,
) -> None:
    """Complexity evolution: compose verified tasks into harder ones (two requests of one user; a request turned
    into a policy refusal); each composite's gold solution must pass the verifier chain."""
    from generators.synthesis.evolve import run_evolve

    check_output(output)
    inputs = read_tasks(tasks)
    dataset = safe_name(cfg.dataset or output.stem)
    with progress_bar("evolving tasks", len(inputs) * len(cfg.ops)) as on_progress:
        records, stats = run_evolve(inputs, cfg, dataset, on_progress)
    write_and_report(records, stats.as_dict(), output, dataset, cfg, as_json, "synth evolve", (tasks,))
