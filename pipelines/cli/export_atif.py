"""``aceforge export-atif``: records as Harbor ATIF trajectories (exporters/atif.py says how)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.app import app
from pipelines.cli.records import run_per_record_export


@app.command("export-atif")
def export_atif(
    file: Annotated[Path, typer.Argument(help="A Parquet (or JSONL) file of AgentRecords.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output JSONL file, one ATIF trajectory a line.")],
) -> None:
    """Export records as ATIF v1.5 trajectories (Harbor's Agent Trajectory Interchange Format), one a line.

    An agent turn's calls are one step with their results as its observation. E, q, v and the record's id go to
    each trajectory's extra.aceforge: `convert --format atif` restores them. Image and web observations are
    written as their text (an image as its reference).
    """
    run_per_record_export("atif", file, output, "ATIF trajectories")
