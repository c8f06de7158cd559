"""The curation stages (score, dedup, select, report) as ``Stage``s (pipelines/stages/__init__.py): the ones their
commands (pipelines/cli/curation.py) and their assets (pipelines/assets/curate.py) are made from. This module is the
one in pipelines/ that calls curation's stage entry points.
"""

from __future__ import annotations

from typing import Any

from curation.config import DedupConfig, ReportConfig, ScoreConfig, SelectConfig
from pipelines.stages import RECORDS_FILE, Out, Paths, Product, Ran, Stage, StageError, Upstream, counted, single

LEFT_OUT_FILE = "records.left_out.parquet"  # in the pipeline, beside the SFT set's records


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
        raise StageError(f"cannot load the loss model {model_spec!r}: {' '.join(str(exc).split())[:200]}") from exc

    def tokenize(record):
        try:
            return tokenize_chat(tokenizer, record_to_chat(record), template)
        except RenderError:
            return None

    return loss_column(model, tokenize)


def score_run(inputs: dict[str, Any], outputs: Paths, cfg: ScoreConfig, executor, progress=False) -> Ran:
    """``learner``: the learner's rollouts (records, or None); a declared learner's rollouts are written beside."""
    from curation.score_stage import run_score
    from curation.signatures import sidecar
    from schemas.io import RecordWriter

    output = outputs["records"]
    columns = {"loss": loss_column_of(cfg.loss_model)} if cfg.loss_model else None
    writer = RecordWriter(sidecar(output, "rollouts")) if cfg.learner is not None else None
    on_rollout = writer.write_record if writer is not None else None
    try:
        result = run_score(inputs["records"], output, cfg, inputs["learner"], progress, columns, on_rollout, executor)
    finally:
        if writer is not None:
            writer.close()
    s = result.summary()
    rows = result.table.height
    products = [Product("records", output, rows, s), Product("scores", result.scores_path, rows)]
    if writer is not None:
        products.append(Product("learner_rollouts", writer.path, writer.rows))
    lines = [
        f"scored {s['records']} records; learner: {s['learner'] or 'none declared'}",
        f"accuracy levels: {counted(s['accuracy_levels'])}",
        f"complexity levels: {counted(s['complexity_levels'])}",
        f"with a pass rate: {s['with_pass_rate']}, at the frontier: {s['frontier']}, "
        f"with unequal learner rewards: {s['unequal_rewards']}",
        *([f"missing: {counted(s['missing'])}"] if s["missing"] else []),
    ]
    return Ran(s, lines, products)


def dedup_run(inputs: dict[str, Any], outputs: Paths, cfg: DedupConfig, executor, progress=False) -> Ran:
    """``signatures``: those of an earlier run (None: the input's side file)."""
    from curation.dedup_stage import run_dedup

    result = run_dedup(inputs["records"], outputs["records"], cfg, inputs.get("signatures"), progress, executor)
    s = result.summary()
    products = [Product("records", result.output, result.kept, s), Product("audit", result.audit_path, s["removed"])]
    line = (
        f"{s['records']} records: kept {s['kept']}, removed {s['removed']} ({counted(s['removed_by_kind']) or 'none'})"
    )
    return Ran(s, [line], products)


def select_run(inputs: dict[str, Any], outputs: Paths, cfg: SelectConfig, executor, progress=False) -> Ran:
    from curation.select_stage import SelectOutputs, run_select

    result = run_select(inputs["records"], SelectOutputs(**outputs), cfg, progress)
    s = result.summary()
    # Why the RL set is empty is the RL set's to say (the run's table prints it once, under rl_set).
    sft_counts = {key: value for key, value in s.items() if key != "rl_empty"}
    rl_counts = {key: s[key] for key in ("rl", "rl_empty") if key in s}
    products = [
        Product("sft", outputs["sft"], result.sft, sft_counts),
        Product("rl", outputs["rl"], result.rl, rl_counts),
        Product("left_out", outputs["left_out"], s["left_out"]),
    ]
    reasons = counted(s["left_out_by_reason"]) or "none"
    lines = [f"{s['records']} records: SFT {result.sft}, RL {result.rl}, left out {s['left_out']} ({reasons})"]
    return Ran(s, lines + ([result.rl_empty] if result.rl_empty else []), products)


def report_run(inputs: dict[str, Any], outputs: Paths, cfg: ReportConfig, executor, progress=False) -> Ran:
    """``audit``, ``left_out``, ``sets``: dedup's audit, select's left-out table and set sizes (each optional)."""
    from curation.report import ace_report

    folder = outputs["folder"]
    report = ace_report(inputs["records"], folder, cfg, inputs.get("audit"), inputs.get("left_out"), inputs.get("sets"))
    summary = {"summary": str(folder / "summary.md"), "plots": {k: str(v) for k, v in report.plots.items()}}
    return Ran(summary, [report.markdown], [Product("folder", folder, len(report.plots))])


def records_in_folders(upstream: Upstream, folders: Paths) -> tuple[dict[str, Any], Paths]:
    """One records input and one records output, the asset's ``records.parquet``."""
    return {**upstream, "records": single(upstream["records"])}, {"records": folders["records"] / RECORDS_FILE}


def select_in_folders(upstream: Upstream, folders: Paths) -> tuple[dict[str, Any], Paths]:
    """The left-out table and the manifest are the SFT set's side files (what did not make it, and why)."""
    from curation.select_stage import MANIFEST

    sft = folders["sft"] / RECORDS_FILE
    sides = {"left_out": sft.with_name(LEFT_OUT_FILE), "manifest": sft.with_name(MANIFEST)}
    return {"records": single(upstream["records"])}, {"sft": sft, "rl": folders["rl"] / RECORDS_FILE, **sides}


def report_in_folders(upstream: Upstream, folders: Paths) -> tuple[dict[str, Any], Paths]:
    """The side files beside the upstream records: dedup's audit, select's left-out table."""
    from curation.signatures import sidecar

    inputs = {
        "records": single(upstream["records"]),
        "audit": sidecar(single(upstream["deduplicated"]), "dedup"),
        "left_out": single(upstream["sft"]).with_name(LEFT_OUT_FILE),
        "sets": {"sft": upstream["sft"].rows(), "rl": upstream["rl"].rows()},
    }
    return inputs, {"folder": folders["folder"]}


SCORED = "ACE scores: accuracy, complexity (structural, and the pass rate of the declared learner counted from its own \
rollouts, with its id), diversity."
DEDUPLICATED = "Duplicates removed (exact, structural, MinHash, semantic); records.dedup.parquet names each kept twin."
SCORE = Stage(
    "score", "scored", ScoreConfig, {"records": "verified", "learner": "learner_rollouts"},
    (Out("records", "records", "scored", SCORED), Out("scores", "scores"), Out("learner_rollouts")),
    score_run, records_in_folders
)  # fmt: skip
DEDUP = Stage(
    "dedup", "deduplicated", DedupConfig, {"records": "scored"},
    (Out("records", "records", "deduplicated", DEDUPLICATED), Out("audit", "dedup_audit")),
    dedup_run, records_in_folders
)  # fmt: skip
SELECT = Stage(
    "select", "selected", SelectConfig, {"records": "deduplicated"},
    (
        Out("sft", "records", "sft_set", "Verified successes, diverse, under the budget."),
        Out("rl", "records", "rl_set", "Tasks whose learner rollouts earned unequal rewards, by learnability."),
        Out("left_out", "left_out"),
    ),
    select_run, select_in_folders, scales_out=False
)  # fmt: skip
REPORT = Stage(
    "report", "ace_report", ReportConfig,
    {"records": "scored", "deduplicated": "deduplicated", "sft": "sft_set", "rl": "rl_set"},
    (Out("folder", "folder", "ace_report", "The ACE report: plots and a markdown summary of scores, dedup and selection."),),
    report_run, report_in_folders, scales_out=False
)  # fmt: skip
CURATION = (SCORE, DEDUP, SELECT, REPORT)
