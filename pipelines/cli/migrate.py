"""``aceforge migrate DIR``: rewrite the record files of a folder as the current schema version."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.app import app
from pipelines.cli.common import FAILED, fail, one_line, out, print_json, say


@app.command()
def migrate(
    folder: Annotated[Path, typer.Argument(help="A folder of record files (searched recursively), or one file.")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Read every file and say what would be done; write nothing.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per file instead of text.")] = False,
) -> None:
    """Rewrite every record file (.parquet, .jsonl) under FOLDER that an earlier schema version wrote as the
    current version, in place: each to a temporary file in its folder, synced and renamed over the original,
    with the original's permissions. Files already current, files that hold no records, hidden files and the
    catalog's snapshots (catalog-versions/: a registered version never changes) are left as they are; a file
    that cannot be read completely is reported and left untouched. Run it while nothing writes to FOLDER.

    Exit 0 when every record file is current afterwards (or would be, with --dry-run); 1 when one failed."""
    from data_catalog.catalog import VERSIONS_DIR
    from schemas.migrate import FAILED as FAILED_FILE
    from schemas.migrate import migrate_folder

    try:
        folder.stat()
    except OSError as exc:
        fail(f"cannot read {folder}: {exc.strerror}")
    counts: Counter = Counter()
    for outcome in migrate_folder(folder, dry_run, skip_dirs={VERSIONS_DIR}):
        counts[outcome.action] += 1
        if as_json:
            print_json({**vars(outcome), "path": str(outcome.path), "detail": one_line(outcome.detail, 300)})
        else:
            records = "" if outcome.records is None else f", {outcome.records} records"
            line = f"{outcome.action}: {outcome.path} ({one_line(outcome.detail, 300)}{records})"
            out.print(line, highlight=False, markup=False)
    summary = ", ".join(f"{action} {n}" for action, n in sorted(counts.items())) or "no .parquet or .jsonl files"
    if counts[FAILED_FILE]:
        fail(f"{folder}: {summary}; the failed files are left as they were", FAILED)
    say(f"{folder}: {summary}")
