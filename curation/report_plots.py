"""The report's plots, one function each.

Figures are made with ``matplotlib.figure.Figure`` directly (never pyplot), so they render
with the Agg canvas, need no display and leave no global plotting state behind.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib import colormaps
from matplotlib.colors import hsv_to_rgb
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from curation.config import ReportConfig

MAX_LEGEND = 12  # more sources than this: the smallest are drawn as "other"
DPI = 110


def new_figure(width: float, height: float) -> tuple[Figure, object]:
    """A figure of ``width`` x ``height`` inches and its one axes (the ACE report's and the improve report's)."""
    fig = Figure(figsize=(width, height))
    return fig, fig.subplots()


def save_figure(fig: Figure, path: Path) -> Path:
    """``fig`` as a PNG at ``path``, laid out, at the reports' resolution."""
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    return path


def _empty(ax, message: str) -> None:
    ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes, color="gray")
    ax.set_xticks([])
    ax.set_yticks([])


def distinct_colors(n: int) -> list[tuple[float, ...]]:
    """``n`` colours no two alike, for any ``n``: tab10, then tab20 (its dark and light pairs), then hues spaced
    evenly around the circle in three lightness bands (the default colour cycle repeats after 10)."""
    if n <= 10:
        return [tuple(colormaps["tab10"](i)) for i in range(n)]
    if n <= 20:
        return [tuple(colormaps["tab20"](i)) for i in range(n)]
    values = (0.95, 0.7, 0.45)  # neighbours in the list differ in lightness as well as hue
    return [(*hsv_to_rgb((i / n, 0.85, values[i % 3])), 1.0) for i in range(n)]


def palette(labels: list[str]) -> dict[str, tuple[float, ...]]:
    """One colour per distinct label, in sorted order, so a source has the same colour in every plot."""
    names = sorted(set(labels))
    return dict(zip(names, distinct_colors(len(names))))


def _grouped(labels: list[str]) -> list[str]:
    """Labels beyond the MAX_LEGEND most common become "other"."""
    keep = {label for label, _ in Counter(labels).most_common(MAX_LEGEND)}
    return [label if label in keep else "other" for label in labels]


def complexity_plot(table: pl.DataFrame, path: Path) -> Path:
    fig, ax = new_figure(7, 4)
    values = table["complexity"].to_numpy()
    if len(values):
        sources = _grouped(table["dataset"].to_list())
        colors = palette(sources)
        stacks = [values[[s == name for s in sources]] for name in colors]
        ax.hist(stacks, bins=np.linspace(0, 1, 21), stacked=True, label=list(colors), color=list(colors.values()))
        for cut, label in ((1 / 3, "low | medium"), (2 / 3, "medium | high")):
            ax.axvline(cut, color="gray", linestyle=":", linewidth=1)
            ax.text(cut, 0.98, f" {label} ({cut:.2f})", transform=ax.get_xaxis_transform(), fontsize=7,
                    color="gray", va="top")  # fmt: skip
        ax.legend(fontsize=7, title="source", title_fontsize=8)
        ax.set_xlabel("structural complexity (low | medium | high)")
        ax.set_ylabel("records")
    else:
        _empty(ax, "no records")
    ax.set_title("Complexity")
    return save_figure(fig, path)


def pass_rate_plot(table: pl.DataFrame, path: Path) -> Path:
    """One bar per pass-rate value (p = passes / k takes few values): red never solved, grey always, green frontier."""
    fig, ax = new_figure(7, 4)
    rates = table.filter(pl.col("is_task"))["pass_rate"].drop_nulls().round(4).to_list()
    if rates:
        counts = sorted(Counter(rates).items())
        colors = ["tab:red" if p <= 0 else "tab:gray" if p >= 1 else "tab:green" for p, _ in counts]
        bars = ax.bar([p for p, _ in counts], [c for _, c in counts], width=0.04, color=colors)
        ax.bar_label(bars, fontsize=8)
        handles = [Patch(color=c) for c in ("tab:red", "tab:green", "tab:gray")]
        ax.legend(handles, ["never solved (p = 0)", "frontier (0 < p < 1)", "always solved (p = 1)"], fontsize=8)
        ax.set_xlim(-0.08, 1.08)
        ax.set_xlabel("learner pass rate p over k rollouts")
        ax.set_ylabel("tasks")
    else:
        _empty(ax, "no pass rates: no learner rolled out these tasks")
    ax.set_title("Learner pass rate")
    return save_figure(fig, path)


JITTER = 0.02  # of difficulty: p = passes / k takes few values, so tasks would hide each other


def difficulty_plot(table: pl.DataFrame, path: Path, seed: int = 0) -> Path:
    """Each task a learner rolled out: its difficulty (1 - pass rate, jittered) against its structural
    complexity, one colour per environment."""
    fig, ax = new_figure(7, 4.5)
    tasks = table.filter(pl.col("is_task") & pl.col("difficulty").is_not_null())
    if tasks.height:
        rng = np.random.default_rng(seed)
        y = tasks["difficulty"].to_numpy() + rng.uniform(-JITTER, JITTER, tasks.height)
        x = tasks["complexity"].to_numpy()
        environments = _grouped(tasks["environment"].to_list())
        for name, color in palette(environments).items():
            mask = np.array([e == name for e in environments])
            ax.scatter(x[mask], y[mask], s=14, alpha=0.7, color=color, label=f"{name} ({mask.sum()})")
        ax.legend(fontsize=7, title="environment", title_fontsize=8)
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.08, 1.08)
        ax.set_xlabel("structural complexity")
        ax.set_ylabel(f"difficulty = 1 - pass rate (jitter ±{JITTER})")
    else:
        _empty(ax, "no pass rates: no learner rolled out these tasks")
    ax.set_title("Learner difficulty vs structural complexity")
    return save_figure(fig, path)


def pca_2d(vectors: np.ndarray) -> np.ndarray:
    centered = vectors - vectors.mean(axis=0)
    if len(centered) < 2:
        return np.zeros((len(centered), 2))
    _, _, components = np.linalg.svd(centered, full_matrices=False)
    coords = centered @ components[:2].T
    return coords if coords.shape[1] == 2 else np.hstack([coords, np.zeros((len(coords), 1))])


def embedding_map(vectors: np.ndarray, sources: list[str], is_task: list[bool], path: Path, cfg: ReportConfig) -> Path:
    """Task-text embeddings by source, tasks and trajectories in two panels on the same axes: a rollout shares its
    task's text, so drawn together each task would hide its rollouts."""
    fig = Figure(figsize=(11, 5))
    axes = fig.subplots(1, 2, sharex=True, sharey=True)
    present = np.flatnonzero(np.linalg.norm(vectors, axis=1) > 0)
    if len(present):
        rng = np.random.default_rng(cfg.seed)
        rows = np.sort(rng.choice(present, cfg.map_points, replace=False)) if len(present) > cfg.map_points else present
        coords = pca_2d(vectors[rows])
        labels = _grouped([sources[i] for i in rows])
        tasks = np.array([is_task[i] for i in rows])
        colors = palette(labels)
        for ax, kind, of_kind in ((axes[0], "tasks", tasks), (axes[1], "trajectories", ~tasks)):
            for name, color in colors.items():
                mask = np.array([label == name for label in labels]) & of_kind
                if mask.any():
                    ax.scatter(
                        coords[mask, 0], coords[mask, 1], s=10, alpha=0.7, color=color, label=f"{name} ({mask.sum()})"
                    )
            if of_kind.any():
                ax.legend(fontsize=7, markerscale=1.5, title="source", title_fontsize=8)
            else:
                _empty(ax, f"no {kind}")
            ax.set_xlabel("PC 1")
            ax.set_title(f"{kind}: {int(of_kind.sum())}")
        axes[0].set_ylabel("PC 2")
        fig.suptitle(f"Task-text embeddings (PCA), {len(rows)} of {len(present)} records")
    else:
        _empty(axes[0], "no task texts to embed")
        fig.suptitle("Task-text embeddings")
    return save_figure(fig, path)


def bar_plot(counts: Counter | None, title: str, path: Path, absent: str = "none") -> Path:
    """Bars of ``counts``; ``absent`` is written instead when there are none to count (None: no such table)."""
    fig, ax = new_figure(7, 4)
    if counts is None:
        _empty(ax, absent)
    elif counts:
        names, values = zip(*counts.most_common())
        bars = ax.barh(list(names)[::-1], list(values)[::-1], color="tab:orange")
        ax.bar_label(bars, fontsize=8)
        ax.set_xlabel("records")
    else:
        _empty(ax, "none")
    ax.set_title(title)
    return save_figure(fig, path)
