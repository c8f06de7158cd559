"""The ACE report: PNG plots and a markdown summary of accuracy, complexity, diversity, dedup and selection.

``ace_report`` returns the markdown and the plot paths, so the same summary
serves ``aceforge report``, Dagster materialization metadata and the Hub
dataset card. Plots (matplotlib, Agg backend, no display needed):

- ``complexity.png``: structural complexity, stacked by source;
- ``pass_rate.png``: the learner's pass rate over tasks (frontier shaded);
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

from curation.config import ReportConfig
from curation.dedup_stage import DEDUP
from curation.diversity import Embedded, clusters, coverage
from curation.facts import RecordFacts, facts_of, iter_records
from curation.report_plots import bar_plot, complexity_plot, embedding_map, pass_rate_plot
from curation.select_stage import MANIFEST
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


@dataclass
class AceReport:
    markdown: str
    plots: dict[str, Path]
    numbers: dict = field(default_factory=dict)


def read_scored(path: Path) -> tuple[list[RecordFacts], pl.DataFrame]:
    facts, rows = [], []
    for record in iter_records(path):
        f = facts_of(record)
        facts.append(f)
        rows.append(
            {
                "dataset": f.dataset,
                "environment": f.environment,
                "is_task": f.is_task,
                "accuracy_level": f.accuracy.level,
                "complexity": f.complexity,
                "pass_rate": record.scores.extra.get("pass_rate"),
                "diversity": record.scores.diversity,
            }
        )
    schema = {"pass_rate": pl.Float64, "diversity": pl.Float64}
    return facts, pl.DataFrame(rows, schema_overrides=schema, infer_schema_length=None)


def _mean(series: pl.Series) -> float | None:
    values = series.drop_nulls()
    return round(float(values.mean()), 4) if len(values) else None


def report_numbers(table: pl.DataFrame, cover: dict, k: int, dedup: Counter, left_out: Counter, sets: dict) -> dict:
    tasks = table.filter(pl.col("is_task"))
    rates = tasks["pass_rate"].drop_nulls()
    return {
        "records": table.height,
        "tasks": tasks.height,
        "by_source": dict(Counter(table["dataset"].to_list()).most_common()),
        "accuracy_levels": dict(Counter(table["accuracy_level"].to_list()).most_common()),
        "complexity_mean": _mean(table["complexity"]),
        "diversity_mean": _mean(table["diversity"]),
        "tasks_with_pass_rate": len(rates),
        "pass_rate_mean": _mean(rates),
        "frontier": int(((rates > 0) & (rates < 1)).sum()),
        "always_solved": int((rates >= 1).sum()),
        "never_solved": int((rates <= 0).sum()),
        "clusters": k,
        "coverage": cover,
        "dedup_removed": dict(dedup.most_common()),
        "left_out": dict(left_out.most_common()),
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


def render_markdown(n: dict, plots: dict[str, Path]) -> str:
    lines = ["## ACE summary", ""]
    if n["tasks_with_pass_rate"]:
        learner = (
            f"{n['tasks_with_pass_rate']} tasks rolled out, mean {n['pass_rate_mean']}; frontier (0 < p < 1) "
            f"{n['frontier']}, always solved {n['always_solved']}, never solved {n['never_solved']}"
        )
    else:
        learner = "none in this input (`aceforge score --learner ...` rolls the tasks out)"
    if "sft" in n or "rl" in n:
        selection = f"SFT {n.get('sft', 0)}, RL {n.get('rl', 0)}"
    else:
        selection = "not in this input (report a `select` output directory to see the sets)"
    lines += [
        f"- records: {n['records']} ({n['tasks']} tasks, {n['records'] - n['tasks']} trajectories)",
        f"- mean structural complexity: {_or_unscored(n['complexity_mean'])}; "
        f"mean diversity: {_or_unscored(n['diversity_mean'])}",
        f"- learner pass rate: {learner}",
        f"- selection: {selection}",
        "",
    ]
    lines += _table("source", n["by_source"]) + _table("accuracy level", n["accuracy_levels"])
    coverage_rows = {
        f"{group} ({kind})": f"{share:.0%}"
        for kind in ("source", "environment")
        for group, share in n["coverage"][kind].items()
    }
    lines += _table(f"cluster coverage of {n['clusters']} clusters", coverage_rows, "share")
    if coverage_rows:
        lines += [
            f"Coverage: the share of the {n['clusters']} task-text clusters in which a source (or environment) has "
            "at least one record. A cluster can hold several sources, so the shares of one column add up to more "
            "than 100%; a source at 100% reaches every cluster.",
            "",
        ]
    lines += _table("dedup removed, by kind", n["dedup_removed"]) + _table("left out, by reason", n["left_out"])
    lines += [f"![{name}]({path.name})" for name, path in plots.items()]
    return "\n".join(lines) + "\n"


def _counts(path: Path | None, column: str) -> Counter:
    if path is None or not path.is_file():
        return Counter()
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
    selected set sizes, ``{"sft": n, "rl": m}`` (all optional: what is missing is reported as none).
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
        "embedding_map": embedding_map(
            signatures.text, table["dataset"].to_list(), table["is_task"].to_list(), out_dir / "embedding_map.png", cfg
        ),
        "dedup": bar_plot(dedup, "records removed per dedup kind", out_dir / "dedup.png"),
        "rejects": bar_plot(rejects, "records left out of selection, per reason", out_dir / "rejects.png"),
    }
    markdown = render_markdown(numbers, plots)
    (out_dir / "summary.md").write_text(markdown)
    return AceReport(markdown, plots, numbers)
