"""`aceforge verify IN -o OUT`: recompute v for every verifiable record and report what changed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import Field

from generators.llm.config import BackendConfig
from pipelines.cli.app import app
from pipelines.cli.common import FAILED, fail, one_line, out, plain_text, print_json, say
from pipelines.cli.config import with_config
from pipelines.cli.records import check_file
from schemas.stage_config import StageConfig

if TYPE_CHECKING:  # the rest is imported when a command runs, so `aceforge --help` starts fast
    from generators.llm.cached import CachedGenerator
    from schemas.record import AgentRecord


class LazyQuarantine:
    """Opens the quarantine file only when the first unreadable row arrives."""

    def __init__(self, path: Path):
        self.path, self.writer, self.rows = path, None, 0

    def write(self, source: str, index: int, error: str, raw: Any) -> None:
        if self.writer is None:
            from schemas.io import QuarantineWriter

            self.writer = QuarantineWriter(self.path)
        self.writer.write_row(source, index, error, raw)
        self.rows += 1

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def read_or_quarantine(path: Path, quarantine: LazyQuarantine) -> Iterator[AgentRecord]:
    """Stream records; a row that does not parse goes to the quarantine with its error instead of stopping the run.
    A row of a newer schema version stops it: the row is not bad, this aceforge is too old for it."""
    from pydantic import ValidationError

    from schemas.arrow_schema import row_to_record
    from schemas.io import iter_record_rows, record_from_json
    from schemas.versions import NewerSchemaError

    if path.suffix == ".jsonl":
        rows = (line for line in path.open("rb") if line.strip())
        parse = record_from_json
    else:
        rows = iter_record_rows(path)
        parse = row_to_record
    for index, row in enumerate(rows):
        try:
            yield parse(row)
        except NewerSchemaError as exc:
            raise NewerSchemaError(f"{path} row {index}: {exc}") from None
        except (ValidationError, ValueError, TypeError, KeyError) as exc:
            quarantine.write(str(path), index, one_line(exc, 500), row)


class VerifyConfig(StageConfig):
    """``aceforge verify``: the deterministic chain, plus an optional LLM judge."""

    judge: BackendConfig | None = None
    """The model that judges records whose v asks for a judge (none by default: judge-only records keep their
    verdict) and, when its agreement file lets it, the records the rules leave undecided."""
    judge_agreement: Path | None = None
    """The file bench/judge_agreement.py wrote for this judge: its agreement with the hand-labelled trajectories.
    Without it (or when it names another model, or its agreement is below min_judge_agreement) the judge decides
    no undecided record: they stay undecided."""
    min_judge_agreement: float = Field(0.9, ge=0.0, le=1.0)
    """The least agreement with the hand labels, on right and on wrong trajectories each, for the judge to decide
    what the rules leave undecided."""


def make_judge_model(section: BackendConfig | None) -> CachedGenerator | None:
    """The judge's generator when the --judge-* section was given; a model that cannot be loaded is a usage error."""
    if section is None:
        return None
    try:
        return section.make_generator()
    except (ValueError, OSError) as exc:  # unknown backend or model, unreadable model folder
        fail(f"cannot load the judge model: {one_line(exc, 500)}")


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
    from schemas.io import write_records
    from verifiers.batch import VerifyStats, reverify

    check_file(input)
    if output.suffix not in (".parquet", ".jsonl"):
        fail(f"expected a .parquet or .jsonl path, got {output}")
    if output.resolve() == input.resolve():
        fail("OUTPUT must differ from INPUT (the input is read while the output is written)")
    judge = make_judge_model(cfg.judge)
    untrusted = None
    if judge is not None:
        from verifiers.judge_trust import why_untrusted

        untrusted = why_untrusted(cfg.judge_agreement, judge.model_id, cfg.min_judge_agreement)
    stats = VerifyStats()
    bad_rows = LazyQuarantine(quarantine or output.with_name(output.stem + ".quarantine.parquet"))
    try:
        verified = reverify(
            read_or_quarantine(input, bad_rows), stats, model=judge, judge_decides_undecided=not untrusted
        )
        write_records(verified, output)
    finally:
        bad_rows.close()
        if judge is not None:
            judge.close()
    if stats.records == 0:
        output.unlink(missing_ok=True)
        why = f"every row is unreadable (quarantined in {bad_rows.path})" if bad_rows.rows else "it holds no records"
        fail(f"nothing verified in {input}: {why}", FAILED)
    judge_model = judge.model_id if judge is not None else None
    if as_json:
        summary = {"input": str(input), "output": str(output), "judge": judge_model, **stats.as_dict()}
        summary["judge_untrusted"] = untrusted  # why the judge decides no undecided record; null when it does
        print_json({**summary, "quarantined": bad_rows.rows})
        return
    if judge_model:
        out.print(plain_text(f"judge: {judge_model['model']}"))
        if untrusted:
            out.print(plain_text(f"the judge decides no undecided record: {untrusted}"))
    out.print(f"{stats.records} records: {stats.verified} verified, {stats.skipped} skipped (kept as stored)")
    out.print(f"passed {stats.passed}, failed {stats.failed}, undecided {stats.undecided}")
    out.print(
        f"verdicts changed: {stats.verdicts_changed} (scores changed: {stats.scores_changed}, "
        f"verifier versions changed: {stats.versions_changed})"
    )
    if stats.reasons:
        reasons = ", ".join(f"{reason} {count}" for reason, count in stats.reasons.most_common())
        out.print(plain_text(f"reasons: {reasons}"))
    if bad_rows.rows:
        say(f"{bad_rows.rows} unreadable rows quarantined in {bad_rows.path}")
    say(f"wrote {output}")
