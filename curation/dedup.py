"""Explainable dedup: every removed record names the kept record it duplicates, the kind and the similarity.

Kinds, checked in the configured order (default: cheapest first):

- ``exact``: the same normalized content hash (curation/views.py ``content_hash``); similarity 1.
- ``structural``: the same environment, tool-call skeleton (names and argument
  keys, in order) and constraint set (views.py ``structural_key``); similarity 1.
- ``minhash``: estimated Jaccard similarity of the whole texts' word 3-gram
  shingles at or above ``minhash_threshold`` (curation/minhash.py).
- ``semantic``: cosine similarity of the task-text embeddings *and* of the
  action-signature embeddings both at or above ``semantic_threshold``; the
  similarity reported is the smaller of the two (so a higher threshold can be
  applied to the audit table later without recomputing anything). Neighbours
  come from an exact search (curation/neighbors.py).

Which record stays: records are visited best first (accuracy level passed >
failed > undecided > unverified > invalid, then higher accuracy, then tasks at
the learner's frontier, then input order); each is compared with the records kept so far only, so a removed
record always names a record that stays and is directly similar to it (no
chains A ~ B ~ C that remove C for resembling A). Task records (no τ) are
compared with task records only, trajectories with trajectories: a task and a
rollout of it look alike by design, and feed different sets (RL and SFT).
Records with neither text nor steps (both ``no_text`` and
``empty_trajectory``) are not compared: there is nothing to compare, and
selection leaves them out with their own reason.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from tqdm import tqdm

from curation.config import DedupConfig
from curation.diversity import Embedded
from curation.facts import RecordFacts
from curation.minhash import MinHashIndex
from curation.neighbors import nearest_neighbors
from curation.signatures import Signatures


@dataclass(frozen=True)
class Removal:
    removed: int  # positions in the facts list
    kept: int
    kind: str
    similarity: float
    threshold: float


class DuplicateIndex(Protocol):
    threshold: float

    def best_match(self, i: int) -> tuple[int, float] | None: ...

    def add(self, i: int) -> None: ...


class KeyIndex:
    """Exact and structural kinds: equal keys are duplicates (a None key matches nothing)."""

    threshold = 1.0

    def __init__(self, keys: list[str | None]):
        self.keys = keys
        self.kept: dict[str, int] = {}

    def best_match(self, i: int) -> tuple[int, float] | None:
        key = self.keys[i]
        j = self.kept.get(key) if key is not None else None
        return None if j is None else (j, 1.0)

    def add(self, i: int) -> None:
        if self.keys[i] is not None:
            self.kept.setdefault(self.keys[i], i)


class SemanticIndex:
    """Semantic kind: a record's candidates are the kept records with a text among its k nearest (at or above the
    threshold), and the kept records those neighbours' removed records were matched to; only when none matches and
    all k neighbours pass (there may be more than k) are all texts searched."""

    def __init__(self, facts: list[RecordFacts], signatures: Signatures, threshold: float, k: int, progress=False):
        self.threshold = threshold
        self.text = Embedded.of([f.text for f in facts], signatures.text)
        self.action = signatures.action
        self.acts = np.array([bool(f.action_text) for f in facts])
        self.neighbors = nearest_neighbors(self.text.vectors, k, progress=progress)
        self.kept_by_row: dict[int, list[int]] = defaultdict(list)
        self.matched_by_row: dict[int, set[int]] = defaultdict(set)  # row -> kept records its removals matched

    def best_match(self, i: int) -> tuple[int, float] | None:
        row = int(self.text.row[i])
        if row < 0:
            return None
        index, similarity = self.neighbors.index[row], self.neighbors.similarity[row]
        close = [row, *index[similarity >= self.threshold].tolist()]
        candidates = set().union(*(self.kept_by_row.get(r, ()) for r in close))
        candidates.update(*(self.matched_by_row.get(r, ()) for r in close))
        match = self._best_of(i, candidates)
        if match is None and len(similarity) and similarity[-1] >= self.threshold:
            rows = np.flatnonzero(self.text.vectors @ self.text.vectors[row] >= self.threshold)
            match = self._best_of(i, set().union(*(self.kept_by_row.get(int(r), ()) for r in rows)))
        if match is not None:
            self.matched_by_row[row].add(match[0])
        return match

    def _best_of(self, i: int, candidates: set[int]) -> tuple[int, float] | None:
        """The most similar candidate (the earliest on ties) when it reaches the threshold."""
        if not candidates:
            return None
        js = np.array(sorted(candidates), dtype=np.int64)
        text = _clip(self.text.vectors[self.text.row[js]] @ self.text.vectors[self.text.row[i]])
        both = self.acts[js] & self.acts[i]
        neither = ~self.acts[js] & ~self.acts[i]  # no actions on either side: the same (empty) signature
        action = np.where(both, _clip(self.action[js] @ self.action[i]), np.where(neither, 1.0, 0.0))
        similarity = np.minimum(text, action)
        best = int(np.argmax(similarity))
        return (int(js[best]), float(similarity[best])) if similarity[best] >= self.threshold else None

    def add(self, i: int) -> None:
        if self.text.row[i] >= 0:
            self.kept_by_row[int(self.text.row[i])].append(i)


def _clip(similarity: np.ndarray) -> np.ndarray:
    """Rounded to 6 places: float32 dot products of equal unit vectors land a hair below 1."""
    return np.minimum(1.0, np.round(similarity.astype(np.float64), 6))


def build_indexes(
    facts: list[RecordFacts], signatures: Signatures, cfg: DedupConfig, progress: bool = False
) -> dict[str, DuplicateIndex]:
    makers = {
        "exact": lambda: KeyIndex([f.content_hash for f in facts]),
        "structural": lambda: KeyIndex([f.structural_key for f in facts]),
        "minhash": lambda: MinHashIndex(signatures.minhash, cfg.minhash_threshold, cfg.num_perm),
        "semantic": lambda: SemanticIndex(facts, signatures, cfg.semantic_threshold, cfg.neighbors, progress),
    }
    return {kind: makers[kind]() for kind in cfg.kinds}


def keep_order(facts: list[RecordFacts]) -> list[int]:
    """Best record first: the one a duplicate group keeps."""

    def frontier(f: RecordFacts) -> bool:
        return f.pass_rate is not None and 0.0 < f.pass_rate < 1.0

    return sorted(
        range(len(facts)),
        key=lambda i: (-facts[i].accuracy.rank, -(facts[i].accuracy.value or 0.0), not frontier(facts[i]), i),
    )


def comparable(f: RecordFacts) -> bool:
    return not ("no_text" in f.missing and "empty_trajectory" in f.missing)


def _dedup_group(facts: list[RecordFacts], signatures: Signatures, cfg: DedupConfig, progress: bool) -> list[Removal]:
    indexes = build_indexes(facts, signatures, cfg, progress)
    removals: list[Removal] = []
    for i in tqdm(keep_order(facts), desc="dedup", unit=" records", disable=not progress):
        for kind, index in indexes.items():
            match = index.best_match(i)
            if match is not None:
                removals.append(Removal(i, match[0], kind, match[1], index.threshold))
                break
        else:
            for index in indexes.values():
                index.add(i)
    return removals


def find_duplicates(
    facts: list[RecordFacts], signatures: Signatures, cfg: DedupConfig, progress: bool = False
) -> list[Removal]:
    """Removals, with positions in ``facts``; tasks and trajectories are deduplicated apart."""
    removals: list[Removal] = []
    for is_task in (True, False):
        rows = [i for i, f in enumerate(facts) if f.is_task == is_task and comparable(f)]
        if not rows:
            continue
        group = Signatures(signatures.text[rows], signatures.action[rows], [signatures.minhash[i] for i in rows])
        for r in _dedup_group([facts[i] for i in rows], group, cfg, progress):
            removals.append(Removal(rows[r.removed], rows[r.kept], r.kind, r.similarity, r.threshold))
    return removals
