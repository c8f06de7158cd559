"""Signatures kept beside a stage's output, so a later stage (or a rerun at another threshold) need not recompute them.

``<output stem>.signatures.parquet`` holds, per record: its id and content
hash (curation/views.py), the unit embeddings of its task text and of its
action signature, and its MinHash (once dedup computed it). A later stage
takes a row only when both the id and the content hash match the record it
reads; anything else is computed afresh. Embeddings are float32, exactly as
computed, so a threshold gives the same decisions from the cache as from a
fresh run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from curation.embedder import DIMENSION, EMBEDDER_NAME, encode_distinct
from curation.facts import RecordFacts
from runtime.executor import Executor
from schemas.io import atomic_output

SIGNATURES = "signatures"


def sidecar(path: Path, kind: str) -> Path:
    """``scored.parquet`` -> ``scored.<kind>.parquet``: a table that belongs to a records file."""
    return path.with_name(f"{path.stem}.{kind}.parquet")


@dataclass
class Signatures:
    """Per record, in the order of ``facts``: text and action vectors (zero rows when absent), MinHash values."""

    text: np.ndarray
    action: np.ndarray
    minhash: list[np.ndarray | None]


def _vector_type() -> pa.DataType:
    return pa.list_(pa.float32(), DIMENSION)


def write_signatures(path: Path, facts: list[RecordFacts], signatures: Signatures) -> Path:
    minhash = [None if values is None else values.astype(np.uint32) for values in signatures.minhash]
    table = pa.table(
        {
            "id": pa.array([f.id for f in facts], pa.string()),
            "content_hash": pa.array([f.content_hash for f in facts], pa.string()),
            "text_embedding": pa.FixedSizeListArray.from_arrays(
                pa.array(signatures.text.reshape(-1), pa.float32()), DIMENSION
            ),
            "action_embedding": pa.FixedSizeListArray.from_arrays(
                pa.array(signatures.action.reshape(-1), pa.float32()), DIMENSION
            ),
            "minhash": pa.array(minhash, pa.list_(pa.uint32())),
        }
    ).replace_schema_metadata({"embedder": EMBEDDER_NAME})
    with atomic_output(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return path


def read_signatures(path: Path | None, facts: list[RecordFacts]) -> tuple[Signatures, np.ndarray]:
    """Signatures of ``facts`` found in ``path``, and a mask of the records found (the rest are zero / None)."""
    n = len(facts)
    found = np.zeros(n, dtype=bool)
    signatures = Signatures(np.zeros((n, DIMENSION), np.float32), np.zeros((n, DIMENSION), np.float32), [None] * n)
    if path is None or not path.is_file():
        return signatures, found
    table = pq.read_table(path)
    if (table.schema.metadata or {}).get(b"embedder", b"").decode() != EMBEDDER_NAME:
        return signatures, found
    stored = {(i, h): row for row, (i, h) in enumerate(zip(table["id"].to_pylist(), table["content_hash"].to_pylist()))}
    rows = np.array([stored.get((f.id, f.content_hash), -1) for f in facts], dtype=np.int64)
    found = rows >= 0
    if found.any():
        take = pa.array(rows[found])
        text = table["text_embedding"].take(take).combine_chunks().flatten().to_numpy()
        action = table["action_embedding"].take(take).combine_chunks().flatten().to_numpy()
        signatures.text[found] = text.reshape(-1, DIMENSION)
        signatures.action[found] = action.reshape(-1, DIMENSION)
        minhash = table["minhash"].take(take).to_pylist()
        for i, values in zip(np.flatnonzero(found), minhash):
            signatures.minhash[i] = None if values is None else np.asarray(values, dtype=np.uint32)
    return signatures, found


def embeddings_for(
    facts: list[RecordFacts], cache: Path | None = None, progress: bool = False, executor: Executor | None = None
) -> Signatures:
    """Text and action embeddings of every record: from ``cache`` where it holds the record, else encoded now
    (on a Ray cluster's actors when ``executor`` is a Ray one)."""
    signatures, found = read_signatures(cache, facts)
    missing = np.flatnonzero(~found)
    if not len(missing):
        return signatures
    texts = [facts[i].text for i in missing]
    actions = [facts[i].action_text for i in missing]
    if executor is not None and executor.remote:  # one actor pool for both kinds: each actor loads the model once
        distinct, index = encode_distinct(texts + actions, progress=progress, executor=executor)
        signatures.text[missing] = distinct[index[: len(missing)]]
        signatures.action[missing] = distinct[index[len(missing) :]]
        return signatures
    for vectors, these in ((signatures.text, texts), (signatures.action, actions)):
        distinct, index = encode_distinct(these, progress=progress)
        vectors[missing] = distinct[index]
    return signatures
