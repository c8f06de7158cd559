"""The ACE report: PNG plots and a markdown summary of accuracy, complexity, diversity, dedup and selection.

The summary says which stages' outputs the input holds (verdicts, scores, a dedup
audit, the selected sets) and, for each one it lacks, the command that adds it,
so ``aceforge report`` works on any stage's output.

``ace_report`` returns the markdown and the plot paths, so the same summary
serves ``aceforge report``, Dagster materialization metadata and the Hub
dataset card. Plots (matplotlib, Agg backend, no display needed):

- ``complexity.png``: structural complexity, stacked by source;
- ``pass_rate.png``: the learner's pass rate over tasks (frontier shaded);
- ``difficulty.png``: learner difficulty (1 - pass rate) against structural
  complexity, one point per task, coloured by environment;
- ``embedding_map.png``: task-text embeddings in 2-D (PCA), coloured by source;
- ``dedup.png``: records removed per dedup kind;
- ``rejects.png``: records left out of selection per reason.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from curation.complexity import FEATURE_CAPS
from curation.config import ReportConfig
from curation.dedup_stage import DEDUP
from curation.diversity import Embedded, clusters, coverage
from curation.facts import RecordFacts, facts_of, iter_records
from curation.report_plots import bar_plot, complexity_plot, difficulty_plot, embedding_map, pass_rate_plot
from curation.report_tables import difficulty_correlations, goal_kind_counts, tool_sequence_counts
from curation.select_stage import MANIFEST
from curation.selection import rl_empty_line
from curation.signatures import SIGNATURES, embeddings_for, sidecar


@dataclass
class ReportInputs:
    records: Path
    audit: Path | None = None
    left_out: Path | None = None
    sets: dict = field(default_factory=dict)


def report_inputs(path: Path) -> ReportInputs:
    """What to report on: a records file (and its dedup audit, if any), or a ``select`` output directory."""
    if path.is_dir():
        manifest = json.loads((path / MANIFEST).read_text())
        audit = Path(manifest["audit"]) if manifest.get("audit") else None
        sets = {"sft": manifest["sft"], "rl": manifest["rl"]}
        return ReportInputs(Path(manifest["input"]), audit, path / "left_out.parquet", sets)
    audit = sidecar(path, DEDUP)
    return ReportInputs(path, audit if audit.is_file() else None)


VERDICTS = {True: "passed", False: "failed", None: "no verdict"}
UNDECIDED = "undecided"  # the verifier ran and could not decide (never counted as a pass)


@dataclass
class AceReport:
    markdown: str
    plots: dict[str, Path]
    numbers: dict = field(default_factory=dict)


NO_LEARNER = (
    "`aceforge score --rollouts LEARNER.parquet` counts a learner's rollouts; `--learner-agent ...` rolls one out"
)


def read_scored(path: Path) -> tuple[list[RecordFacts], pl.DataFrame]:
    facts, rows = [], []
    for record in iter_records(path):
        f = facts_of(record)
        facts.append(f)
        pass_rate = record.scores.extra.get("pass_rate")
        rows.append(
            {
                "dataset": f.dataset,
                "format": f.format,
                "environment": f.environment,
                "is_task": f.is_task,
                "verdict": UNDECIDED if f.accuracy.level == UNDECIDED else VERDICTS[f.verdict],
                "accuracy_level": f.accuracy.level,
                **f.features,
                "complexity": f.complexity,
                "scored": record.scores.complexity is not None,
                "pass_rate": pass_rate,
                "rewards_differ": f.rewards_differ,
                "learner": record.scores.learner,
                "difficulty": record.scores.extra.get("difficulty", None if pass_rate is None else 1.0 - pass_rate),
                "diversity": record.scores.diversity,
                "goal_kinds": f.goal_kinds,
                "tool_sequence": f.tool_sequence,
            }
        )
    schema = {
        **{"pass_rate": pl.Float64, "rewards_differ": pl.Boolean, "learner": pl.String},
        **{"difficulty": pl.Float64, "diversity": pl.Float64},
    }
    schema |= {"goal_kinds": pl.List(pl.String), **{name: pl.Int64 for name in FEATURE_CAPS}}
    return facts, pl.DataFrame(rows, schema_overrides=schema, infer_schema_length=None)


def _mean(series: pl.Series) -> float | None:
    values = series.drop_nulls()
    return round(float(values.mean()), 4) if len(values) else None


def report_numbers(
    table: pl.DataFrame, cover: dict, k: int, dedup: Counter | None, left_out: Counter | None, sets: dict
) -> dict:
    """The report's numbers; ``dedup``/``left_out`` None: the input has no dedup audit / no selection."""
    tasks = table.filter(pl.col("is_task"))
    rates = tasks["pass_rate"].drop_nulls()
    return {
        "records": table.height,
        "tasks": tasks.height,
        "by_source": dict(Counter(table["dataset"].to_list()).most_common()),
        "by_format": dict(Counter(table["format"].to_list()).most_common()),
        "by_verdict": dict(Counter(table["verdict"].to_list()).most_common()),
        "accuracy_levels": dict(Counter(table["accuracy_level"].to_list()).most_common()),
        "stages": {
            "verified": table.height - int((table["verdict"] == VERDICTS[None]).sum()),
            "scored": int(table["scored"].sum()),
            "deduplicated": dedup is not None,
            "selected": bool(sets),
        },
        "complexity_mean": _mean(table["complexity"]),
        "diversity_mean": _mean(table["diversity"]),
        "tasks_with_pass_rate": len(rates),
        "learners": sorted(tasks["learner"].drop_nulls().unique().to_list()),
        "pass_rate_mean": _mean(rates),
        "frontier": int(((rates > 0) & (rates < 1)).sum()),
        "always_solved": int((rates >= 1).sum()),
        "never_solved": int((rates <= 0).sum()),
        "unequal_rewards": int(tasks["rewards_differ"].fill_null(False).sum()),
        "rl_empty": rl_empty_line(tasks.height, left_out or {}) if sets and not sets.get("rl") else None,
        "difficulty_correlation": difficulty_correlations(table),
        "goal_kinds": goal_kind_counts(table),
        "tool_sequences": tool_sequence_counts(table),
        "clusters": k,
        "coverage": cover,
        "dedup_removed": dict((dedup or Counter()).most_common()),
        "left_out": dict((left_out or Counter()).most_common()),
        **sets,
    }


def _table(title: str, counts: dict, header: str = "count") -> list[str]:
    if not counts:
        return [f"**{title}**: none", ""]
    lines = [f"| {title} | {header} |", "|---|---:|"]
    lines += [f"| {key} | {value} |" for key, value in counts.items()]
    return [*lines, ""]


def _or_unscored(value: object) -> str:
    return "not scored (`aceforge score` computes it)" if value is None else str(value)


def _stages(n: dict) -> list[str]:
    """Which stages' outputs the input holds, and for each one it lacks, the command that adds it."""
    done, records = n["stages"], n["records"]
    selected = f"SFT {n.get('sft', 0)}, RL {n.get('rl', 0)}" + (f". {n['rl_empty']}" if n["rl_empty"] else "")
    stages = (  # (stage, what its output holds here, or None; the command that adds it)
        ("verify", done["verified"] and f"{done['verified']} of {records} records have a verdict",
         "no verdicts (`aceforge verify` adds them)"),
        ("score", done["scored"] and f"{done['scored']} of {records} records scored",
         "no scores (`aceforge score` adds them)"),
        ("dedup", done["deduplicated"] and f"audit of {sum(n['dedup_removed'].values())} removed records",
         "no dedup audit (`aceforge dedup`, then report its output)"),
        ("select", done["selected"] and selected,
         "no sets (`aceforge select`, then report its output directory)"),
    )  # fmt: skip
    lines = ["### Stages in this input", ""]
    lines += [f"- {stage}: {held or missing}" for stage, held, missing in stages]
    return [*lines, ""]


def _correlations(n: dict) -> list[str]:
    found = n["difficulty_correlation"]
    lines = ["### Complexity and learner failure", ""]
    if not found["n"]:
        return [*lines, f"No learner pass rates in this input ({NO_LEARNER}).", ""]
    if found["levels"] == 1:
        return [*lines, f"All {found['n']} tasks a learner rolled out have the same pass rate: nothing to rank.", ""]
    lines += [
        f"Spearman rank correlation with difficulty (1 - pass rate) over the {found['n']} tasks a learner rolled "
        "out; undefined where the feature is the same for every task.",
        "",
        f"| feature | Spearman rho (n = {found['n']}) |",
        "|---|---:|",
    ]
    lines += [f"| {name} | {'undefined' if rho is None else rho} |" for name, rho in found["spearman"].items()]
    return [*lines, ""]


def _coverage(n: dict) -> list[str]:
    lines = ["### Coverage", "", f"- sources: {len(n['by_source'])} (records per source above)"]
    sequences = n["tool_sequences"]
    lines += [
        f"- tool sequences: {sequences['distinct']} distinct ordered sequences of tool names among the trajectories "
        f"({sequences['without_tool_calls']} trajectories call no tool)",
        "",
        "| goal kind | tasks | trajectories |",
        "|---|---:|---:|",
    ]
    lines += [f"| {kind} | {c['tasks']} | {c['trajectories']} |" for kind, c in n["goal_kinds"].items()]
    lines.append("")
    lines += _table(
        "most common tool sequences", {f"`{seq}`": c for seq, c in sequences["top"].items()}, "trajectories"
    )
    coverage_rows = {
        f"{group} ({kind})": f"{share:.0%}"
        for kind in ("source", "environment")
        for group, share in n["coverage"][kind].items()
    }
    lines += _table(f"cluster coverage of {n['clusters']} clusters", coverage_rows, "share")
    if coverage_rows:
        lines += [
            f"Cluster coverage: the share of the {n['clusters']} task-text clusters in which a source (or "
            "environment) has at least one record. A cluster can hold several sources, so the shares of one column "
            "add up to more than 100%; a source at 100% reaches every cluster.",
            "",
        ]
    return lines


def render_markdown(n: dict, plots: dict[str, Path]) -> str:
    lines = ["## ACE summary", ""]
    if n["tasks_with_pass_rate"]:
        learner = (
            f"{n['tasks_with_pass_rate']} tasks rolled out, mean {n['pass_rate_mean']}; frontier (0 < p < 1) "
            f"{n['frontier']}, always solved {n['always_solved']}, never solved {n['never_solved']}; unequal rewards "
            f"(the RL set's rule) {n['unequal_rewards']} (learner {', '.join(n['learners'])})"
        )
    else:
        learner = f"none in this input ({NO_LEARNER})"
    lines += [
        f"- records: {n['records']} ({n['tasks']} tasks, {n['records'] - n['tasks']} trajectories)",
        f"- mean structural complexity: {n['complexity_mean']}; mean diversity: {_or_unscored(n['diversity_mean'])}",
        f"- learner pass rate: {learner}",
        "",
    ]
    lines += _stages(n)
    lines += _table("source", n["by_source"]) + _table("format", n["by_format"])
    lines += _table("verdict", n["by_verdict"]) + _table("accuracy level", n["accuracy_levels"])
    lines += _correlations(n) + _coverage(n)
    if n["stages"]["deduplicated"]:
        lines += _table("dedup removed, by kind", n["dedup_removed"])
    if n["stages"]["selected"]:
        lines += _table("left out, by reason", n["left_out"])
    lines += [f"![{name}]({path.name})" for name, path in plots.items()]
    return "\n".join(lines) + "\n"


def _counts(path: Path | None, column: str) -> Counter | None:
    """Counts of ``column`` in a table; None when there is no such table (the stage that writes it has not run)."""
    if path is None or not path.is_file():
        return None
    return Counter(pl.read_parquet(path, columns=[column])[column].to_list())


def ace_report(
    records: Path,
    out_dir: Path,
    cfg: ReportConfig | None = None,
    audit: Path | None = None,
    left_out: Path | None = None,
    sets: dict | None = None,
) -> AceReport:
    """Plots into ``out_dir`` and the summary (also written as ``out_dir/summary.md``).

    ``audit``: a dedup audit table; ``left_out``: select's left_out table; ``sets``: the
    selected set sizes, ``{"sft": n, "rl": m}`` (all optional: what is missing is reported as absent,
    with the command that adds it).
    """
    cfg = cfg or ReportConfig()
    out_dir.mkdir(parents=True, exist_ok=True)
    facts, table = read_scored(records)
    signatures = embeddings_for(facts, sidecar(records, SIGNATURES))
    text = Embedded.of([f.text for f in facts], signatures.text)
    cluster_of, k = clusters(text, cfg.seed)
    cover = {
        "source": coverage(cluster_of, table["dataset"].to_list(), k),
        "environment": coverage(cluster_of, table["environment"].to_list(), k),
    }
    dedup, rejects = _counts(audit, "kind"), _counts(left_out, "reason")
    numbers = report_numbers(table, cover, k, dedup, rejects, sets or {})
    plots = {
        "complexity": complexity_plot(table, out_dir / "complexity.png"),
        "pass_rate": pass_rate_plot(table, out_dir / "pass_rate.png"),
        "difficulty": difficulty_plot(table, out_dir / "difficulty.png", cfg.seed),
        "embedding_map": embedding_map(
            signatures.text, table["dataset"].to_list(), table["is_task"].to_list(), out_dir / "embedding_map.png", cfg
        ),
        "dedup": bar_plot(dedup, "records removed per dedup kind", out_dir / "dedup.png", "no dedup audit"),
        "rejects": bar_plot(
            rejects, "records left out of selection, per reason", out_dir / "rejects.png", "no selection"
        ),
    }
    markdown = render_markdown(numbers, plots)
    (out_dir / "summary.md").write_text(markdown)
    return AceReport(markdown, plots, numbers)
