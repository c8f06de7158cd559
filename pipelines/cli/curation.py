"""``aceforge score | dedup | select | report``: the ACE curation stages (curation/), wired to files and the catalog.

Each command reads records, writes its outputs atomically, registers them in
the DuckDB catalog (unless ``--no-catalog``; tables beside the records as
``<name>_<table>``) and prints a summary; ``--json`` prints it as one JSON
object. Exit codes: 0 done, 1 nothing produced, 2 usage errors (missing
input, wrong suffix, unknown option, an input row that is not a record).
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from curation.config import DedupConfig, ReportConfig, ScoreConfig, SelectConfig
from data_catalog.catalog import safe_name
from pipelines.catalog_names import adhoc_name
from pipelines.cli.app import app
from pipelines.cli.common import FAILED, USAGE, err, fail, one_line, print_json, say, shown
from pipelines.cli.config import with_config
from pipelines.cli.records import check_file
from pipelines.registrar import OutputOptions, StageOutput, register_or_warn
from pipelines.stages import Stage, StageError
from pipelines.stages.curation import DEDUP, REPORT, SCORE, SELECT
from runtime.executor import ExecutorConfig
from schemas.record import SCHEMA_VERSION

Input = Annotated[Path, typer.Argument(help="Records (.parquet or .jsonl), e.g. the output of the previous stage.")]
Output = Annotated[Path, typer.Option("-o", "--output", help="Where to write the records (.parquet).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object on stdout.")]
AllowEmpty = Annotated[
    bool, typer.Option("--allow-empty", help="An empty input gives empty outputs and exit 0 (default: error, exit 1).")
]


def is_empty(path: Path, allow_empty: bool) -> bool:
    """Whether the input holds no record; exit 1 with one line when it does not and that is not allowed."""
    if path.suffix == ".jsonl":
        with path.open("rb") as handle:
            empty = not any(line.strip() for line in handle)
    else:
        import pyarrow.parquet as pq

        empty = pq.ParquetFile(path).metadata.num_rows == 0
    if empty and not allow_empty:
        fail(f"{path} holds no records (--allow-empty accepts that)", FAILED)
    return empty


def check_paths(input: Path, output: Path | None = None) -> None:
    check_file(input)
    if output is not None:
        if output.suffix != ".parquet":
            fail(f"--output must be a .parquet file, got {output}")
        if output.resolve() == input.resolve():
            fail("--output must differ from the input (the input is read while the output is written)")


def run_command(
    stage: Stage, cfg: Any, inputs: dict[str, Any], outputs: dict[str, Path], read: list[Path], name: str, as_json: bool
) -> None:
    """Run ``stage`` on the executor ``cfg`` names, register what it wrote (made from ``read``; the catalog name
    ``name`` unless ``--dataset``) and print its summary. An input row that is not a record is a one-line usage
    error, not a traceback."""
    from curation.learner import LearnerError
    from runtime.executor import open_executor

    with open_executor(cfg) if stage.scales_out else nullcontext() as executor:
        try:
            ran = stage.run(inputs, outputs, cfg, executor, err.is_terminal)
        except (LearnerError, StageError) as exc:
            fail(f"cannot place complexity: {exc}" if isinstance(exc, LearnerError) else str(exc), USAGE)
        except (ValidationError, ValueError, KeyError) as exc:
            fail(f"cannot curate this input: {one_line(exc, 300)} (does `aceforge validate` accept it?)", USAGE)
    if isinstance(cfg, OutputOptions) and cfg.catalog:
        name = adhoc_name(safe_name(cfg.dataset or name))
        registered = [
            StageOutput(
                name + ("" if product.name == "records" else f"_{product.name}"),
                product.path,
                product.rows,
                kind := stage.kind(product.name),
                SCHEMA_VERSION if kind == "records" else None,
                {"command": stage.name},
            )
            for product in ran.products
        ]
        register_or_warn(stage.name, cfg, read, registered, say)
    if as_json:
        print_json(ran.summary)
        return
    typer.echo(shown("\n".join(ran.lines), multiline=True))
    say("wrote " + ", ".join(str(product.path) for product in ran.products))


class ScoreCommand(ScoreConfig, OutputOptions, ExecutorConfig):
    """``aceforge score``."""


class DedupCommand(DedupConfig, OutputOptions, ExecutorConfig):
    """``aceforge dedup``."""


class SelectCommand(SelectConfig, OutputOptions):
    """``aceforge select``."""

    dataset: str | None = None
    """Catalog name prefix of the outputs, <name>_sft, <name>_rl, <name>_left_out (default: the output directory's name)."""


@app.command("score")
@with_config(ScoreCommand)
def score_cmd(
    cfg: ScoreCommand,
    input: Input,
    output: Output,
    rollouts: Annotated[
        Path | None,
        typer.Option(
            "--rollouts",
            help="The learner's rollouts (from synth rollouts): their pass rates place complexity; rollouts of "
            "other policies never count.",
        ),
    ] = None,
    as_json: AsJson = False,
    allow_empty: AllowEmpty = False,
) -> None:
    """Score every record: accuracy (level from v), complexity (structural features; for tasks, the declared
    learner's pass rate p, its id, and the frontier flag 0 < p < 1), diversity (nearest-neighbour novelty of the
    task text and action signature, clusters). The learner is declared with the --learner-* flags (rolled out now,
    k times per task) or given by its rollouts (--rollouts). Writes OUTPUT, OUTPUT-stem.scores.parquet (flat
    columns) and .signatures.parquet (embeddings)."""
    from schemas.io import read_records

    check_paths(input, output)
    is_empty(input, allow_empty)
    if rollouts is not None:
        check_file(rollouts)
    learner = read_records(rollouts) if rollouts is not None else None
    read = [input, *([rollouts] if rollouts is not None else [])]
    run_command(SCORE, cfg, {"records": input, "learner": learner}, {"records": output}, read, output.stem, as_json)


@app.command("dedup")
@with_config(DedupCommand)
def dedup_cmd(
    cfg: DedupCommand,
    input: Input,
    output: Output,
    signatures: Annotated[
        Path | None,
        typer.Option("--signatures", help="Signatures of an earlier run (default: the input's .signatures.parquet)."),
    ] = None,
    as_json: AsJson = False,
    allow_empty: AllowEmpty = False,
) -> None:
    """Remove duplicates (exact, structural, MinHash near-duplicate text, semantic); every removed record is named
    with the kept record it duplicates, the kind and the similarity in OUTPUT-stem.dedup.parquet."""
    check_paths(input, output)
    is_empty(input, allow_empty)
    if signatures is not None and not signatures.is_file():
        fail(f"file not found: {signatures}")
    inputs = {"records": input, "signatures": signatures}
    run_command(DEDUP, cfg, inputs, {"records": output}, [input], output.stem, as_json)


@app.command("select")
@with_config(SelectCommand)
def select_cmd(
    cfg: SelectCommand,
    input: Input,
    out_dir: Annotated[
        Path, typer.Option("--out-dir", help="Directory for sft.parquet, rl.parquet, left_out.parquet.")
    ],
    as_json: AsJson = False,
    allow_empty: AllowEmpty = False,
) -> None:
    """Choose an SFT set of verified successes (diverse under --budget, keeping the mix of complexity levels), an RL
    set of tasks whose learner rollouts earned unequal rewards (ordered by learnability), and list every record left
    out with its reason."""
    from curation.select_stage import SelectOutputs

    check_paths(input)
    is_empty(input, allow_empty)
    run_command(SELECT, cfg, {"records": input}, vars(SelectOutputs.in_folder(out_dir)), [input], out_dir.name, as_json)


@app.command("report")
@with_config(ReportConfig)
def report_cmd(
    cfg: ReportConfig,
    input: Annotated[
        Path,
        typer.Argument(
            help="Scored records (.parquet), or a `select` output directory (its selection.json: the selection's "
            "input, the deduplicated records, with their dedup audit and the sets)."
        ),
    ],
    out_dir: Annotated[Path, typer.Option("-o", "--output", help="Directory for the PNG plots and summary.md.")],
    selection: Annotated[
        Path | None,
        typer.Option(
            "--selection",
            help="A `select` output directory whose dedup audit, left-out table and set sizes go with INPUT, the "
            "scored records: every record the pipeline scored, as the pipeline's ace_report shows them.",
        ),
    ] = None,
    as_json: AsJson = False,
    allow_empty: AllowEmpty = False,
) -> None:
    """Render the ACE report: complexity and pass-rate histograms, a 2-D map of the embeddings by source, dedup
    counts by kind, rejects by reason, and a markdown summary with the numbers (OUTPUT/summary.md). Given a `select`
    folder it reports the selection's input, the deduplicated records; given the scored records and --selection,
    every scored record with the same dedup and selection counts, as the pipeline's ace_report does."""
    from dataclasses import replace

    from curation.report import report_inputs
    from curation.select_stage import MANIFEST

    if input.is_dir() and not (input / MANIFEST).is_file():
        fail(f"{input} is a folder without {MANIFEST}: give scored records (.parquet) or a `select` output folder")
    if not input.is_dir():
        check_file(input)
    if selection is not None and (input.is_dir() or not (selection / MANIFEST).is_file()):
        fail(f"--selection takes a `select` output folder (its {MANIFEST}), INPUT then the scored records")
    inputs = report_inputs(input) if selection is None else replace(report_inputs(selection), records=input)
    check_file(inputs.records)
    if is_empty(inputs.records, allow_empty):
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "summary.md").write_text(f"## ACE summary\n\nNo records in `{inputs.records}`.\n")
        say(f"{inputs.records} holds no records: wrote an empty summary.md to {out_dir}")
        return
    run_command(REPORT, cfg, vars(inputs), {"folder": out_dir}, [input], out_dir.name, as_json)
