"""Exact k-nearest neighbours by cosine similarity over unit vectors, in blocks.

One block of rows is multiplied against every vector at a time and only its
top k survive, so memory stays at ``block x n`` similarities however large n
is. The search is exact (no approximate index to tune, nothing missed below
the k-th neighbour); it costs n^2 * d multiply-adds, which torch's CPU kernels
do at full speed (see bench/curation.py for the figures at 10k and 100k).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

BLOCK_ROWS = 1024


@dataclass
class Neighbors:
    """Row i's k nearest other rows (``index``) and their cosine similarities (``similarity``), most similar first."""

    index: np.ndarray  # int64 [n, k]
    similarity: np.ndarray  # float32 [n, k]

    @property
    def nearest(self) -> np.ndarray:
        """Each row's similarity to its nearest other row (0 for a row with no other)."""
        if self.similarity.shape[1] == 0:
            return np.zeros(len(self.similarity), dtype=np.float32)
        return self.similarity[:, 0]


def nearest_neighbors(vectors: np.ndarray, k: int, block: int = BLOCK_ROWS, progress: bool = False) -> Neighbors:
    """The k most similar other rows of every row of ``vectors`` (unit rows; a zero row is similar to nothing)."""
    import torch

    n = len(vectors)
    k = max(0, min(k, n - 1))
    index = np.zeros((n, k), dtype=np.int64)
    similarity = np.zeros((n, k), dtype=np.float32)
    if k == 0:
        return Neighbors(index, similarity)
    matrix = torch.from_numpy(np.ascontiguousarray(vectors, dtype=np.float32))
    with torch.inference_mode():
        for start in tqdm(range(0, n, block), desc="nearest neighbours", unit="block", disable=not progress):
            stop = min(start + block, n)
            sims = matrix[start:stop] @ matrix.T
            rows = torch.arange(stop - start)
            sims[rows, rows + start] = -2.0  # a row is not its own neighbour
            top = torch.topk(sims, k, dim=1)
            similarity[start:stop] = top.values.numpy()
            index[start:stop] = top.indices.numpy()
    return Neighbors(index, similarity)


def rows_above(vectors: np.ndarray, row: int, threshold: float, among: np.ndarray | None = None) -> np.ndarray:
    """Rows (of ``among``, default all) whose similarity to ``row`` reaches ``threshold``, itself excluded."""
    candidates = np.arange(len(vectors)) if among is None else among
    candidates = candidates[candidates != row]
    sims = vectors[candidates] @ vectors[row]
    return candidates[sims >= threshold]
