"""bench/downstream.py's table and verdict: per-arm figures, and each arm against ACE with its 95 % interval and
minimum detectable effect (bench/verdict.py)."""

from __future__ import annotations

import statistics
from typing import Any

RESAMPLES = 2000


def spread(values: list[float]) -> str:
    """Mean, and the standard deviation over seeds when there are several (a spread, not an interval)."""
    mean = statistics.fmean(values)
    return f"{mean:.3f}" + (f" ± {statistics.stdev(values):.3f}" if len(values) > 1 else "")


def per_run(runs: list[dict], key: str) -> str:
    """Each seed's figure, or '-' for the untrained base."""
    return "/".join(str(r[key]) for r in runs) if key in runs[0] else "-"


def rate(hits: list[bool], subset: list[int] | None = None) -> float:
    chosen = [hits[i] for i in subset] if subset is not None else hits
    return sum(chosen) / len(chosen) if chosen else float("nan")


def comparison(name: str, a: list[dict], b: list[dict], clusters: list[int]) -> list[str]:
    """The verdict lines of arm a − arm b: exact match with interval and MDE, then the secondary figures."""
    from verdict import cluster_bootstrap, minimum_detectable_effect

    lines = []
    for key, label in [
        ("exact", "exact match"),
        ("name", "tool-name accuracy"),
        ("nll", "gold-call NLL/token, mean over turns (lower is better)"),
    ]:
        runs_a, runs_b = [[float(x) for x in r[key]] for r in a], [[float(x) for x in r[key]] for r in b]
        boot = cluster_bootstrap(runs_a, runs_b, clusters, RESAMPLES)
        low, high = boot["interval"]
        line = f"- {name}, {label}: {boot['difference']:+.3f}, 95 % interval [{low:+.3f}, {high:+.3f}]"
        if key == "exact":
            mde = minimum_detectable_effect(runs_a, runs_b, clusters)
            verdict = "ACE better" if low > 0 else "random better" if high < 0 else "no difference shown"
            line += (
                f"; minimum detectable effect {mde['mde']:.3f} (SE {mde['se']:.3f}, 80 % power, two-sided 5 %; "
                f"from the per-conversation variance)"
                if mde["se"] > 0
                else "; MDE n/a: no variance between arms"
            ) + f": **{verdict}**"
        lines.append(line)
    return lines


def table(args: Any, results: dict, held: Any) -> str:
    unseen = [i for i, turn in enumerate(held.turns) if turn.unseen_kind]
    clusters = [turn.conversation for turn in held.turns]
    lines = [
        f"Teacher-forced next-call exact match on {len(held.turns)} held-out tool-call turns of "
        f"{len(held.conversations)} conversations ({len(unseen)} turns in tasks of held-out goal kinds), compact "
        "rendering; mean ± sd over seeds",
        "",
        "| arm | N | seeds | records seen | steps | records cut at max length | train loss | exact match | held-out kinds | tool name | "
        "gold NLL/token | token acc | pass^1 | eval s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, entry in results.items():
        runs = entry["runs"]
        trained = "seen" in runs[0]
        pk = [r["pass^1"] for r in runs if r.get("pass^1") is not None]
        lines.append(
            f"| {entry.get('arm', name)} | {entry.get('n', '-')} | {len(runs)} "
            f"| {per_run(runs, 'seen')} | {per_run(runs, 'steps')} | {per_run(runs, 'truncated')} "
            f"| {spread([r['train_loss'] for r in runs]) if trained else '-'} "
            f"| {spread([rate(r['exact']) for r in runs])} | {spread([rate(r['exact'], unseen) for r in runs])} "
            f"| {spread([rate(r['name']) for r in runs])} | {spread([r['nll_per_token'] for r in runs])} "
            f"| {spread([r['tokens_right'] for r in runs])} | {spread(pk) if pk else '-'} "
            f"| {statistics.fmean(r['eval_s'] for r in runs):.0f} |"
        )
    if args.pass_k_tasks:
        lines.append(
            "| do-nothing (empty / refuse / read-only) | - | - | - | - | - | 0 | 0 | - | - | - | 0 (by construction) | - |"
        )
    lines += [
        "",
        f"Differences, 95 % intervals from a cluster bootstrap ({RESAMPLES} resamples of conversations, each arm's "
        "seeds resampled too):",
        "",
    ]
    for n in args.n:
        if "ace" not in args.arms:
            break
        ace = results[f"ace N={n}"]["runs"]
        for other in [arm for arm in args.arms if arm != "ace"]:
            lines += comparison(f"N={n}: ace − {other}", ace, results[f"{other} N={n}"]["runs"], clusters)
        lines += comparison(f"N={n}: ace − base", ace, results["base"]["runs"], clusters)
    return "\n".join(lines)
