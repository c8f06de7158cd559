"""Local vs Ray throughput for convert, embed and dedup, at 1 and 2 worker processes, with peak RSS per worker.

For each size, N demo chats (data_catalog/demo.py, with its planted bad lines;
templated, so duplicates abound) are written as JSONL, then:

- **convert**: ``convert_files`` locally with 1 and 2 workers, and on a local
  Ray cluster of 1 and 2 CPUs (Ray tasks, one per ~1 MB chunk); the machine's
  ceiling is two independent local conversions of the two halves at once;
- **embed**: task texts of the first ``--embed`` records encoded locally
  (``encode``) and on an actor pool of 1 and 2 actors; the largest vector
  difference is printed;
- **dedup**: minhash + semantic over all the converted records, exact locally,
  and on Ray (MinHash tasks, LSH band shuffle, semantic pairs within
  clusters); the agreement of the two sets of removals is printed. Its vectors
  are hashed bag-of-words (``hashed_vectors``), given to both runs: MiniLM on
  every record would cost more than dedup itself and is timed by the embed rows.

Records/s per stage; RSS is the peak of each process (the driver, and each Ray
worker sampled every 0.2 s). Ray's start-up (a cluster per row, ~10-20 s) is
excluded; the first task's imports in fresh workers are included.

    python bench/scale.py --sizes 20000 --embed 2000        # what docs/scale.md reports (2-core machine)
    python bench/scale.py --sizes 100000 1000000 --embed 20000   # the issue's sizes, for a bigger machine
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # read at ray's import: loopback only
os.environ.setdefault("RAY_AUTH_MODE", "disabled")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import psutil  # noqa: E402


class PeakRss:
    """Peak RSS of this process and of each descendant (Ray workers), sampled in a thread."""

    def __init__(self):
        self.peaks: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        me = psutil.Process()
        while not self._stop.is_set():
            for process in [me, *me.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    self.peaks[process.pid] = max(self.peaks.get(process.pid, 0), process.memory_info().rss)
            self._stop.wait(0.2)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def summary(self) -> str:
        driver = self.peaks.get(os.getpid(), 0)
        workers = [rss for pid, rss in self.peaks.items() if pid != os.getpid()]
        top = max(workers) if workers else 0
        return f"driver {driver / 2**20:.0f} MB, worker max {top / 2**20:.0f} MB"


def write_input(folder: Path, size: int) -> Path:
    from data_catalog.demo import chat_lines, make_cases

    path = folder / f"chats-{size}.jsonl"
    path.write_text("\n".join(chat_lines(make_cases(size, seed=11))) + "\n")
    return path


def timed(label: str, records: int, run, rows: list) -> object:
    with PeakRss() as rss:
        start = time.perf_counter()
        result = run()
        seconds = time.perf_counter() - start
    rows.append((label, records, seconds, records / seconds, rss.summary()))
    print(f"  {label:<28} {records:>8} rec {seconds:>8.1f} s {records / seconds:>9.0f} rec/s   {rss.summary()}")
    return result


def convert_half(args):
    from data_catalog.convert import convert_files

    path, output = args
    return convert_files("openai_chat", [path], output).converted


def bench_convert(raw: Path, folder: Path, size: int, rows: list) -> Path:
    from data_catalog.convert import convert_files
    from runtime.executor import Executor, ProcessExecutor

    out = folder / "local.parquet"
    for workers, executor in ((1, Executor()), (2, ProcessExecutor(2))):
        timed(
            f"convert local w={workers}",
            size,
            partial(convert_files, "openai_chat", [str(raw)], out, executor=executor),
            rows,
        )
    lines = raw.read_text().splitlines(keepends=True)
    halves = [folder / "half0.jsonl", folder / "half1.jsonl"]
    for part, half in enumerate(halves):
        half.write_text("".join(lines[part::2]))
    jobs = [(str(h), str(h.with_suffix(".parquet"))) for h in halves]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        timed("convert 2 independent procs", size, partial(pool.map, convert_half, jobs), rows)
    for cpus in (1, 2):
        with ray_cluster(cpus) as on_ray:
            run = partial(convert_files, "openai_chat", [str(raw)], folder / "ray.parquet", executor=on_ray)
            timed(f"convert ray cpus={cpus}", size, run, rows)
    return out


@contextmanager
def ray_cluster(cpus: int):
    """A Ray executor on a local cluster of ``cpus`` CPUs on 127.0.0.1."""
    import logging

    import ray

    from runtime.executor import RayExecutor

    logging.getLogger("ray.data").setLevel(logging.WARNING)  # as runtime/engine.py: no per-Dataset progress log
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield RayExecutor(ray)
    finally:
        ray.shutdown()


def bench_embed(records: Path, limit: int, rows: list) -> None:
    import numpy as np

    from curation.embedder import encode, encode_distinct, load_embedder
    from curation.facts import read_facts

    texts = [f.text for f in read_facts(records)][:limit]
    load_embedder()
    local = timed("embed local", len(texts), partial(encode, texts), rows)
    for cpus in (1, 2):
        with ray_cluster(cpus) as on_ray:
            vectors, index = timed(
                f"embed ray actors={cpus}", len(texts), partial(encode_distinct, texts, executor=on_ray), rows
            )
        print(f"    largest difference from local: {np.abs(vectors[index] - local).max():.2e}")


def hashed_vectors(texts: list[str]):
    """Unit bag-of-words vectors (words hashed with a sign into 384 dimensions): texts that share words are close.
    The dedup rows use them instead of MiniLM, whose cost (the embed rows) would bury dedup's own at this size."""
    import zlib

    import numpy as np

    from curation.embedder import DIMENSION

    out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in text.lower().split():
            h = zlib.crc32(word.encode())
            out[row, h % DIMENSION] += 1.0 if h & 1 << 31 else -1.0
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return np.divide(out, norms, out=out, where=norms > 0)


def bench_dedup(records: Path, folder: Path, rows: list) -> None:
    import numpy as np
    import pyarrow.parquet as pq

    from curation.config import DedupConfig
    from curation.dedup_stage import run_dedup
    from curation.facts import read_facts
    from curation.signatures import SIGNATURES, Signatures, sidecar, write_signatures

    facts = read_facts(records)
    vectors = Signatures(
        hashed_vectors([f.text for f in facts]), hashed_vectors([f.action_text for f in facts]), [None] * len(facts)
    )
    write_signatures(sidecar(records, SIGNATURES), facts, vectors)
    kinds = ["minhash", "semantic"]
    run = partial(run_dedup, records, folder / "d-local.parquet", DedupConfig(kinds=kinds))
    local = timed("dedup local (exact)", len(facts), run, rows)
    expected = set(pq.read_table(local.audit_path)["removed_id"].to_pylist())
    ids = [f.id for f in facts]
    cfg = DedupConfig(kinds=kinds)
    for cpus in (1, 2):
        with ray_cluster(cpus) as on_ray:
            run = partial(run_dedup, records, folder / "d-ray.parquet", cfg, executor=on_ray)
            result = timed(f"dedup ray cpus={cpus}", len(facts), run, rows)
        got = set(pq.read_table(result.audit_path)["removed_id"].to_pylist())
        agreement = np.mean([(i in expected) == (i in got) for i in ids])
        clusters = -(-len(facts) // cfg.semantic_cluster_size)
        print(f"    agreement with exact: {agreement:.4f} ({len(expected)} vs {len(got)} removed; {clusters} clusters)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000])
    parser.add_argument("--embed", type=int, default=2000, help="records whose task texts the embed stage encodes")
    parser.add_argument("--stages", nargs="+", default=["convert", "embed", "dedup"])
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    rows: list = []
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            raw = write_input(folder, size)
            print(f"{size} records ({raw.stat().st_size / 2**20:.0f} MB of JSONL)")
            from data_catalog.convert import convert_files

            records = folder / "records.parquet"
            if "convert" in args.stages:
                records = bench_convert(raw, folder, size, rows)
            else:
                convert_files("openai_chat", [str(raw)], records)
            if "embed" in args.stages:
                bench_embed(records, args.embed, rows)
            if "dedup" in args.stages:
                bench_dedup(records, folder, rows)
    print(
        json.dumps(
            [{"stage": r[0], "records": r[1], "seconds": round(r[2], 2), "records_per_s": round(r[3])} for r in rows]
        )
    )


if __name__ == "__main__":
    main()
