"""Curation at scale: dedup + diversity scoring at 10k and 100k records, and the same semantic dedup by semhash.

Run: python bench/curation.py [--sizes 10000,100000] [--threshold 0.9] [--dir /tmp/bench_curation]

For each size, in fresh processes (so each peak RSS is its own):

1. **pipeline**: ``run_score`` (facts, MiniLM embeddings of task texts and action
   signatures, exact nearest-neighbour novelty, clusters) then ``run_dedup``
   (exact, structural, MinHash LSH, semantic; the embeddings come from the score
   stage's signatures) on records from bench/curation_data.py: seconds per stage,
   records/s, peak RSS.
2. **same work, ours**: semantic dedup of the task texts alone (exact text, then
   cosine >= threshold, greedy in input order) with curation's exact blockwise
   comparison against the records kept so far (curation/semantic_dedup.py),
   from the embeddings the pipeline stored.
3. **same work, semhash** (PyPI ``semhash``): ``SemHash.from_embeddings`` with the
   same vectors and the same MiniLM encoder object, then ``self_deduplicate(threshold)``
   (its default usearch ANN index).

Both (2) and (3) start from the same stored embeddings, so the time ratio
compares the dedup itself; the encoding is the same work for both (same model,
same texts, same batch size). At ``--end-to-end-size`` (default 10k) both also
run end to end, each encoding the texts itself (semhash: ``from_records``).
Agreement: pairs (removed, kept) found by both / found by either, the same for
the sets of removed records, and, where both remove a record but name different
twins, how often curation's twin is at least as similar in text (curation picks
the twin by min(text, action) similarity, so it need not be).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

# This file is named curation.py: drop its folder from the path so `import curation` is the package.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_input(size: int, folder: Path) -> Path:
    from bench.curation_data import bench_records
    from schemas.io import write_records

    path = folder / f"bench_{size}.parquet"
    if not path.exists():
        write_records(bench_records(size), path)
    return path


def child_pipeline(size: int, folder: Path) -> dict:
    from curation.config import DedupConfig, ScoreConfig
    from curation.dedup_stage import run_dedup
    from curation.score_stage import run_score

    source = make_input(size, folder)
    scored, deduped = folder / f"scored_{size}.parquet", folder / f"deduped_{size}.parquet"
    for stale in folder.glob(f"scored_{size}.*"):
        stale.unlink()
    start = time.perf_counter()
    score = run_score(source, scored, ScoreConfig())
    score_s = time.perf_counter() - start
    start = time.perf_counter()
    dedup = run_dedup(scored, deduped, DedupConfig(semantic_threshold=ARGS.threshold))
    dedup_s = time.perf_counter() - start
    return {
        "records": size,
        "score_s": round(score_s, 1),
        "dedup_s": round(dedup_s, 1),
        "records_per_s": round(size / (score_s + dedup_s), 1),
        "removed": dedup.summary()["removed_by_kind"],
        "diversity_mean": round(float(score.table["diversity"].drop_nulls().mean()), 4),
        "peak_rss_mb": round(peak_rss_mb()),
    }


def stored_text_embeddings(size: int, folder: Path):
    import pyarrow.parquet as pq

    from curation.embedder import DIMENSION

    table = pq.read_table(folder / f"scored_{size}.signatures.parquet", columns=["id", "text_embedding"])
    vectors = table["text_embedding"].combine_chunks().flatten().to_numpy().reshape(-1, DIMENSION)
    texts = [r.task.instruction for r in _records(size, folder)]
    return table["id"].to_pylist(), texts, vectors


def _records(size: int, folder: Path):
    from schemas.io import read_records

    return read_records(folder / f"bench_{size}.parquet")


def child_ours(size: int, folder: Path, end_to_end: bool) -> dict:
    import numpy as np
    import torch  # noqa: F401  imported before the clock starts, as semhash's modules are

    from curation.config import DedupConfig
    from curation.dedup import find_duplicates
    from curation.embedder import encode_distinct, load_embedder
    from curation.facts import facts_of
    from curation.signatures import Signatures
    from schemas.record import AgentRecord, Source, Task

    ids, texts, vectors = stored_text_embeddings(size, folder)
    load_embedder()
    start = time.perf_counter()
    if end_to_end:  # encode the texts again, as semhash's from_records does
        distinct, index = encode_distinct(texts)
        vectors = distinct[index]
    facts = [
        facts_of(AgentRecord(id=i, task=Task(instruction=t), source=Source(dataset="b", format="b")))
        for i, t in zip(ids, texts)
    ]
    signatures = Signatures(vectors, np.zeros_like(vectors), [None] * len(ids))
    removals = find_duplicates(
        facts, signatures, DedupConfig(kinds=["exact", "semantic"], semantic_threshold=ARGS.threshold)
    )
    seconds = time.perf_counter() - start
    pairs = sorted((ids[r.removed], ids[r.kept]) for r in removals)
    (folder / f"ours_pairs_{size}{'_e2e' if end_to_end else ''}.json").write_text(json.dumps(pairs))
    return {"seconds": round(seconds, 1), "removed": len(pairs), "peak_rss_mb": round(peak_rss_mb())}


def child_semhash(size: int, folder: Path, end_to_end: bool) -> dict:
    from semhash import SemHash

    from curation.embedder import load_embedder

    ids, texts, vectors = stored_text_embeddings(size, folder)
    model = BatchedEncoder(load_embedder())
    records = [{"id": i, "text": t} for i, t in zip(ids, texts)]
    start = time.perf_counter()
    if end_to_end:
        semhash = SemHash.from_records(records, columns=["text"], model=model)
    else:
        semhash = SemHash.from_embeddings(vectors, records, model=model, columns=["text"])
    result = semhash.self_deduplicate(threshold=ARGS.threshold)
    seconds = time.perf_counter() - start
    pairs = sorted((d.record["id"], d.duplicate_of["id"]) for d in result.filtered)
    suffix = "_e2e" if end_to_end else ""
    (folder / f"semhash_pairs_{size}{suffix}.json").write_text(json.dumps(pairs))
    return {"seconds": round(seconds, 1), "removed": len(pairs), "peak_rss_mb": round(peak_rss_mb())}


class BatchedEncoder:
    """The curation embedder as semhash's Encoder, at curation's batch size (same model, same batches)."""

    def __init__(self, model):
        self.model = model

    def encode(self, inputs, **kwargs):
        from curation.embedder import BATCH_SIZE

        return self.model.encode(list(inputs), batch_size=BATCH_SIZE, convert_to_numpy=True, normalize_embeddings=True)


def run_child(kind: str, size: int, folder: Path) -> dict:
    command = [sys.executable, __file__, "--child", kind, "--size", str(size), "--dir", str(folder)]
    command += ["--threshold", str(ARGS.threshold)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def agreement(folder: Path, size: int, suffix: str = "") -> dict:
    """Jaccard of the (removed, kept) pairs and of the removed records; for removed records whose named twin
    differs, how often curation's twin is at least as similar as semhash's (both are above the threshold)."""
    import numpy as np

    ours = {tuple(p) for p in json.loads((folder / f"ours_pairs_{size}{suffix}.json").read_text())}
    theirs = {tuple(p) for p in json.loads((folder / f"semhash_pairs_{size}{suffix}.json").read_text())}
    removed_ours, removed_theirs = dict(ours), dict(theirs)

    def jaccard(a, b) -> float:
        a, b = set(a), set(b)
        return round(len(a & b) / len(a | b), 4) if a | b else 1.0

    ids, _, vectors = stored_text_embeddings(size, folder)
    row = {record_id: i for i, record_id in enumerate(ids)}
    differ = [r for r in removed_ours.keys() & removed_theirs.keys() if removed_ours[r] != removed_theirs[r]]
    sims = [
        (vectors[row[r]] @ vectors[row[removed_ours[r]]], vectors[row[r]] @ vectors[row[removed_theirs[r]]])
        for r in differ
    ]
    at_least = int(sum(np.round(a, 6) >= np.round(b, 6) for a, b in sims))
    return {
        "pairs": jaccard(ours, theirs),
        "removed": jaccard(removed_ours, removed_theirs),
        "other_twin": len(differ),
        "ours_at_least_as_similar": at_least,
    }


def main() -> None:
    folder = Path(ARGS.dir)
    folder.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in ARGS.sizes.split(",")]
    results = {}
    for size in sizes:
        print(f"--- {size:,} records ---", flush=True)
        pipeline = run_child("pipeline", size, folder)
        print("pipeline (score + dedup):", json.dumps(pipeline), flush=True)
        ours, theirs = run_child("ours", size, folder), run_child("semhash", size, folder)
        agree = agreement(folder, size)
        print(f"same work, curation: {json.dumps(ours)}", flush=True)
        print(f"same work, semhash:  {json.dumps(theirs)}", flush=True)
        print(f"time ratio curation/semhash (dedup only): {ours['seconds'] / max(theirs['seconds'], 1e-9):.2f}")
        print(f"agreement: {json.dumps(agree)}", flush=True)
        if size == ARGS.end_to_end_size:
            ours_e2e, theirs_e2e = run_child("ours_e2e", size, folder), run_child("semhash_e2e", size, folder)
            print(f"end to end (each encodes the texts itself): curation {json.dumps(ours_e2e)}")
            print(f"end to end: semhash {json.dumps(theirs_e2e)}, agreement {agreement(folder, size, '_e2e')}")
        results[size] = pipeline
    if len(sizes) > 1:
        small, large = min(sizes), max(sizes)
        for stage in ("score_s", "dedup_s"):
            growth = results[large][stage] / max(results[small][stage], 1e-9)
            print(f"{stage}: x{growth:.1f} for x{large // small} records")


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--threshold", type=float, default=0.9)
    parser.add_argument("--dir", default="/tmp/bench_curation")
    parser.add_argument("--end-to-end-size", type=int, default=10000, help="size at which both also encode (0: none)")
    parser.add_argument("--child", choices=["pipeline", "ours", "ours_e2e", "semhash", "semhash_e2e"])
    parser.add_argument("--size", type=int)
    return parser.parse_args()


ARGS = parse()
if __name__ == "__main__":
    if ARGS.child:
        folder = Path(ARGS.dir)
        if ARGS.child == "pipeline":
            result = child_pipeline(ARGS.size, folder)
        elif ARGS.child in ("ours", "ours_e2e"):
            result = child_ours(ARGS.size, folder, end_to_end=ARGS.child == "ours_e2e")
        else:
            result = child_semhash(ARGS.size, folder, end_to_end=ARGS.child == "semhash_e2e")
        print(json.dumps(result))
    else:
        main()
