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
  applied to the audit table later without recomputing anything). The search
  is exact (curation/semantic_dedup.py).

Which record stays: records are visited best first (accuracy level passed >
failed > undecided > unverified > invalid, then higher accuracy, then tasks at
the learner's frontier, then input order); each is compared with the records kept so far only, so a removed
record always names a record that stays and is directly similar to it (no
chains A ~ B ~ C that remove C for resembling A). Only records of one group
(views.py ``dedup_group``) are compared: tasks with tasks of the same grounded
targets (gold-action arguments), trajectories with trajectories of the same
verdict (failures: of the same first reason). A task and a rollout of it look
alike by design and feed different sets; a failure is no duplicate of a success.
Records with neither text nor steps (both ``no_text`` and
``empty_trajectory``) are not compared: there is nothing to compare, and
selection leaves them out with their own reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from tqdm import tqdm

from curation.config import DedupConfig
from curation.facts import RecordFacts
from curation.minhash import MinHashIndex
from curation.semantic_dedup import SemanticIndex
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


# Index makers that replace the local ones (dedup_scaled.py: candidates found on a Ray cluster).
ScaledMakers = Callable[[list[RecordFacts], Signatures, list[int]], dict[str, Callable[[], DuplicateIndex]]]


def build_indexes(
    facts: list[RecordFacts],
    signatures: Signatures,
    cfg: DedupConfig,
    order: list[int],
    scaled: ScaledMakers | None = None,
) -> dict[str, DuplicateIndex]:
    makers = {
        "exact": lambda: KeyIndex([f.content_hash for f in facts]),
        "structural": lambda: KeyIndex([f.structural_key for f in facts]),
        "minhash": lambda: MinHashIndex(signatures.minhash, cfg.minhash_threshold, cfg.num_perm),
        "semantic": lambda: SemanticIndex(facts, signatures, cfg.semantic_threshold, order),
    }
    if scaled is not None:
        makers.update(scaled(facts, signatures, order))
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


def _dedup_group(
    facts: list[RecordFacts], signatures: Signatures, cfg: DedupConfig, progress: bool, scaled: ScaledMakers | None
) -> list[Removal]:
    order = keep_order(facts)
    indexes = build_indexes(facts, signatures, cfg, order, scaled)
    removals: list[Removal] = []
    for i in tqdm(order, desc="dedup", unit=" records", disable=not progress):
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
    facts: list[RecordFacts],
    signatures: Signatures,
    cfg: DedupConfig,
    progress: bool = False,
    scaled: ScaledMakers | None = None,
) -> list[Removal]:
    """Removals, with positions in ``facts``; each dedup group (views.dedup_group) is deduplicated apart.

    ``scaled`` replaces the minhash and semantic indexes by ones whose candidates were found on a cluster."""
    groups: dict[str, list[int]] = {}
    for i, f in enumerate(facts):
        if comparable(f):
            groups.setdefault(f.dedup_group, []).append(i)
    removals: list[Removal] = []
    for rows in groups.values():
        if len(rows) < 2:  # alone in its group: a duplicate of nothing (most tasks, each on its own rows)
            continue
        group = Signatures(signatures.text[rows], signatures.action[rows], [signatures.minhash[i] for i in rows])
        for r in _dedup_group([facts[i] for i in rows], group, cfg, progress, scaled):
            removals.append(Removal(rows[r.removed], rows[r.kept], r.kind, r.similarity, r.threshold))
    return removals
