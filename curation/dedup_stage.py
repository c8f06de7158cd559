"""``dedup``: write the records that stay, and an audit table naming, for each removed record, its kept twin.

Outputs, for ``-o deduped.parquet``:

- ``deduped.parquet``: the records that stay, in input order;
- ``deduped.dedup.parquet``: one row per removed record: ``removed_id``,
  ``kept_id``, ``kind``, ``similarity``, ``threshold``, and the two task texts
  (excerpts) so a person can judge the pair at a glance;
- ``deduped.signatures.parquet``: content hashes, embeddings and MinHashes of
  every input record, so a rerun at other thresholds (``--signatures``)
  recomputes nothing.

Counts add up: input records = kept + removed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np
import polars as pl

from curation.config import DedupConfig
from curation.dedup import Removal, find_duplicates
from curation.dedup_scaled import scaled_makers
from curation.facts import RecordFacts, iter_records, read_facts
from curation.minhash import minhash_batch
from curation.signatures import SIGNATURES, Signatures, embeddings_for, sidecar, write_signatures
from curation.views import record_text
from runtime.executor import Executor
from schemas.io import atomic_output, write_records

DEDUP = "dedup"
EXCERPT = 200
MINHASH_BATCH = 4096  # texts per Ray task
AUDIT_SCHEMA = {
    "removed_id": pl.String,
    "kept_id": pl.String,
    "kind": pl.String,
    "similarity": pl.Float64,
    "threshold": pl.Float64,
    "removed_text": pl.String,
    "kept_text": pl.String,
}


@dataclass
class DedupResult:
    output: Path
    audit_path: Path
    signatures_path: Path
    records: int
    kept: int
    removed: Counter

    def summary(self) -> dict:
        return {
            "records": self.records,
            "kept": self.kept,
            "removed": sum(self.removed.values()),
            "removed_by_kind": dict(self.removed.most_common()),
            "output": str(self.output),
            "audit": str(self.audit_path),
        }


def fill_minhashes(
    input: Path, signatures: Signatures, num_perm: int, progress: bool = False, executor: Executor | None = None
) -> None:
    """MinHashes for the records the cache did not hold (or held with another number of permutations),
    computed by ``executor`` (default: this process) a batch at a time."""
    stale = [i for i, values in enumerate(signatures.minhash) if values is None or len(values) != num_perm]
    if not stale:
        return
    wanted = set(stale)
    texts = (record_text(r) for i, r in enumerate(iter_records(input, progress, "minhash")) if i in wanted)
    batches = iter(lambda: list(islice(texts, MINHASH_BATCH)), [])
    executor = executor or Executor()
    hashed = (values for batch in executor.map(minhash_batch, num_perm, batches) for values in batch)
    for i, values in zip(stale, hashed):
        signatures.minhash[i] = values


def audit_table(facts: list[RecordFacts], removals: list[Removal]) -> pl.DataFrame:
    rows = [
        {
            "removed_id": facts[r.removed].id,
            "kept_id": facts[r.kept].id,
            "kind": r.kind,
            "similarity": round(r.similarity, 6),
            "threshold": r.threshold,
            "removed_text": facts[r.removed].text[:EXCERPT],
            "kept_text": facts[r.kept].text[:EXCERPT],
        }
        for r in sorted(removals, key=lambda r: r.removed)
    ]
    return pl.DataFrame(rows, schema=AUDIT_SCHEMA)


def run_dedup(
    input: Path,
    output: Path,
    cfg: DedupConfig,
    signatures_path: Path | None = None,
    progress: bool = False,
    executor: Executor | None = None,
) -> DedupResult:
    """``executor`` (default: this process) computes the embeddings and MinHashes; a Ray one finds the
    minhash and semantic candidates on its cluster too (dedup_scaled.py)."""
    executor = executor or Executor()
    facts = read_facts(input, progress)
    signatures = embeddings_for(facts, signatures_path or sidecar(input, SIGNATURES), progress, executor)
    if "minhash" in cfg.kinds:
        fill_minhashes(input, signatures, cfg.num_perm, progress, executor)
    scaled = scaled_makers(executor, cfg) if executor.remote else None
    removals = find_duplicates(facts, signatures, cfg, progress, scaled)
    removed = np.zeros(len(facts), dtype=bool)
    removed[np.array([r.removed for r in removals], dtype=np.int64)] = True
    records = iter_records(input, progress, "writing kept records")
    kept = write_records((record for i, record in enumerate(records) if not removed[i]), output)
    audit_path = sidecar(output, DEDUP)
    with atomic_output(audit_path) as tmp:
        audit_table(facts, removals).write_parquet(tmp)
    written = write_signatures(sidecar(output, SIGNATURES), facts, signatures)
    return DedupResult(output, audit_path, written, len(facts), kept, Counter(r.kind for r in removals))
