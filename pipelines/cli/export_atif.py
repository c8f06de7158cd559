"""``aceforge export-atif``: records as Harbor ATIF trajectories (data_catalog/sources/atif.py says how)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.app import app
from pipelines.cli.common import FAILED, fail, one_line, say
from pipelines.cli.records import check_file


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
    import orjson
    import pyarrow as pa
    from pydantic import ValidationError

    from data_catalog.sources.atif import record_to_atif
    from schemas.io import atomic_output, read_records
    from schemas.versions import SchemaError

    check_file(file)
    count = 0
    try:
        with atomic_output(output) as tmp, open(tmp, "wb") as f:
            for record in read_records(file):
                f.write(orjson.dumps(record_to_atif(record)) + b"\n")
                count += 1
    except SchemaError as exc:  # a newer version's file, or not a record file: about the file, not one record
        fail(str(exc), FAILED)
    except (ValidationError, ValueError, KeyError, pa.ArrowException) as exc:
        fail(f"{file}: record {count} cannot be exported: {one_line(exc, 300)}", FAILED)
    say(f"wrote {count} ATIF trajectories to {output}")
