"""``aceforge run`` (the main job on embedded defaults) and ``aceforge demo``.

Dagster is imported only when ``run`` runs, so other commands start fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from data_catalog.demo import DEFAULT_SEED, write_demo_sources
from data_catalog.entries import EntryError, default_entries_dir
from pipelines.cli.app import app
from pipelines.cli.common import FAILED, disk_full_is_one_line, fail, out, plain_text, say
from pipelines.cli.config import with_config
from pipelines.dagster_home import dagster_home
from pipelines.pipeline_config import PipelineConfig
from runtime.settings import catalog_path, data_home, demo_dir


@app.command()
def demo(
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Directory for the raw files (default: <ACEFORGE_HOME>/demo/raw)."),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the generator; the same seed gives the same bytes.")
    ] = DEFAULT_SEED,
) -> None:
    """Write the project's demo raw sources (a bookstore's support logs in five formats, with a few malformed records)."""
    for name, path in write_demo_sources(output, seed).items():
        out.print(Text.assemble(plain_text(name), f"\t{path.stat().st_size:,} bytes\t", plain_text(path)))


def summary_table(outcomes) -> Table:
    table = Table("source", "format", "read", "converted", "quarantined", "rate", "check", "status", title="ingest")
    for o in outcomes:
        m = o.metadata
        check = {True: "passed", False: "FAILED", None: "-"}[o.check_passed]
        status = Text("ok") if o.ok else Text("FAILED", style="red")
        rate = f"{m['quarantine_rate']:.1%}" if "quarantine_rate" in m else "-"
        table.add_row(
            plain_text(o.source),
            plain_text(m.get("format", "-")),
            str(m.get("read", "-")),
            str(m.get("converted", "-")),
            str(m.get("quarantined", "-")),
            rate,
            check,
            status,
        )
    return table


def stages_table(outcomes, with_paths: bool = True) -> Table:
    columns = ("stage", "rows", "pass rate", "undecided", "checks", "status", *(("output",) if with_paths else ()))
    table = Table(*columns, title="pipeline")
    table.columns[0].overflow = "fold"  # a long stage name (verified_rollouts[retail]) folds rather than loses its end
    for o in outcomes:
        checks = ", ".join(f"{name} {'passed' if ok else 'FAILED'}" for name, ok in o.checks.items()) or "-"
        status = Text("ok") if o.ok else Text("FAILED", style="red")
        rate = "-" if o.pass_rate is None else f"{o.pass_rate:.1%}"
        rows = "-" if o.rows is None else str(o.rows)
        undecided = str(o.undecided) if o.undecided else "-"
        path = (plain_text(o.path or "-"),) if with_paths else ()
        table.add_row(plain_text(o.stage), rows, rate, undecided, plain_text(checks), status, *path)
    return table


def print_stages(outcomes, console: Console) -> None:
    """The stage table with each output path whole, so it can be copied: in the table when it fits the console,
    else as lines below a table without them (a cell would cut or fold the path)."""
    table = stages_table(outcomes)
    unbounded = console.options.update(max_width=10**6)  # the width the table wants, not the one it is given
    if console.measure(table, options=unbounded).maximum <= console.width:
        console.print(table)
        return
    console.print(stages_table(outcomes, with_paths=False))
    for o in outcomes:
        if o.path:
            console.print(plain_text(f"{o.stage}: {o.path}"), soft_wrap=True)


def stage_notes(outcomes) -> list[Text]:
    """The lines printed under the stage table: a stage's note (why the RL set is empty), one line each (a table
    cell would wrap it)."""
    return [plain_text(f"{o.stage}: {o.note}") for o in outcomes if o.note]


@app.command()
@with_config(PipelineConfig)
def run(
    cfg: PipelineConfig,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            help="Processes that run a job's independent steps at once (Dagster's multiprocess executor).",
        ),
    ] = 1,
    verbose: Annotated[
        bool,
        typer.Option("--verbose", "-v", help="Show Dagster's own run log (INFO and up, with tracebacks of failures)."),
    ] = False,
) -> None:
    """The main job: ingest the catalog sources, synthesize and roll out tasks, verify, score, deduplicate,
    select the SFT and RL sets, write the ACE report, the Hub-ready folder and the verl export, all through Dagster.

    On the embedded defaults (no --config): the generated demo sources, the retail world, oracle and perturbed
    rollouts, and SmolLM2-135M as the declared learner, rolled out twice on every task through vLLM on the CPU.
    Data go to ACEFORGE_HOME (default ./aceforge-data); Dagster's run history to <ACEFORGE_HOME>/dagster, which
    `aceforge ui` shows. Sources come from the catalog entries (ACEFORGE_ENTRIES, default the demo entries).
    Exit 1 when any stage or source fails, or fails a check; 130 when interrupted (Ctrl-C, SIGTERM).
    """
    with disk_full_is_one_line({data_home(): "the data directory, ACEFORGE_HOME"}, "the run"):
        _run(cfg, workers, verbose)


def _run(cfg: PipelineConfig, workers: int, verbose: bool) -> None:
    home = data_home(create=True)
    files = write_demo_sources()
    say(f"demo sources: {len(files)} files in {demo_dir() / 'raw'}")
    from pipelines.main_job import run_instance, run_pipeline
    from runtime.executor import shared_cluster

    say(f"running the pipeline: {len(cfg.environments)} environment(s), {cfg.tasks.n} tasks each ...")
    try:
        with shared_cluster(cfg.executor) as executor:  # engine=ray: one cluster for every stage of the run
            cfg = cfg.model_copy(update={"executor": executor})
            sources, stages = run_pipeline(
                cfg,
                log_level="INFO" if verbose else "CRITICAL",
                workers=workers,
                progress=say,
                instance=run_instance(dagster_home()),
            )
    except EntryError as exc:
        fail(f"catalog entries in {default_entries_dir()}: {exc}")
    out.print(summary_table(sources))
    if stages:
        print_stages(stages, out)
        for line in stage_notes(stages):
            out.print(line)
    example = next((o.source for o in sources if o.ok), "datasets")
    made = {o.stage for o in stages if o.ok}
    outputs = [
        f"{what}: {home / 'assets' / stage / 'all' / tail}"
        for what, stage, tail in (
            ("report", "ace_report", "summary.md"),
            ("hub folder", "hub_folder", "folder"),
            ("verl export", "verl_export", ""),
        )
        if stage in made  # a failed stage has no output to point to
    ]
    for line in [  # one say a line: say writes a newline out as "\n" (it prints one-line messages)
        f"data: {home}",
        f"catalog: {catalog_path()}  (try: aceforge catalog list; "
        f'aceforge catalog sql "SELECT count(*) FROM {example}")',
        *outputs,
        f"ui: aceforge ui  (DAGSTER_HOME={dagster_home()})",
    ]:
        say(line)
    failed_sources = [o for o in sources if not o.ok]
    for o in failed_sources:
        say(f"{o.source}: {o.error or 'quarantine rate over the limit'}")
    for o in stages:
        if not o.ok:
            say(f"{o.stage}: {o.error or 'a check failed: ' + ', '.join(n for n, ok in o.checks.items() if not ok)}")
    if failed_sources:
        names = ", ".join(o.source for o in failed_sources)
        fail(
            f"{len(failed_sources)} of {len(sources)} sources failed: {names} (the pipeline stopped after ingest)",
            FAILED,
        )
    if any(not o.ok for o in stages):
        fail(f"{sum(not o.ok for o in stages)} of {len(stages)} stages failed", FAILED)
