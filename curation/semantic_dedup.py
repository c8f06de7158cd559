"""The semantic dedup kind: each record against every record kept before it, exactly, a block at a time.

Dedup visits records best first and compares each with the records kept so
far only (curation/dedup.py). So the semantic kind needs no neighbour lists:
a block of records, in visiting order, is multiplied once with the unit
text vectors of every record kept before the block (one matrix product), and
with itself for the records kept inside the block as it goes. A candidate is
a kept record whose text similarity reaches the threshold; the match is the
candidate with the highest ``min(text similarity, action similarity)`` (the
earliest kept on ties), if that reaches the threshold too.

The search is exact (nothing is missed, whatever the density of duplicates),
and its cost is (records x records kept) rather than records^2: the more
duplicates, the cheaper. Similarities are rounded to 6 places, so equal
vectors compare as 1 and decisions do not flip on float noise.
"""

from __future__ import annotations

import numpy as np

from curation.facts import RecordFacts
from curation.signatures import Signatures

BLOCK = 256  # records per product: memory ~ BLOCK x kept x 4 bytes


def clip(similarity: np.ndarray) -> np.ndarray:
    return np.minimum(1.0, np.round(np.asarray(similarity, dtype=np.float64), 6))


def best_of(
    i: int, js: np.ndarray, text: np.ndarray, acts: np.ndarray, action: np.ndarray, threshold: float
) -> tuple[int, float] | None:
    """Among candidates ``js`` (kept order) with their text similarities, the one with the highest
    min(text, action) similarity, if that reaches ``threshold``."""
    if not len(js):
        return None
    both = acts[js] & acts[i]
    neither = ~acts[js] & ~acts[i]  # no actions on either side: the same (empty) signature
    similarity_of_actions = np.where(both, clip(action[js] @ action[i]), np.where(neither, 1.0, 0.0))
    similarity = np.minimum(text, similarity_of_actions)
    best = int(np.argmax(similarity))  # the earliest kept among equals
    return (int(js[best]), float(similarity[best])) if similarity[best] >= threshold else None


class SemanticIndex:
    def __init__(self, facts: list[RecordFacts], signatures: Signatures, threshold: float, order: list[int]):
        import torch

        self.threshold = threshold
        self.text = torch.from_numpy(np.ascontiguousarray(signatures.text, dtype=np.float32))
        self.action = signatures.action
        self.has_text = np.array([bool(f.text) for f in facts])
        self.acts = np.array([bool(f.action_text) for f in facts])
        self.order = order
        self.position = {i: p for p, i in enumerate(order)}
        self.kept = np.zeros(len(facts), dtype=np.int64)  # records kept, in the order kept
        self.kept_position = np.zeros(len(facts), dtype=np.int64)  # their visiting positions
        self.kept_vectors = torch.zeros((len(facts), self.text.shape[1]))
        self.count = 0
        self.start, self.stop = 0, 0  # the block now loaded: visiting positions [start, stop)

    def _load(self, position: int) -> None:
        import torch

        self.start = position - position % BLOCK
        self.stop = min(self.start + BLOCK, len(self.order))
        rows = torch.from_numpy(np.asarray(self.order[self.start : self.stop], dtype=np.int64))
        block = self.text[rows]
        with torch.inference_mode():
            self.before = (block @ self.kept_vectors[: self.count].T).numpy()  # vs records kept before the block
            self.inside = (block @ block.T).numpy()
        self.kept_before = self.count

    def best_match(self, i: int) -> tuple[int, float] | None:
        if not self.has_text[i]:
            return None
        position = self.position[i]
        if not self.start <= position < self.stop:
            self._load(position)
        local = position - self.start
        earlier = np.flatnonzero(self.before[local] >= self.threshold)
        js = [self.kept[earlier]]
        text = [self.before[local, earlier]]
        recent = self.kept[self.kept_before : self.count]  # kept inside this block, before i
        if len(recent):
            inside = self.inside[local, self.kept_position[self.kept_before : self.count] - self.start]
            js.append(recent[inside >= self.threshold])
            text.append(inside[inside >= self.threshold])
        return best_of(i, np.concatenate(js), clip(np.concatenate(text)), self.acts, self.action, self.threshold)

    def add(self, i: int) -> None:
        if self.has_text[i]:
            self.kept[self.count] = i
            self.kept_position[self.count] = self.position[i]
            self.kept_vectors[self.count] = self.text[i]
            self.count += 1
