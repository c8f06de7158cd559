"""Dedup candidates found in parallel, for a cluster: MinHash LSH by band shuffle, semantic pairs within clusters.

The dedup visit itself (curation/dedup.py: best record first, each compared
with the records kept so far) stays one pass on the driver; what is spread
over the cluster is finding who to compare with:

- **minhash**: each record's MinHash is cut into the b bands of r values that
  datasketch's LSH uses for the threshold; (band, values) is hashed to one
  64-bit key, and a shuffle by key (the Ray executor's ``grouped``) gives the buckets of
  two or more records. Records that share a bucket are exactly the candidates
  the local MinHashLSH returns, so the matches are the same.
- **semantic**: the text vectors are clustered (spherical k-means on a seeded
  sample, about ``cluster_size`` records per cluster), every record joins its
  two nearest clusters, and within each cluster every record's similarities
  to the records before it in keep order are computed exactly (SemDeDup-style),
  a block of rows at a time. The visit only ever matches a record with a kept
  record that came before it, and the earliest similar ones are the likeliest
  kept, so each record keeps its first ``PARTNERS`` earlier partners at or
  above the threshold: memory is a block by a cluster, and the pairs at most
  ``PARTNERS`` per record, however dense the duplicates (on 100k templated
  records, the all-pairs task of one dense cluster took 18.7 GB). A pair split by the clustering,
  or a record whose first partners were all removed, is missed: the agreement
  with the exact local search is measured (tests, bench/scale.py), not assumed.

The work functions (``band_keys``, ``nearest_clusters``, ``earlier_partners``)
are plain numpy, run by the executor's Ray tasks here and callable anywhere.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import numpy as np
import pyarrow as pa

from curation.config import DedupConfig
from curation.facts import RecordFacts
from curation.minhash import best_jaccard
from curation.semantic_dedup import best_of, clip
from curation.signatures import Signatures
from runtime.executor import RayExecutor

PROBES = 2  # clusters each record joins: a near pair on a cluster boundary still meets in one
KMEANS_ITERATIONS = 10
ROWS_PER_TASK = 4096
ROWS_PER_BLOCK = 512  # rows compared with their cluster at once: 280 MB of similarities against 68k rows
PARTNERS = 32  # earlier similar records kept per record and cluster
KEYS_PER_PARTITION = 500_000  # records per shuffle partition (x bands x 16 bytes: ~70 MB at 9 bands)
_MIX = np.uint64(0x9E3779B97F4A7C15)


def band_params(threshold: float, num_perm: int) -> tuple[int, int]:
    """(bands, rows per band) of datasketch's MinHashLSH for this threshold: the same candidates as local."""
    from datasketch import MinHashLSH

    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    return lsh.b, lsh.r


def band_keys(bands: tuple[int, int], block: tuple[np.ndarray, np.ndarray]) -> dict[str, np.ndarray]:
    """One 64-bit key per (record, band) of a block (rows, MinHash values [n, num_perm] uint32)."""
    b, r = bands
    rows, values = block
    keys = np.empty((len(rows), b), dtype=np.uint64)
    with np.errstate(over="ignore"):  # the mixing wraps modulo 2^64 on purpose
        for band in range(b):
            key = np.full(len(rows), np.uint64(band + 1) * _MIX, dtype=np.uint64)
            for column in values[:, band * r : (band + 1) * r].T.astype(np.uint64):
                key = (key ^ column) * _MIX
                key ^= key >> np.uint64(29)
            keys[:, band] = key
    return {"key": keys.reshape(-1), "row": np.repeat(rows, b)}


def lsh_buckets(
    executor: RayExecutor, values: list[np.ndarray | None], threshold: float, num_perm: int
) -> list[np.ndarray]:
    """Buckets (arrays of record positions) of two or more records, by a shuffle on the band keys."""
    present = np.array([i for i, v in enumerate(values) if v is not None], dtype=np.int64)
    if len(present) < 2:
        return []
    blocks = [
        (present[s : s + ROWS_PER_TASK], np.stack([values[i] for i in present[s : s + ROWS_PER_TASK]]))
        for s in range(0, len(present), ROWS_PER_TASK)
    ]
    keyed = executor.map(band_keys, band_params(threshold, num_perm), blocks)
    partitions = len(present) // KEYS_PER_PARTITION
    buckets = executor.grouped((pa.table(k) for k in keyed), "key", "row", partitions)
    return [np.asarray(rows, dtype=np.int64) for rows in buckets]


class BucketIndex:
    """The minhash kind over precomputed LSH buckets: the candidates of record i are the kept members of its buckets."""

    def __init__(self, values: list[np.ndarray | None], buckets: list[np.ndarray], threshold: float):
        self.values, self.threshold = values, threshold
        self.buckets_of: dict[int, list[int]] = defaultdict(list)
        for number, members in enumerate(buckets):
            for i in members:
                self.buckets_of[int(i)].append(number)
        self.kept_in: dict[int, list[int]] = defaultdict(list)

    def best_match(self, i: int) -> tuple[int, float] | None:
        if self.values[i] is None:
            return None
        candidates = {j for bucket in self.buckets_of.get(i, ()) for j in self.kept_in[bucket]}
        return best_jaccard(self.values, i, sorted(candidates), self.threshold)

    def add(self, i: int) -> None:
        for bucket in self.buckets_of.get(i, ()):
            self.kept_in[bucket].append(i)


def kmeans(vectors: np.ndarray, clusters: int, seed: int) -> np.ndarray:
    """Unit centroids of spherical k-means on a seeded sample of at most 64 points per cluster."""
    rng = np.random.default_rng(seed)
    sample = vectors[rng.choice(len(vectors), min(len(vectors), 64 * clusters), replace=False)]
    centroids = sample[rng.choice(len(sample), clusters, replace=False)]
    for _ in range(KMEANS_ITERATIONS):
        label = np.argmax(sample @ centroids.T, axis=1)
        for c in range(clusters):
            members = sample[label == c]
            if len(members):
                mean = members.sum(axis=0)
                centroids[c] = mean / max(np.linalg.norm(mean), 1e-12)
    return centroids


def nearest_clusters(centroids: np.ndarray, block: np.ndarray) -> np.ndarray:
    """The PROBES nearest centroids of each vector of a block, [n, PROBES]."""
    similarity = block @ centroids.T
    return np.argsort(-similarity, axis=1, kind="stable")[:, :PROBES]


def earlier_partners(
    vectors: np.ndarray, rows: np.ndarray, threshold: float, partners: int = PARTNERS
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(record, partner, similarity) for each of ``rows`` (a cluster, in keep order) and its first ``partners``
    earlier rows whose text similarity (rounded as locally) reaches ``threshold``."""
    members = vectors[rows]
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for start in range(1, len(rows), ROWS_PER_BLOCK):  # the first row has nobody before it
        end = min(start + ROWS_PER_BLOCK, len(rows))
        similarity = clip(members[start:end] @ members[:end].T)
        hits = (similarity >= threshold) & (np.arange(end)[None, :] < np.arange(start, end)[:, None])
        for r in np.flatnonzero(hits.any(axis=1)):
            columns = np.flatnonzero(hits[r])[:partners]
            found.append((np.full(len(columns), rows[start + r]), rows[columns], similarity[r, columns]))
    if not found:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0)
    return tuple(np.concatenate(parts) for parts in zip(*found))


def _partners_task(shared: tuple[np.ndarray, float], rows: np.ndarray):
    vectors, threshold = shared
    return earlier_partners(vectors, rows, threshold)


def semantic_pairs(
    executor: RayExecutor, vectors: np.ndarray, order: list[int], threshold: float, cluster_size: int, seed: int
) -> dict[int, dict]:
    """record -> {earlier record (in ``order``, the visit's): text similarity} for the partners found within
    clusters."""
    n = len(vectors)
    clusters = max(1, min(n, -(-n // cluster_size)))
    pairs: dict[int, dict] = defaultdict(dict)
    if n < 2:
        return pairs
    position = np.empty(n, dtype=np.int64)
    position[np.asarray(order, dtype=np.int64)] = np.arange(n)
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    if clusters == 1:
        groups = [np.arange(n)]
    else:
        centroids = kmeans(vectors, clusters, seed)
        blocks = [vectors[s : s + ROWS_PER_TASK] for s in range(0, n, ROWS_PER_TASK)]
        labels = np.concatenate(list(executor.map(nearest_clusters, centroids, blocks)))
        groups = [np.flatnonzero((labels == c).any(axis=1)) for c in range(clusters)]
    in_order = [g[np.argsort(position[g], kind="stable")] for g in groups if len(g) > 1]
    for a, b, similarity in executor.map(_partners_task, (vectors, threshold), in_order):
        for i, j, s in zip(a.tolist(), b.tolist(), similarity.tolist()):
            pairs[i][j] = s
    return pairs


class PairIndex:
    """The semantic kind over precomputed candidate pairs: the match of record i among its kept partners."""

    def __init__(self, facts: list[RecordFacts], signatures: Signatures, pairs: dict[int, dict], threshold: float):
        self.pairs, self.threshold = pairs, threshold
        self.action = signatures.action
        self.acts = np.array([bool(f.action_text) for f in facts])
        self.kept_rank: dict[int, int] = {}

    def best_match(self, i: int) -> tuple[int, float] | None:
        kept = sorted((self.kept_rank[j], j) for j in self.pairs.get(i, {}) if j in self.kept_rank)
        js = np.array([j for _, j in kept], dtype=np.int64)
        text = np.array([self.pairs[i][j] for j in js], dtype=np.float64)
        return best_of(i, js, text, self.acts, self.action, self.threshold)

    def add(self, i: int) -> None:
        self.kept_rank[i] = len(self.kept_rank)


def scaled_makers(
    executor: RayExecutor, cfg: DedupConfig
) -> Callable[[list[RecordFacts], Signatures, list[int]], dict[str, Callable]]:
    """Index makers for curation/dedup.py that find minhash and semantic candidates on the cluster."""

    def makers(facts: list[RecordFacts], signatures: Signatures, order: list[int]) -> dict[str, Callable]:
        return {
            "minhash": lambda: BucketIndex(
                signatures.minhash,
                lsh_buckets(executor, signatures.minhash, cfg.minhash_threshold, cfg.num_perm),
                cfg.minhash_threshold,
            ),
            "semantic": lambda: PairIndex(
                facts,
                signatures,
                semantic_pairs(executor, signatures.text, order, cfg.semantic_threshold, cfg.semantic_cluster_size, 0),
                cfg.semantic_threshold,
            ),
        }

    return makers
