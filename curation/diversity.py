"""Diversity: how unlike the rest of the data a record is, and which regions of the data each source covers.

Two embeddings per record (all-MiniLM-L6-v2, curation/embedder.py): of its
task text and of its action signature (the sequence of tool names, e.g.
``get_user -> get_order -> cancel_order``; curation/views.py).

- **novelty** of a record in one embedding = ``1 - s``, where ``s`` is the
  cosine similarity to its nearest *other* record of its kind (exact search,
  curation/neighbors.py), clipped to [0, 1]: tasks among tasks, trajectories
  among the trajectories of *other* tasks (a task's k rollouts share its text
  by design and are not each other's neighbours). A record whose text a record
  of another task repeats exactly has novelty 0; the only one of a set has 1.
- **entity novelty** = ``1 - J``, where ``J`` is the largest Jaccard
  similarity of the record's grounded entities (the ids and item numbers its
  actions name, curation/views.py) to those of another record of its
  kind and of another task: a task on rows no other task touches has 1, two
  tasks on the same rows have 0 (the same template on other rows is other
  data; on the same rows it is not). NaN for a record that names no entity.
- **diversity** = the mean of the novelties a record has: always its text
  novelty, plus the action novelty when it takes an action, plus the entity
  novelty when its actions name an entity; None (with the ``no_text`` marker)
  when it has no task text.
- **clusters**: k-means (scikit-learn, seeded) over the distinct task-text
  embeddings, ``K = clamp(round(sqrt(distinct / 2)), 1, MAX_CLUSTERS)``.
  **Coverage** of a source (or environment) = the share of the K clusters
  holding at least one of its records: a source that covers 2 of 40 clusters
  adds little breadth, however many records it has.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from curation.neighbors import nearest_neighbors

MAX_CLUSTERS = 64


@dataclass
class Embedded:
    """Distinct texts' unit vectors and, per record, which row is its text's (``-1``: the record has no text)."""

    vectors: np.ndarray
    row: np.ndarray

    @classmethod
    def of(cls, texts: Sequence[str], per_record: np.ndarray) -> Embedded:
        """From one vector per record: records with the same text share one row."""
        first: dict[str, int] = {}  # text -> its distinct row
        holder: list[int] = []  # distinct row -> a record with that text
        row = np.full(len(texts), -1, dtype=np.int64)
        for i, text in enumerate(texts):
            if text:
                if text not in first:
                    first[text] = len(holder)
                    holder.append(i)
                row[i] = first[text]
        return cls(per_record[holder].astype(np.float32, copy=False), row)


def novelty(embedded: Embedded, progress: bool = False, owners: Sequence[str] | None = None) -> np.ndarray:
    """Per record: 1 - similarity to its nearest other record; NaN for a record without text.

    ``owners`` (the task of each record): records of one owner are not each other's neighbours (the k
    rollouts of a task share its text by design), so a text counts as repeated only across owners.
    """
    out = np.full(len(embedded.row), np.nan, dtype=np.float64)
    rows = embedded.row[embedded.row >= 0]
    if len(rows) == 0:
        return out
    nearest = nearest_neighbors(embedded.vectors, k=1, progress=progress).nearest
    if owners is None:
        repeated = np.bincount(rows, minlength=len(embedded.vectors)) > 1
    else:
        held: dict[int, set[str]] = defaultdict(set)
        for row, owner in zip(embedded.row, owners):
            if row >= 0:
                held[int(row)].add(owner)
        repeated = np.array([len(held[r]) > 1 for r in range(len(embedded.vectors))], dtype=bool)
    similarity = np.where(repeated[rows], 1.0, nearest[rows])
    out[embedded.row >= 0] = np.clip(1.0 - similarity, 0.0, 1.0)
    return out


def entity_novelty(entities: Sequence[frozenset[str]], owners: Sequence[str]) -> np.ndarray:
    """Per record: 1 - the largest Jaccard similarity of its entities to another owner's; NaN without entities."""
    holders: dict[str, list[int]] = defaultdict(list)  # entity -> the records naming it
    for i, names in enumerate(entities):
        for name in names:
            holders[name].append(i)
    out = np.full(len(entities), np.nan, dtype=np.float64)
    for i, names in enumerate(entities):
        if not names:
            continue
        shared: Counter[int] = Counter(j for name in names for j in holders[name] if owners[j] != owners[i])
        overlap = max((count / len(names | entities[j]) for j, count in shared.items()), default=0.0)
        out[i] = 1.0 - overlap
    return out


def diversity(text_novelty: np.ndarray, *other_novelties: np.ndarray) -> np.ndarray:
    """The mean of the novelties each record has (NaN: it has not that one); NaN without a text novelty."""
    stacked = np.vstack([text_novelty, *other_novelties])
    present = ~np.isnan(stacked)
    mean = np.where(present, stacked, 0.0).sum(axis=0) / present.sum(axis=0).clip(min=1)
    return np.where(np.isnan(text_novelty), np.nan, mean)


def cluster_count(distinct: int) -> int:
    return max(1, min(MAX_CLUSTERS, round(math.sqrt(distinct / 2))))


def clusters(embedded: Embedded, seed: int = 0) -> tuple[np.ndarray, int]:
    """(cluster of each record, -1 without text; K)."""
    from sklearn.cluster import MiniBatchKMeans

    out = np.full(len(embedded.row), -1, dtype=np.int64)
    distinct = len(embedded.vectors)
    if distinct == 0:
        return out, 0
    k = cluster_count(distinct)
    if k == 1:
        labels = np.zeros(distinct, dtype=np.int64)
    else:
        labels = MiniBatchKMeans(n_clusters=k, random_state=seed, n_init=3, batch_size=2048).fit_predict(
            embedded.vectors
        )
    present = embedded.row >= 0
    out[present] = labels[embedded.row[present]]
    return out, k


def coverage(cluster_of: Sequence[int], groups: Sequence[str | None], k: int) -> dict[str, float]:
    """Per group (source or environment): the share of the k clusters holding one of its records."""
    covered: dict[str, set[int]] = defaultdict(set)
    for cluster, group in zip(cluster_of, groups):
        if cluster >= 0:
            covered[group or "-"].add(int(cluster))
    return {group: len(seen) / k for group, seen in sorted(covered.items())} if k else {}
