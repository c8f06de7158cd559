"""MinHash signatures of a record's whole text (datasketch), for near-duplicate text detection.

Shingles are word 3-grams of the normalized text (curation/views.py); a text of
fewer than three words is one shingle, and an empty text has no signature
(two empty texts are not "the same text"). The Jaccard similarity of two
shingle sets is estimated from ``num_perm`` permutations; MinHash LSH finds
the candidate pairs above a threshold without comparing every pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
from datasketch import MinHash, MinHashLSH

from curation.views import normalize_text

SHINGLE_WORDS = 3
# datasketch's 32-bit affine hashing; rebuilding a MinHash from stored values must name it.
SCHEME = "affine32"
BULK = 512


def shingles(text: str) -> set[bytes]:
    words = normalize_text(text).split()
    if len(words) < SHINGLE_WORDS:
        return {" ".join(words).encode()} if words else set()
    return {" ".join(words[i : i + SHINGLE_WORDS]).encode() for i in range(len(words) - SHINGLE_WORDS + 1)}


def minhash_values(texts: Iterable[str], num_perm: int) -> Iterator[np.ndarray | None]:
    """The MinHash hash values of each text (None for a text with no words), computed in bulk batches."""
    batch: list[set[bytes]] = []

    def flush() -> Iterator[np.ndarray | None]:
        nonempty = [s for s in batch if s]
        hashed = iter(MinHash.bulk(nonempty, num_perm=num_perm, scheme=SCHEME) if nonempty else [])
        for s in batch:
            yield next(hashed).hashvalues.astype(np.uint32) if s else None

    for text in texts:
        batch.append(shingles(text))
        if len(batch) >= BULK:
            yield from flush()
            batch = []
    yield from flush()


def minhash_batch(num_perm: int, texts: list[str]) -> list[np.ndarray | None]:
    """``minhash_values`` of one batch, as a list (the unit of work of a Ray task)."""
    return list(minhash_values(texts, num_perm))


def best_jaccard(
    values: list[np.ndarray | None], i: int, candidates: list[int], threshold: float
) -> tuple[int, float] | None:
    """The candidate with the highest estimated Jaccard similarity to i at or above ``threshold``; candidates come
    sorted, so ties go to the earliest kept record."""
    best: tuple[int, float] | None = None
    for j in candidates:
        similarity = float(np.mean(values[i] == values[j]))
        if similarity >= threshold and (best is None or similarity > best[1]):
            best = (j, similarity)
    return best


class MinHashIndex:
    """Kept records' MinHashes in an LSH index; ``best_match`` re-checks each candidate's estimated Jaccard."""

    def __init__(self, values: list[np.ndarray | None], threshold: float, num_perm: int):
        self.values = values
        self.threshold = threshold
        self.num_perm = num_perm
        self.lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)

    def _minhash(self, i: int) -> MinHash:
        return MinHash(num_perm=self.num_perm, hashvalues=self.values[i], scheme=SCHEME)

    def best_match(self, i: int) -> tuple[int, float] | None:
        if self.values[i] is None:
            return None
        return best_jaccard(self.values, i, sorted(self.lsh.query(self._minhash(i))), self.threshold)

    def add(self, i: int) -> None:
        if self.values[i] is not None:
            self.lsh.insert(i, self._minhash(i), check_duplication=False)
