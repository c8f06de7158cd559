"""`aceforge verify IN -o OUT`: recompute v for every verifiable record and report what changed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli_app import app
from pipelines.cli_common import fail, out, print_json, say
from schemas.io import read_records, write_records
from verifiers.batch import VerifyStats, reverify


@app.command("verify")
def verify_cmd(
    input: Annotated[Path, typer.Argument(help="Records to verify (.parquet or .jsonl).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the re-verified records (.parquet or .jsonl).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object instead of text.")] = False,
) -> None:
    """Re-run the verifier chain (structure, replay, constraints, unit tests, answer match) on every record
    whose v.kind names a deterministic check, write all records to OUTPUT, and report how many verdicts changed.
    Records of other kinds pass through unchanged."""
    if not input.is_file():
        fail(f"file not found: {input}")
    for path in (input, output):
        if path.suffix not in (".parquet", ".jsonl"):
            fail(f"expected a .parquet or .jsonl path, got {path}")
    if output.resolve() == input.resolve():
        fail("OUTPUT must differ from INPUT (the input is read while the output is written)")
    stats = VerifyStats()
    write_records(reverify(read_records(input), stats), output)
    if as_json:
        print_json({"input": str(input), "output": str(output), **stats.as_dict()})
        return
    out.print(f"{stats.records} records: {stats.verified} verified, {stats.skipped} skipped (no deterministic check)")
    out.print(f"passed {stats.passed}, failed {stats.failed}, undecided {stats.undecided}")
    out.print(f"verdicts changed: {stats.verdicts_changed} (scores changed: {stats.scores_changed}, "
              f"verifier versions changed: {stats.versions_changed})")
    if stats.reasons:
        out.print("reasons: " + ", ".join(f"{reason} {count}" for reason, count in stats.reasons.most_common()))
    say(f"wrote {output}")
