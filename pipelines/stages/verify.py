"""The verify stage as a ``Stage`` (pipelines/stages/__init__.py): the one ``aceforge verify`` (pipelines/cli/verify.py)
and the ``verified`` asset (pipelines/assets/curate.py) are made from. This module is the one in pipelines/ that
calls the verifier chain's batch entry point (verifiers/batch.py's ``reverify``).

The faces differ only in what they give the run: the command one file and, when asked, a judge (--judge-*); the
asset the converted sources and the rollouts to verify, the synthesized tasks to pass through (no trajectory to
verify: the RL candidates), and no run config (the pipeline verifies by the rules, with no judge).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

from generators.llm.config import BackendConfig
from pipelines.stages import RECORDS_FILE, Out, Paths, Product, Ran, Stage, StageError, Upstream, counted
from schemas.stage_config import StageConfig

if TYPE_CHECKING:  # the rest is imported when a stage runs, so `aceforge --help` starts fast
    from generators.llm.cached import CachedGenerator
    from schemas.io import LazyQuarantine
    from schemas.record import AgentRecord

QUARANTINE_FILE = "records.quarantine.parquet"  # in the pipeline, beside the verified records (only if needed)


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
            quarantine.write(str(path), index, " ".join(str(exc).split())[:500], row)


def judge_model(section: BackendConfig | None) -> CachedGenerator | None:
    """The judge's generator when the --judge-* section was given; a model that cannot be loaded is a StageError."""
    if section is None:
        return None
    try:
        return section.make_generator()
    except (ValueError, OSError) as exc:  # unknown backend or model, unreadable model folder
        raise StageError(f"cannot load the judge model: {' '.join(str(exc).split())[:500]}") from exc


def verify_run(inputs: dict[str, Any], outputs: Paths, cfg: VerifyConfig, executor, progress=False) -> Ran:
    """``records``: the files whose records are verified again; ``tasks``: files whose records are written after
    them as they are, uncounted. Unreadable rows of either go to the ``quarantine`` file (opened only for one)."""
    from schemas.io import LazyQuarantine, write_records
    from verifiers.batch import VerifyStats, reverify

    judge = judge_model(cfg.judge)
    untrusted = None  # why the judge decides no undecided record; None when it does (or there is no judge)
    if judge is not None:
        from verifiers.judge_trust import why_untrusted

        untrusted = why_untrusted(cfg.judge_agreement, judge.model_id, cfg.min_judge_agreement)
    stats = VerifyStats()
    bad_rows = LazyQuarantine(outputs["quarantine"])

    def read(paths: Iterable[Path]) -> Iterator[AgentRecord]:
        return chain.from_iterable(read_or_quarantine(path, bad_rows) for path in paths)

    try:
        verified = reverify(read(inputs["records"]), stats, model=judge, judge_decides_undecided=not untrusted)
        written = write_records(chain(verified, read(inputs.get("tasks", ()))), outputs["records"])
    finally:
        bad_rows.close()
        if judge is not None:
            judge.close()
    judge_id = judge.model_id if judge is not None else None
    counts = stats.as_dict()
    summary = {
        "input": ", ".join(str(path) for path in inputs["records"]),
        "output": str(outputs["records"]),
        "judge": judge_id,
        **counts,
        "judge_untrusted": untrusted,
        "quarantined": bad_rows.rows,
    }
    lines = [
        *([f"judge: {judge_id['model']}"] if judge_id else []),
        *([f"the judge decides no undecided record: {untrusted}"] if untrusted else []),
        f"{stats.records} records: {stats.verified} verified, {stats.skipped} skipped (kept as stored)",
        f"passed {stats.passed}, failed {stats.failed}, undecided {stats.undecided}",
        f"verdicts changed: {stats.verdicts_changed} (scores changed: {stats.scores_changed}, "
        f"verifier versions changed: {stats.versions_changed})",
        *([f"reasons: {counted(dict(stats.reasons.most_common()))}"] if stats.reasons else []),
    ]
    return Ran(summary, lines, [Product("records", outputs["records"], written, counts)])


def verify_in_folders(upstream: Upstream, folders: Paths) -> tuple[dict[str, Any], Paths]:
    """Each source's records (the catalog version its materialization recorded) and the rollouts are verified; the
    synthesized tasks pass through."""
    records = folders["records"] / RECORDS_FILE
    inputs = {"records": [*upstream["sources"].paths, *upstream["rollouts"].paths], "tasks": upstream["tasks"].paths}
    return inputs, {"records": records, "quarantine": records.with_name(QUARANTINE_FILE)}


VERIFIED = "Every converted record and rollout, verified again by the chain (structure, replay, constraints, ...), \
plus the synthesized tasks (no trajectory to verify: the RL candidates)."
VERIFY = Stage(
    "verify", "verified", VerifyConfig, {"sources": "converted", "rollouts": "rollouts", "tasks": "synth_tasks"},
    (Out("records", "records", "verified", VERIFIED), Out("quarantine", "quarantine")),
    verify_run, verify_in_folders, scales_out=False, configured=False
)  # fmt: skip
