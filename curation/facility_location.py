"""Greedy facility location over a nearest-neighbour graph, with a quota per complexity level.

Objective: ``F(S) = sum over candidates i of max_{j in S} sim(i, j)``, where a
candidate is similar only to its k nearest neighbours (the graph is made
symmetric) and to itself (1). Adding j gains ``sum over i near j of
max(0, sim(i, j) - cover(i))``: it pays to pick a record that stands for many
records not yet represented. F is monotone submodular, so the greedy choice is
within (1 - 1/e) of the best set of that size; the lazy variant re-evaluates a
candidate only when it reaches the top of the heap (a gain can only shrink).

Quotas keep the mix of complexity levels: each level gets a share of the
budget proportional to its share of the candidates (largest remainders; every
level that has candidates gets at least one place when the budget allows). A
candidate whose level is full is skipped. Once every candidate is covered,
gains are 0 and the rest of the budget goes in candidate order.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np

from curation.neighbors import nearest_neighbors


def level_quotas(levels: Sequence[str], budget: int) -> dict[str, int]:
    counts = Counter(levels)
    total = sum(counts.values())
    if budget >= total:
        return dict(counts)
    shares = {level: budget * count / total for level, count in counts.items()}
    quotas = {level: int(share) for level, share in shares.items()}
    by_remainder = sorted(counts, key=lambda level: (-(shares[level] - quotas[level]), level))
    for level in by_remainder[: budget - sum(quotas.values())]:
        quotas[level] += 1
    for level in sorted(counts, key=lambda level: counts[level]):  # smallest levels first
        if quotas[level] == 0 and budget >= len(counts):
            donor = max(quotas, key=lambda other: (quotas[other], other))
            quotas[donor] -= 1
            quotas[level] = 1
    return quotas


def similarity_graph(vectors: np.ndarray, k: int) -> list[list[tuple[int, float]]]:
    """Each candidate's neighbours (symmetric kNN graph, positive similarities only), itself included at 1."""
    neighbors = nearest_neighbors(vectors, k)
    edges: list[dict[int, float]] = [defaultdict(float) for _ in range(len(vectors))]
    for i, (index, similarity) in enumerate(zip(neighbors.index, neighbors.similarity)):
        for j, s in zip(index.tolist(), similarity.tolist()):
            if s > 0:
                edges[i][j] = max(edges[i][j], s)
                edges[j][i] = max(edges[j][i], s)
    return [[(i, 1.0), *sorted(edge.items())] for i, edge in enumerate(edges)]


def facility_location(vectors: np.ndarray, levels: Sequence[str], budget: int, k: int = 16) -> list[int]:
    """Positions of the chosen candidates, in the order chosen."""
    n = len(vectors)
    if budget >= n:
        return list(range(n))
    quotas = level_quotas(levels, budget)
    graph = similarity_graph(vectors, k)
    cover = np.zeros(n, dtype=np.float64)

    def gain(j: int) -> float:
        return sum(max(0.0, s - cover[i]) for i, s in graph[j])

    heap = [(-gain(j), j) for j in range(n)]
    heapq.heapify(heap)
    chosen: list[int] = []
    while heap and len(chosen) < budget:
        _, j = heapq.heappop(heap)
        if quotas[levels[j]] == 0:
            continue
        fresh = gain(j)
        if heap and fresh < -heap[0][0] - 1e-12:  # someone else may gain more now: look again later
            heapq.heappush(heap, (-fresh, j))
            continue
        chosen.append(j)
        quotas[levels[j]] -= 1
        for i, s in graph[j]:
            cover[i] = max(cover[i], s)
    return chosen
