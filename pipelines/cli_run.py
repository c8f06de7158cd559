"""``aceforge run`` (the main job on embedded defaults) and ``aceforge demo``.

Dagster is imported only when ``run`` runs, so other commands start fast.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from data_catalog.demo import DEFAULT_SEED, write_demo_sources
from data_catalog.entries import EntryError, default_entries_dir
from data_catalog.ingest import IngestConfig
from pipelines.cli_app import app
from pipelines.cli_common import FAILED, fail, out, say
from pipelines.cli_config import with_config
from pipelines.dagster_home import dagster_home
from schemas.settings import catalog_path, data_home, demo_dir


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
        out.print(Text(f"{name}\t{path.stat().st_size:,} bytes\t{path}"))


def summary_table(outcomes) -> Table:
    table = Table("source", "format", "read", "converted", "quarantined", "rate", "check", "status", title="ingest")
    for o in outcomes:
        m = o.metadata
        check = {True: "passed", False: "FAILED", None: "-"}[o.check_passed]
        status = Text("ok") if o.ok else Text("FAILED", style="red")
        rate = f"{m['quarantine_rate']:.1%}" if "quarantine_rate" in m else "-"
        table.add_row(
            o.source,
            str(m.get("format", "-")),
            str(m.get("read", "-")),
            str(m.get("converted", "-")),
            str(m.get("quarantined", "-")),
            rate,
            check,
            status,
        )
    return table


@app.command()
@with_config(IngestConfig)
def run(
    cfg: IngestConfig,
    verbose: Annotated[
        bool,
        typer.Option("--verbose", "-v", help="Show Dagster's own run log (INFO and up, with tracebacks of failures)."),
    ] = False,
) -> None:
    """The main job on embedded defaults: generate the demo sources, ingest every catalog source through Dagster, register the outputs.

    Data go to ACEFORGE_HOME (default ./aceforge-data); Dagster's run history to <ACEFORGE_HOME>/dagster
    (its DAGSTER_HOME). Sources come from the catalog entries (ACEFORGE_ENTRIES, default the demo entries).
    Exit 1 when any source fails or fails its quarantine check.
    """
    home = data_home(create=True)
    files = write_demo_sources()
    say(f"demo sources: {len(files)} files in {demo_dir() / 'raw'}")
    os.environ["DAGSTER_HOME"] = str(dagster_home())
    from dagster import DagsterInstance

    from pipelines.main_job import run_ingest

    try:
        with DagsterInstance.get() as instance:
            outcomes = run_ingest(instance, config=cfg, log_level="INFO" if verbose else "CRITICAL")
    except EntryError as exc:
        fail(f"catalog entries in {default_entries_dir()}: {exc}")
    out.print(summary_table(outcomes))
    example = next((o.source for o in outcomes if o.ok), "datasets")
    say(
        f'data: {home}\ncatalog: {catalog_path()}  (try: aceforge catalog list; aceforge catalog sql "SELECT count(*) FROM {example}")\n'
        f"dagster: DAGSTER_HOME={dagster_home()} dagster dev -f pipelines/definitions.py"
    )
    failed = [o for o in outcomes if not o.ok]
    for o in failed:
        say(f"{o.source}: {o.error or 'quarantine rate over the limit'}")
    if failed:
        fail(f"{len(failed)} of {len(outcomes)} sources failed: {', '.join(o.source for o in failed)}", FAILED)
