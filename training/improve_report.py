"""What ``aceforge improve`` shows: the held-out figures over rounds as a plot, and one table row per round.

The plot is drawn the way curation/report_plots.py draws (a ``matplotlib.figure.Figure``, the Agg canvas, no
pyplot state): x is the number of rounds trained, 0 the declared learner; lines are pass^1, pass^k and the
graded score on the held-out tasks the learner is rolled out on, and dashed with their intervals, the next
calls on the oracle's held-out conversations with gold history (the tool right, the call exact, the write calls
exact).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from curation.report_plots import new_figure, save_figure

SERIES = (
    ("pass^1", "pass^1", "tab:blue"),
    ("pass^k", "pass^{k}", "tab:orange"),
    ("score", "graded score", "tab:green"),
)
# Next-call figures with gold history (training/heldout_calls.py), drawn dashed with their 95 % intervals.
CALL_SERIES = (
    ("tool_name", "next call's tool", "tab:gray"),
    ("exact", "next call exact", "tab:purple"),
    ("write_exact", "write call exact", "tab:red"),
)


def call_rate(evaluation: dict[str, Any], key: str) -> dict[str, Any] | None:
    calls = evaluation.get("calls")
    return calls[key] if calls and calls[key]["turns"] else None


def write_plot(evaluations: list[dict[str, Any]], k: int, path: Path) -> Path:
    """Held-out pass^1, pass^k and graded score after 0, 1, ... rounds, saved at ``path``."""
    fig, ax = new_figure(6.0, 3.6)
    rounds = list(range(len(evaluations)))
    for key, label, color in SERIES:
        ax.plot(rounds, [e[key] or 0.0 for e in evaluations], marker="o", color=color, label=label.format(k=k))
    for key, label, color in CALL_SERIES:
        points = [(x, r) for x, e in zip(rounds, evaluations) if (r := call_rate(e, key))]
        if points:
            xs, ys = [x for x, _ in points], [r["rate"] for _, r in points]
            spread = [[r["rate"] - r["ci95"][0] for _, r in points], [r["ci95"][1] - r["rate"] for _, r in points]]
            ax.errorbar(xs, ys, yerr=spread, marker="s", linestyle="--", color=color, capsize=3, label=label)
    ax.set_xticks(rounds)
    ax.set_xlim(-0.2, max(rounds) + 0.2)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("rounds trained (0: the declared learner)")
    ax.set_ylabel("held-out tasks")
    calls = evaluations[0].get("calls")
    gold = f"; calls of {calls['conversations']} gold conversations" if calls else ""
    ax.set_title(f"Held-out over improve rounds ({evaluations[0]['tasks']} tasks, k={k}{gold})", fontsize=10)
    ax.legend(fontsize=8)
    return save_figure(fig, path)


def rate_text(rate: dict[str, Any] | None) -> str:
    if rate is None:
        return "-"
    low, high = rate["ci95"]
    return f"{rate['right']}/{rate['turns']} ({rate['rate']:.2f}, {low:.2f}-{high:.2f})"


def top_failure(row: dict[str, Any]) -> str:
    """The most common failure label of a round over all task kinds, with its count."""
    totals: dict[str, int] = {}
    for counts in row["failures_by_kind"].values():
        for code, count in counts.items():
            totals[code] = totals.get(code, 0) + count
    if not totals:
        return "-"
    code = max(totals, key=lambda c: (totals[c], c))
    return f"{code} ({totals[code]})"


def round_rows(report: dict[str, Any]) -> list[dict[str, str]]:
    """One row per evaluation: the held-out figures, and for a round that trained what it trained on."""
    rows = []
    rounds = report["rounds"]
    for index, evaluation in enumerate(report["evaluations"]):
        row = {
            "round": str(index),
            "held-out pass^1": f"{evaluation['pass^1']:.3f}",
            f"pass^{report['k']}": f"{evaluation['pass^k']:.3f}",
            "score": f"{evaluation['score']:.3f}",
            "next call exact": rate_text(call_rate(evaluation, "exact")),
            "write calls": rate_text(call_rate(evaluation, "write_exact")),
        }
        trained = rounds[index] if index < len(rounds) else None
        new = ", ".join(f"L{level}: {n}" for level, n in sorted(trained["new_tasks"].items())) if trained else ""
        row.update(
            {
                "train pass^1": f"{trained['train']['pass^1']:.3f}" if trained else "",
                "failed": str(trained["failed_rollouts"]) if trained else "",
                "top failure": top_failure(trained) if trained else "",
                "new tasks": new or ("-" if trained else ""),
                "SFT set": str(trained["selection"]["sft"]) if trained else "",
                "round s": f"{sum(trained['wall_s'].values()):.0f}" if trained else "",
            }
        )
        rows.append(row)
    return rows
