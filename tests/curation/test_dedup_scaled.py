"""The semantic candidates of dedup on a cluster: each record's first earlier partners, in bounded memory."""

from __future__ import annotations

import numpy as np

from curation.dedup_scaled import PARTNERS, ROWS_PER_BLOCK, earlier_partners


def unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_in_a_dense_cluster_each_record_keeps_its_first_earlier_partners_across_blocks():
    rng = np.random.default_rng(0)
    base = rng.normal(size=384)
    vectors = unit(base + 0.01 * rng.normal(size=(ROWS_PER_BLOCK * 2 + 100, 384)))  # near-twins, three blocks
    rows = rng.permutation(len(vectors))  # the cluster in keep order
    record, partner, similarity = earlier_partners(vectors, rows, 0.95)
    assert len(record) == sum(min(p, PARTNERS) for p in range(len(rows)))  # not all pairs: at most PARTNERS each
    position = {row: p for p, row in enumerate(rows)}
    by_record: dict[int, list[int]] = {}
    for i, j in zip(record.tolist(), partner.tolist()):
        by_record.setdefault(i, []).append(position[j])
    assert all(found == list(range(min(position[i], PARTNERS))) for i, found in by_record.items())
    assert rows[0] not in by_record and (similarity >= 0.95).all()


def test_below_the_threshold_nobody_is_a_partner_and_small_clusters_give_every_earlier_pair():
    rng = np.random.default_rng(1)
    vectors = unit(rng.normal(size=(40, 384)))  # random directions: similarities near 0
    vectors[7] = vectors[3]  # one exact twin, later in keep order
    vectors[20] = unit(vectors[3:4] + 0.02 * rng.normal(size=(1, 384)))[0]
    rows = np.arange(40)
    record, partner, _ = earlier_partners(vectors, rows, 0.9)
    assert sorted(zip(record.tolist(), partner.tolist())) == [(7, 3), (20, 3), (20, 7)]
