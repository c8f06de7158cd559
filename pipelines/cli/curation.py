"""``aceforge score | dedup | select | report``: the ACE curation stages (curation/), wired to files and the catalog.

Each command reads records, writes its outputs atomically, registers them in
the DuckDB catalog (unless ``--no-catalog``; tables beside the records as
``<name>_<table>``) and prints a summary; ``--json`` prints it as one JSON
object. Exit codes: 0 done, 1 nothing produced, 2 usage errors (missing
input, wrong suffix, unknown option, an input row that is not a record).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from curation.config import DedupConfig, ReportConfig, ScoreConfig, SelectConfig
from data_catalog.catalog import safe_name
from pipelines.catalog_names import adhoc_name
from pipelines.cli.app import app
from pipelines.cli.common import FAILED, USAGE, err, fail, one_line, out, plain_text, print_json, say, shown
from pipelines.cli.config import with_config
from pipelines.cli.records import check_file
from pipelines.registrar import OutputOptions, StageOutput, register_or_warn
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


def run_stage(stage: Callable[[], Any]) -> Any:
    """Run a curation stage; an input row that is not a record is a one-line usage error, not a traceback."""
    from curation.learner import LearnerError

    try:
        return stage()
    except LearnerError as exc:
        fail(f"cannot place complexity: {exc}", USAGE)
    except (ValidationError, ValueError, KeyError) as exc:
        fail(f"cannot curate this input: {one_line(exc, 300)} (does `aceforge validate` accept it?)", USAGE)


def register(
    cfg: OutputOptions, name: str, command: str, input: Path | list[Path], outputs: dict[str, tuple[Path, int, str]]
) -> None:
    """Register each output (catalog name suffix -> path, rows, kind), made from ``input``: the records first."""
    if not cfg.catalog:
        return
    name = adhoc_name(name)
    registered = [
        StageOutput(
            f"{name}{suffix}", path, rows, kind, SCHEMA_VERSION if kind == "records" else None, {"command": command}
        )
        for suffix, (path, rows, kind) in outputs.items()
    ]
    register_or_warn(command, cfg, input if isinstance(input, list) else [input], registered, say)


def progress() -> bool:
    return err.is_terminal


def loss_column_of(model_spec: str):
    """curation/loss.py's column with the learner's tokenizer and training/render.py's assistant masks."""
    from curation.loss import loss_column
    from generators.llm.model_store import resolve_model
    from training.model_io import load_model, load_tokenizer
    from training.render import RenderError, record_to_chat, tokenize_chat

    try:
        path = resolve_model(model_spec)
        tokenizer, template = load_tokenizer(path)
        model = load_model(path).eval()
    except (OSError, ValueError) as exc:
        fail(f"cannot load the loss model {model_spec!r}: {one_line(exc, 200)}")

    def tokenize(record):
        try:
            return tokenize_chat(tokenizer, record_to_chat(record), template)
        except RenderError:
            return None

    return loss_column(model, tokenize)


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
    from curation.score_stage import run_score
    from curation.signatures import sidecar
    from runtime.executor import open_executor
    from schemas.io import RecordWriter, read_records

    check_paths(input, output)
    is_empty(input, allow_empty)
    if rollouts is not None:
        check_file(rollouts)
    name = safe_name(cfg.dataset or output.stem)
    writer = RecordWriter(sidecar(output, "rollouts")) if cfg.learner is not None else None
    columns = {"loss": loss_column_of(cfg.loss_model)} if cfg.loss_model else None
    on_rollout = writer.write_record if writer is not None else None
    try:
        learner_rollouts = read_records(rollouts) if rollouts is not None else None
        with open_executor(cfg) as executor:
            result = run_stage(
                lambda: run_score(input, output, cfg, learner_rollouts, progress(), columns, on_rollout, executor)
            )
    finally:
        if writer is not None:
            writer.close()
    outputs = {
        "": (output, result.table.height, "records"),
        "_scores": (result.scores_path, result.table.height, "scores"),
    }
    if writer is not None:
        outputs["_learner_rollouts"] = (writer.path, writer.rows, "records")
    register(cfg, name, "score", [input, *([rollouts] if rollouts is not None else [])], outputs)
    summary = result.summary()
    if as_json:
        print_json(summary)
        return
    out.print(plain_text(f"scored {summary['records']} records; learner: {summary['learner'] or 'none declared'}"))
    out.print("accuracy levels: " + ", ".join(f"{k} {v}" for k, v in summary["accuracy_levels"].items()))
    out.print("complexity levels: " + ", ".join(f"{k} {v}" for k, v in summary["complexity_levels"].items()))
    out.print(
        f"with a pass rate: {summary['with_pass_rate']}, at the frontier: {summary['frontier']}, "
        f"with unequal learner rewards: {summary['unequal_rewards']}"
    )
    if summary["missing"]:
        out.print("missing: " + ", ".join(f"{k} {v}" for k, v in summary["missing"].items()))
    say(f"wrote {output} and {result.scores_path.name}")


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
    from curation.dedup_stage import run_dedup
    from runtime.executor import open_executor

    check_paths(input, output)
    is_empty(input, allow_empty)
    if signatures is not None and not signatures.is_file():
        fail(f"file not found: {signatures}")
    with open_executor(cfg) as executor:
        result = run_stage(lambda: run_dedup(input, output, cfg, signatures, progress(), executor))
    summary = result.summary()
    name = safe_name(cfg.dataset or output.stem)
    removed = summary["removed"]
    register(
        cfg,
        name,
        "dedup",
        input,
        {"": (output, result.kept, "records"), "_audit": (result.audit_path, removed, "dedup_audit")},
    )
    if as_json:
        print_json(summary)
        return
    kinds = ", ".join(f"{k} {v}" for k, v in summary["removed_by_kind"].items()) or "none"
    out.print(f"{summary['records']} records: kept {summary['kept']}, removed {removed} ({kinds})")
    say(f"wrote {output}; audit in {result.audit_path.name}")


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
    from curation.select_stage import run_select

    check_paths(input)
    is_empty(input, allow_empty)
    result = run_stage(lambda: run_select(input, out_dir, cfg, progress()))
    summary = result.summary()
    name = safe_name(cfg.dataset or out_dir.name)
    left = sum(result.left_out.values())
    register(
        cfg,
        name,
        "select",
        input,
        {
            "_sft": (out_dir / "sft.parquet", result.sft, "records"),
            "_rl": (out_dir / "rl.parquet", result.rl, "records"),
            "_left_out": (out_dir / "left_out.parquet", left, "left_out"),
        },
    )
    if as_json:
        print_json(summary)
        return
    reasons = ", ".join(f"{k} {v}" for k, v in summary["left_out_by_reason"].items()) or "none"
    out.print(f"{summary['records']} records: SFT {result.sft}, RL {result.rl}, left out {left} ({reasons})")
    if result.rl_empty:
        out.print(plain_text(result.rl_empty))
    say(f"wrote {out_dir}/sft.parquet, rl.parquet, left_out.parquet")


@app.command("report")
@with_config(ReportConfig)
def report_cmd(
    cfg: ReportConfig,
    input: Annotated[
        Path, typer.Argument(help="Scored records (.parquet), or a `select` output directory (its selection.json).")
    ],
    out_dir: Annotated[Path, typer.Option("-o", "--output", help="Directory for the PNG plots and summary.md.")],
    as_json: AsJson = False,
    allow_empty: AllowEmpty = False,
) -> None:
    """Render the ACE report: complexity and pass-rate histograms, a 2-D map of the embeddings by source, dedup
    counts by kind, rejects by reason, and a markdown summary with the numbers (OUTPUT/summary.md)."""
    from curation.report import ace_report, report_inputs
    from curation.select_stage import MANIFEST

    if input.is_dir() and not (input / MANIFEST).is_file():
        fail(f"{input} is a folder without {MANIFEST}: give scored records (.parquet) or a `select` output folder")
    if not input.is_dir():
        check_file(input)
    inputs = report_inputs(input)
    check_file(inputs.records)
    if is_empty(inputs.records, allow_empty):
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "summary.md").write_text(f"## ACE summary\n\nNo records in `{inputs.records}`.\n")
        say(f"{inputs.records} holds no records: wrote an empty summary.md to {out_dir}")
        return
    report = run_stage(lambda: ace_report(inputs.records, out_dir, cfg, inputs.audit, inputs.left_out, inputs.sets))
    if as_json:
        print_json({"summary": str(out_dir / "summary.md"), "plots": {k: str(v) for k, v in report.plots.items()}})
        return
    typer.echo(shown(report.markdown, multiline=True))
    say(f"wrote {len(report.plots)} plots and summary.md to {out_dir}")
