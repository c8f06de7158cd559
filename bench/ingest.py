"""Ingest throughput: records/s, MB/s and peak RSS per format, at 10k and 100k records.

For each format, the real samples in ../shared/fixtures are replicated (with
varied ids) into a JSONL file of N records; a fresh worker process converts it
to Parquet with ``data_catalog.convert.convert_files`` and reports the time
after start-up (imports excluded) and its peak RSS. In the same run, bare
``json`` and ``orjson`` load/dump loops over the same file give this machine's
baseline, and ADP's reference figures (from the issue: its own pydantic
converters, JSONL in and out, one core) are printed beside ours.

    python bench/ingest.py                 # 10k and 100k records, every format
    python bench/ingest.py --sizes 10000 --formats adp swe_agent
"""

from __future__ import annotations

import argparse
import copy
import json
import os
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

# ADP's reference converters on these samples (MB/s, ~30 MB RSS), as given in issue 2.
ADP_REFERENCE_MBPS = {
    "swe_agent": 116,
    "sharegpt:markdown": 71,
    "sharegpt:codeact": 57,
    "sharegpt:react-os": 50,
}


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


def worker(label: str, path: str) -> None:
    """Runs in a fresh process: convert one file, print timing and peak RSS as JSON."""
    import pandas  # noqa: F401  pyarrow imports it on the first table built: start-up, not conversion

    from data_catalog.convert import convert_files
    from data_catalog.sources.base import ConvertOptions

    fmt, options, _, _ = CASES[label]
    out_dir = tempfile.mkdtemp(prefix="aceforge-bench-")
    start, cpu_start = time.perf_counter(), time.process_time()
    stats = convert_files(fmt, [path], Path(out_dir) / "out.parquet", options=ConvertOptions(extra=dict(options)))
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    figures = {"seconds": seconds, "cpu_seconds": cpu_seconds, "rss_mb": _peak_rss_mb()}
    figures.update(raw_items=stats.raw_items, converted=stats.converted, quarantined=stats.quarantined)
    print(json.dumps(figures))


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


def run_case(label: str, n: int, directory: Path) -> dict:
    path = make_input(label, n, directory)
    size_mb = path.stat().st_size / 1e6
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", label, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if proc.returncode != 0:
        return {
            "label": label,
            "n": n,
            "error": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed",
        }
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    json_mbps, orjson_mbps = json_baselines(path) if n <= 10_000 else (None, None)
    path.unlink()
    return {
        "label": label,
        "n": n,
        "size_mb": size_mb,
        "records_s": figures["raw_items"] / figures["seconds"],
        "mb_s": size_mb / figures["seconds"],
        "cpu_mb_s": size_mb / figures["cpu_seconds"],
        "rss_mb": figures["rss_mb"],
        "converted": figures["converted"],
        "quarantined": figures["quarantined"],
        "json_mb_s": json_mbps,
        "orjson_mb_s": orjson_mbps,
    }


def _fmt(value, spec: str) -> str:
    if value is None:
        return format("-", spec.split(".")[0])  # same alignment and width, no precision
    return format(value, spec)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--formats", nargs="+", default=list(CASES), help="labels of CASES to run")
    parser.add_argument("--worker", nargs=2, metavar=("LABEL", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    header = f"{'format':<24}{'N':>8}{'MB':>9}{'rec/s':>10}{'MB/s':>8}{'cpuMB/s':>8}{'RSS MB':>8}{'ok':>8}{'quar':>6}{'json':>7}{'orjson':>8}{'ADP ref':>9}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(prefix="aceforge-bench-in-") as tmp:
        for label in args.formats:
            for n in args.sizes:
                row = run_case(label, n, Path(tmp))
                if "error" in row:
                    print(f"{label:<24}{n:>8}  ERROR: {row['error']}")
                    continue
                ref = ADP_REFERENCE_MBPS.get(label)
                print(
                    f"{label:<24}{n:>8}{row['size_mb']:>9.1f}{row['records_s']:>10.0f}{row['mb_s']:>8.1f}{row['cpu_mb_s']:>8.1f}{row['rss_mb']:>8.0f}"
                    f"{row['converted']:>8}{row['quarantined']:>6}{_fmt(row['json_mb_s'], '>7.0f')}{_fmt(row['orjson_mb_s'], '>8.0f')}"
                    f"{_fmt(ref, '>9.0f') if ref else '   50-127'}",
                    flush=True,
                )
    print("\nrec/s counts raw input records (web_steps: step rows). MB/s is wall time, cpuMB/s CPU time of the worker")
    print("(steadier on a loaded machine). json/orjson: bare load+dump loop over the same file, this run.")
    print("ADP ref: ADP's own converters on the same dataset (issue 2; 50-127 MB/s across datasets, ~30 MB RSS).")


if __name__ == "__main__":
    main()
