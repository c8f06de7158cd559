"""Ingest throughput: records/s, MB/s and peak RSS per format, and how conversion scales with --workers.

For each format, the real samples in ../shared/fixtures are replicated (with
varied ids) into a JSONL file of N records; a fresh process converts it to
Parquet with ``data_catalog.convert.convert_files`` and reports the wall time
of the conversion (interpreter start-up and imports excluded; forking the
workers included), its CPU time and its peak RSS. In the same run, bare
``json`` and ``orjson`` load/dump loops over the same file give this
machine's baseline. Each worker count runs ``--repeat`` times, the counts
interleaved so that a busy machine slows them alike; the table gives the
median and the speedup over one worker (median, with its range over the
repeats). ADP's own converters, side by side with ``aceforge convert``, are
measured by ../shared/tools/ingest-vs-adp.sh.

    python bench/ingest.py                                   # 10k and 100k records, every format
    python bench/ingest.py --sizes 10000 --formats adp swe_agent
    python bench/ingest.py --sizes 40000 --formats sharegpt:codeact --workers 1 2 --repeat 3
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT.parent / "shared" / "fixtures"
ADP = FIXTURES / "adp"
TAU = FIXTURES / "tau"
TAU_AIRLINE = TAU / "tau-bench/historical_trajectories/gpt-4o-airline.excerpt.json"


def _load(path: Path):
    return json.loads(path.read_text())


def _vary_key(key: str):
    def vary(raw: dict, i: int) -> dict:
        out = dict(raw)
        out[key] = f"{raw.get(key)}-r{i}"
        return out

    return vary


def _vary_synatra(raw: dict, i: int) -> dict:
    # Synatra records have no id (ids are content hashes): vary the content a little.
    return {**raw, "prompt": f"# replica {i}\n" + raw["prompt"]}


def _openai_chat_samples() -> list[dict]:
    # τ-bench trajectories are OpenAI chat messages with tool_calls.
    return [{"id": f"{r['task_id']}-{r['trial']}", "messages": r["traj"]} for r in _load(TAU_AIRLINE)]


def _tau2_simulations() -> list[dict]:
    return _load(TAU / "tau2-bench/feature-gym/results/gpt-4.1_airline_default_gpt-4.1_1trials.json")["simulations"]


# label -> (format, options, samples loader, id variation)
CASES = {
    "adp": ("adp", {}, lambda: [r for p in sorted(ADP.glob("*/sample_std.json")) for r in _load(p)], _vary_key("id")),
    "openai_chat": ("openai_chat", {}, _openai_chat_samples, _vary_key("id")),
    "sharegpt:react-alfworld": (
        "sharegpt",
        {"dialect": "react"},
        lambda: _load(ADP / "agenttuning_alfworld/sample_raw.json"),
        _vary_key("id"),
    ),
    "sharegpt:react-os": (
        "sharegpt",
        {"dialect": "react"},
        lambda: _load(ADP / "agenttuning_os/sample_raw.json"),
        _vary_key("id"),
    ),
    "sharegpt:codeact": (
        "sharegpt",
        {"dialect": "codeact"},
        lambda: _load(ADP / "codeactinstruct/sample_raw.json"),
        _vary_key("id"),
    ),
    "sharegpt:markdown": (
        "sharegpt",
        {"dialect": "markdown"},
        lambda: _load(ADP / "code_feedback/sample_raw.json"),
        _vary_key("id"),
    ),
    "swe_agent": (
        "swe_agent",
        {},
        lambda: _load(ADP / "nebius_SWE-agent-trajectories/sample_raw.json"),
        _vary_key("instance_id"),
    ),
    "mini_swe_agent": ("mini_swe_agent", {}, lambda: _load(ADP / "mini-coder/sample_raw.json"), _vary_key("id")),
    "web_steps": ("web_steps", {}, lambda: _load(ADP / "nnetnav-live/sample_raw.json"), _vary_key("id")),
    "synatra": ("synatra", {}, lambda: _load(ADP / "synatra/sample_raw.json"), _vary_synatra),
    "tau_bench": ("tau_bench", {}, lambda: _load(TAU_AIRLINE), _vary_key("task_id")),
    "tau2_results": ("tau2_results", {}, _tau2_simulations, _vary_key("id")),
    "tau2_tasks": (
        "tau2_tasks",
        {"domain": "retail"},
        lambda: _load(TAU / "tau2-bench/v1.0.1/domains/retail/tasks.json"),
        _vary_key("id"),
    ),
}


def make_input(label: str, n: int, directory: Path) -> Path:
    """A JSONL file of n raw records replicated from the samples (web_steps: n step rows)."""
    _, _, load, vary = CASES[label]
    samples = load()
    path = directory / f"{label.replace(':', '_')}-{n}.jsonl"
    with open(path, "wb") as f:
        written, replica = 0, 0
        while written < n:
            for raw in samples[: n - written]:
                f.write(orjson.dumps(vary(copy.deepcopy(raw), replica)) + b"\n")
                written += 1
            replica += 1
    return path


def worker(label: str, path: str, workers: int) -> None:
    """Runs in a fresh process: convert one file, print timing and peak RSS as JSON."""
    import concurrent.futures.process  # noqa: F401  imported before the clock starts: start-up, not conversion

    import data_catalog.convert_chunks  # noqa: F401
    import schemas.io  # noqa: F401
    from data_catalog.convert import convert_files
    from data_catalog.sources import get_converter
    from data_catalog.sources.base import ConvertOptions
    from runtime.executor import ExecutorConfig, open_executor

    fmt, options, _, _ = CASES[label]
    get_converter(fmt)  # imports the format's module
    out_dir = tempfile.mkdtemp(prefix="aceforge-bench-")
    start, cpu_start, children_start = time.perf_counter(), time.process_time(), _children_cpu()
    with open_executor(ExecutorConfig(workers=workers)) as executor:
        stats = convert_files(
            fmt, [path], Path(out_dir) / "out.parquet", options=ConvertOptions(extra=dict(options)), executor=executor
        )
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    figures = {"seconds": seconds, "cpu_seconds": cpu_seconds, "rss_mb": _peak_rss_mb()}
    figures["workers_cpu_seconds"] = _children_cpu() - children_start
    figures.update(raw_items=stats.raw_items, converted=stats.converted, quarantined=stats.quarantined)
    figures["workers"] = stats.workers  # a grouping format converts in one process whatever was asked
    print(json.dumps(figures))


def _children_cpu() -> float:
    """CPU seconds of this process's finished children (the worker processes, once the pool is shut down)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _peak_rss_mb() -> float:
    # VmHWM belongs to this process image; ru_maxrss would carry the parent's peak over the fork.
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def json_baselines(path: Path) -> tuple[float, float]:
    """MB/s of a bare json.loads/json.dumps loop and of orjson over the same lines."""
    lines = path.read_bytes().splitlines()
    size_mb = sum(len(line) + 1 for line in lines) / 1e6
    result = []
    for loads, dumps in ((json.loads, json.dumps), (orjson.loads, orjson.dumps)):
        start = time.perf_counter()
        for line in lines:
            dumps(loads(line))
        result.append(size_mb / (time.perf_counter() - start))
    return result[0], result[1]


def run_case(label: str, path: Path, workers: int) -> dict:
    return run_together(label, [path], workers)[0]


def run_together(label: str, paths: list[Path], workers: int = 1) -> list[dict]:
    """One fresh process per path, all at once, each converting its file with ``workers``."""
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", label, str(path), str(workers)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        for path in paths
    ]
    results = []
    for proc in procs:
        stdout, stderr = proc.communicate()
        if proc.returncode != 0:
            results.append({"error": stderr.strip().splitlines()[-1] if stderr.strip() else "failed"})
        else:
            results.append(json.loads(stdout.strip().splitlines()[-1]))
    return results


def split_input(path: Path, parts: int) -> list[Path]:
    """The file's lines cut into ``parts`` files of about equal size (for independent processes)."""
    lines = path.read_bytes().splitlines(keepends=True)
    size = -(-len(lines) // parts)
    split = [path.with_name(f"{path.stem}.part{i}of{parts}.jsonl") for i in range(parts)]
    for i, part in enumerate(split):
        part.write_bytes(b"".join(lines[i * size : (i + 1) * size]))
    return split


def _fmt(value, spec: str) -> str:
    if value is None:
        return format("-", spec.split(".")[0])  # same alignment and width, no precision
    return format(value, spec)


def measure(label: str, n: int, directory: Path, workers: list[int], repeat: int) -> list[dict]:
    """One row per worker count: median figures over ``repeat`` interleaved runs and the speedup over the first count."""
    path = make_input(label, n, directory)
    size_mb = path.stat().st_size / 1e6
    runs: dict[int, list[dict]] = {w: [] for w in workers}
    # The same work as w independent processes, one per w-th of the input: what this machine gives
    # w processes that share nothing, the ceiling for any worker design (machines that share
    # cores or memory bandwidth with neighbours give less than w).
    parts = {w: split_input(path, w) for w in workers if w > 1}
    apart: dict[int, list[dict]] = {w: [] for w in parts}
    for _ in range(repeat):
        for w in workers:
            runs[w].append(run_case(label, path, w))
            if w in parts:
                together = run_together(label, parts[w])
                failed = next((r for r in together if "error" in r), None)
                apart[w].append(failed or {"seconds": max(r["seconds"] for r in together)})
    json_mbps, orjson_mbps = json_baselines(path) if n <= 10_000 else (None, None)
    for part in [path, *(p for split in parts.values() for p in split)]:
        part.unlink()
    rows = []
    for w in workers:
        failed = [r["error"] for r in runs[w] if "error" in r]
        if failed:
            rows.append({"label": label, "n": n, "workers": w, "error": failed[0]})
            continue
        seconds = sorted(r["seconds"] for r in runs[w])
        base = runs[workers[0]]
        speedups = sorted(b["seconds"] / r["seconds"] for b, r in zip(base, runs[w]) if "error" not in b)
        # From CPU times: the work of one process over the work with w processes shared by w cores (the parent
        # converts whenever the workers are busy, so the work spreads), i.e. the speedup on w idle cores. Wall
        # times on a busy machine cannot show it: the scheduler gives a session one share however many it runs.
        bound = sorted(
            (b["cpu_seconds"] + b["workers_cpu_seconds"]) / ((r["cpu_seconds"] + r["workers_cpu_seconds"]) / w)
            for b, r in zip(base, runs[w])
            if "error" not in b
        )
        independent = sorted(
            b["seconds"] / a["seconds"] for b, a in zip(base, apart.get(w, [])) if "error" not in b and "error" not in a
        )
        last = runs[w][-1]
        rows.append(
            {
                "label": label,
                "n": n,
                "workers": w,
                "used": last["workers"],
                "size_mb": size_mb,
                "records_s": last["raw_items"] / median(seconds),
                "mb_s": size_mb / median(seconds),
                "cpu_mb_s": size_mb / median(sorted(r["cpu_seconds"] for r in runs[w])),
                "rss_mb": max(r["rss_mb"] for r in runs[w]),
                "converted": last["converted"],
                "quarantined": last["quarantined"],
                "speedup": median(speedups) if speedups else None,
                "spread": (speedups[0], speedups[-1]) if speedups else None,
                "cpu_bound": median(bound) if bound else None,
                "independent": median(independent) if independent else None,
                "json_mb_s": json_mbps if w == workers[0] else None,
                "orjson_mb_s": orjson_mbps if w == workers[0] else None,
            }
        )
    return rows


def median(values: list[float]) -> float:
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def print_row(row: dict) -> None:
    head = f"{row['label']:<24}{row['n']:>8}{row['workers']:>4}"
    if row.get("used", row["workers"]) != row["workers"]:
        head = f"{row['label']:<24}{row['n']:>8}{str(row['used']) + '*':>4}"
    if "error" in row:
        print(f"{head}  ERROR: {row['error']}", flush=True)
        return
    spread = f"{row['spread'][0]:.2f}-{row['spread'][1]:.2f}" if row["spread"] else "-"
    print(
        f"{head}{row['size_mb']:>8.1f}{row['records_s']:>9.0f}{row['mb_s']:>8.1f}{row['cpu_mb_s']:>8.1f}"
        f"{row['rss_mb']:>7.0f}{row['converted']:>8}{row['quarantined']:>6}{_fmt(row['speedup'], '>8.2f')}{spread:>11}"
        f"{_fmt(row['independent'], '>7.2f')}{_fmt(row['cpu_bound'], '>7.2f')}"
        f"{_fmt(row['json_mb_s'], '>7.0f')}{_fmt(row['orjson_mb_s'], '>8.0f')}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--formats", nargs="+", default=list(CASES), help="labels of CASES to run")
    parser.add_argument("--workers", type=int, nargs="+", default=[1], help="worker counts to compare (first: base)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per worker count, interleaved")
    parser.add_argument("--worker", nargs=3, metavar=("LABEL", "PATH", "WORKERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1], int(args.worker[2]))
        return
    print(f"{os.cpu_count()} CPUs; load average at start {os.getloadavg()[0]:.1f}")
    header = (
        f"{'format':<24}{'N':>8}{'wkr':>4}{'MB':>8}{'rec/s':>9}{'MB/s':>8}{'cpuMB/s':>8}{'RSS MB':>7}"
        f"{'ok':>8}{'quar':>6}{'speedup':>8}{'(range)':>11}{'indep':>7}{'cpu-x':>7}{'json':>7}{'orjson':>8}"
    )
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(prefix="aceforge-bench-in-") as tmp:
        for label in args.formats:
            for n in args.sizes:
                for row in measure(label, n, Path(tmp), args.workers, args.repeat):
                    print_row(row)
    print(f"load average at end {os.getloadavg()[0]:.1f}")
    print("\nrec/s counts raw input records (web_steps: step rows). MB/s: wall time of the conversion (imports")
    print("excluded, forking workers included), median over the repeats; cpuMB/s: CPU time of the converting")
    print("process (with workers, the parent: it writes, and converts while they are busy). speedup: one")
    print("worker's time over this count's, per interleaved pair, median and (range). json/orjson: bare")
    print("load+dump loop over the same file, this run. indep: one worker's time over the time w independent")
    print("processes take for the same input cut in w parts, run at once (median): the most w processes get here.")
    print("wkr n*: the format groups rows into trajectories, so it converted in n process(es) whatever was asked.")
    print("cpu-x: one process's CPU time over the CPU time of all processes with these workers, shared by as")
    print("many cores: the speedup on that many idle cores. On a loaded machine the wall-time speedup stays")
    print("near 1, since the scheduler gives one session one share however many processes it runs.")


if __name__ == "__main__":
    main()
