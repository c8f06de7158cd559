"""`aceforge verify IN -o OUT`: recompute v for every verifiable record and report what changed (the verify stage,
pipelines/stages/verify.py, on one file)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.app import app
from pipelines.cli.common import FAILED, fail, out, plain_text, print_json, say
from pipelines.cli.config import with_config
from pipelines.cli.records import check_file
from pipelines.stages import StageError
from pipelines.stages.verify import VERIFY, VerifyConfig


@app.command("verify")
@with_config(VerifyConfig)
def verify_cmd(
    cfg: VerifyConfig,
    input: Annotated[Path, typer.Argument(help="Records to verify (.parquet or .jsonl).")],
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Where to write the re-verified records (.parquet or .jsonl).")
    ],
    quarantine: Annotated[
        Path | None,
        typer.Option(
            "-q",
            "--quarantine",
            help="Where unreadable rows go (default: OUTPUT's name + .quarantine.parquet; written only if needed).",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary as one JSON object instead of text.")
    ] = False,
) -> None:
    """Re-run the verifier chain (structure, replay, constraints, unit tests, answer match) on every record
    whose v.kind names a check, write all records to OUTPUT, and report how many verdicts changed.
    Records whose v asks for an LLM judge are judged by the --judge-* model when one is given (without one,
    judge-only records keep their stored verdict). Records of other kinds pass through unchanged."""
    check_file(input)
    if output.suffix not in (".parquet", ".jsonl"):
        fail(f"expected a .parquet or .jsonl path, got {output}")
    if output.resolve() == input.resolve():
        fail("OUTPUT must differ from INPUT (the input is read while the output is written)")
    quarantine = quarantine or output.with_name(output.stem + ".quarantine.parquet")
    try:
        ran = VERIFY.run({"records": [input]}, {"records": output, "quarantine": quarantine}, cfg, None)
    except StageError as exc:
        fail(str(exc))
    summary = ran.summary
    if summary["records"] == 0:
        output.unlink(missing_ok=True)
        why = (
            f"every row is unreadable (quarantined in {quarantine})"
            if summary["quarantined"]
            else "it holds no records"
        )
        fail(f"nothing verified in {input}: {why}", FAILED)
    if as_json:
        print_json(summary)
        return
    for line in ran.lines:
        out.print(plain_text(line))
    if summary["quarantined"]:
        say(f"{summary['quarantined']} unreadable rows quarantined in {quarantine}")
    say(f"wrote {output}")
