"""Arm a − arm b on held-out turns: a cluster bootstrap over conversations with seeds as a factor, and the
smallest effect the comparison could detect.

Turns of one conversation are not independent (the same user, order ids and history; a model that misreads
the order id misses every later call), so resampling turns understates the spread. The bootstrap resamples
**conversations** (a conversation's turns stay together) and, on each resample, the **seeds** of each arm
with replacement (a seed is one training run: its random draw, data order and LoRA init), then takes the
difference of the arms' turn-weighted rates averaged over the drawn seeds. The interval is the percentile
interval of that difference; with two seeds per arm it is coarse, never a min..max of the seeds.

The minimum detectable effect (MDE) is the true difference that a two-sided test at level ``alpha`` would
detect with probability ``power``: (z(1 − alpha/2) + z(power)) × SE, where SE is the standard error of the
difference from the per-conversation variance (ratio estimator of cluster sampling over C conversations):
with d_t the seeds' mean difference on turn t, D_c = sum of d_t over conversation c, m_c its turns and
d = sum D_c / sum m_c, SE² = C / (C − 1) × sum (D_c − d m_c)² / (sum m_c)². It is computed from the observed
differences, so it says what this held-out set and these arms could resolve, not what another design would.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence


def _cluster_sums(hits: Sequence[Sequence[float]], clusters: Sequence[int], count: int) -> list[list[float]]:
    """Per seed, the sum of its hits in each cluster."""
    sums = [[0.0] * count for _ in hits]
    for seed, row in enumerate(hits):
        for turn, hit in enumerate(row):
            sums[seed][clusters[turn]] += hit
    return sums


def cluster_bootstrap(
    a: Sequence[Sequence[float]],
    b: Sequence[Sequence[float]],
    clusters: Sequence[int],
    resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, float | list[float]]:
    """``a[s][t]``: seed s of arm a on turn t (b alike, on the same turns; the arms may have different seed
    counts); ``clusters[t]``: turn t's conversation, numbered from 0. The difference of the arms' mean rates
    over seeds, and its percentile interval from resampling conversations and each arm's seeds."""
    count = max(clusters) + 1
    turns = [0] * count
    for cluster in clusters:
        turns[cluster] += 1
    sums_a, sums_b = _cluster_sums(a, clusters, count), _cluster_sums(b, clusters, count)

    def rate(sums: list[list[float]], seeds: list[int], chosen: list[int]) -> float:
        total = sum(turns[c] for c in chosen)
        return statistics.fmean(sum(sums[s][c] for c in chosen) / total for s in seeds)

    everything = list(range(count))
    difference = rate(sums_a, list(range(len(a))), everything) - rate(sums_b, list(range(len(b))), everything)
    rng = random.Random(seed)
    values = []
    for _ in range(resamples):
        chosen = [rng.randrange(count) for _ in range(count)]
        seeds_a = [rng.randrange(len(a)) for _ in a]
        seeds_b = [rng.randrange(len(b)) for _ in b]
        values.append(rate(sums_a, seeds_a, chosen) - rate(sums_b, seeds_b, chosen))
    values.sort()
    low = values[int((1 - level) / 2 * resamples)]
    high = values[min(resamples - 1, int((1 + level) / 2 * resamples))]
    return {"difference": difference, "interval": [low, high]}


def minimum_detectable_effect(
    a: Sequence[Sequence[float]],
    b: Sequence[Sequence[float]],
    clusters: Sequence[int],
    alpha: float = 0.05,
    power: float = 0.8,
) -> dict[str, float]:
    """The standard error of a − b from the per-conversation variance, and the MDE at ``alpha`` and ``power``
    (the module docstring gives the formula)."""
    count = max(clusters) + 1
    per_turn = [statistics.fmean(s[t] for s in a) - statistics.fmean(s[t] for s in b) for t in range(len(clusters))]
    totals, turns = [0.0] * count, [0] * count
    for turn, cluster in enumerate(clusters):
        totals[cluster] += per_turn[turn]
        turns[cluster] += 1
    difference = sum(totals) / sum(turns)
    squares = sum((total - difference * m) ** 2 for total, m in zip(totals, turns))
    se = (count / (count - 1) * squares) ** 0.5 / sum(turns) if count > 1 else float("nan")
    z = statistics.NormalDist()
    return {"se": se, "mde": (z.inv_cdf(1 - alpha / 2) + z.inv_cdf(power)) * se}
