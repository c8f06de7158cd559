"""``aceforge convert`` beside ADP's own converters: whole-process wall time, start-up included, on one core.

The inputs are those of ../shared/tools/ingest-vs-adp.sh: each dataset's raw
samples (../shared/fixtures/adp/<dataset>/sample_raw.json) replicated to
``--mb`` MB of JSONL, ids varied so that neither side drops repeats
(``--mb 0``: one record, which measures start-up alone). Each side is a fresh
process pinned to one core (``taskset``): ADP's ``raw_to_standardized.py``
(stdin to stdout JSONL, its schema package from ``--adp``, a git dir of
github:zhu-yiqi/agent-data-protocol) and ``aceforge convert --format
sharegpt`` of this checkout and of every ``--tree`` (another checkout: the
code before a change, made with ``git worktree add DIR main``). The sides run
one after the other, ``--repeat`` rounds, so a busy machine slows them alike;
the table gives each side's median wall seconds, its MB/s, its median CPU
seconds (user + system, steadier on a busy machine) and its ratios to ADP's
(above 1: faster than ADP). The rows every ``--tree`` wrote are compared with
this checkout's (``same rows``), so a speed-up that changes the output shows.
Every tree and ADP's checkout are byte-compiled first (``compileall``), as an
installed package is: where PYTHONDONTWRITEBYTECODE is set (this machine's
shells) a fresh worktree never gets its .pyc files, and every run would
compile its modules from source again (0.07 s more for aceforge's 40 MB
agenttuning_os), which is not the cost of either converter.

    python bench/convert_vs_adp.py --adp GITDIR                        # ADP and this checkout, 40 MB, 3 rounds
    python bench/convert_vs_adp.py --adp GITDIR --tree /tmp/before --mb 10 --repeat 5
    python bench/convert_vs_adp.py --tree /tmp/before --mb 0 --repeat 7  # start-up: before and after a change
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the checkout (a worktree of it one level further down: ../../shared)
ADP_FIXTURES = (
    next((p for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared").is_dir()), ROOT.parent) / "shared/fixtures/adp"
)
DATASETS = ("agenttuning_os", "agenttuning_alfworld", "codeactinstruct", "code_feedback")


def make_input(dataset: str, mb: float, path: Path) -> int:
    """The dataset's raw samples replicated to ``mb`` MB (at least one record), as ingest-vs-adp.sh does."""
    samples = json.loads((ADP_FIXTURES / dataset / "sample_raw.json").read_text())
    key = "instance_id" if "instance_id" in samples[0] else "id"
    size, i = 0, 0
    with open(path, "w") as out:
        while i == 0 or size < mb * 1e6:
            raw = dict(samples[i % len(samples)])
            raw[key] = f"{raw[key]}-{i}"
            line = json.dumps(raw) + "\n"
            out.write(line)
            size, i = size + len(line), i + 1
    return size


def adp_checkout(git_dir: str, directory: Path) -> Path:
    """ADP's schema package and the four datasets' converters (conv_<dataset>.py), read out of its git dir."""

    def show(path: str) -> bytes:
        return subprocess.run(
            ["git", f"--git-dir={git_dir}", "show", f"HEAD:{path}"], check=True, capture_output=True
        ).stdout

    listing = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only", "HEAD", "schema"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for name in listing:
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_bytes(show(name))
    for dataset in DATASETS:
        (directory / f"conv_{dataset}.py").write_bytes(show(f"datasets/{dataset}/raw_to_standardized.py"))
    return directory


def byte_compiled(directory: Path) -> Path:
    """``directory``'s Python files compiled to .pyc (its virtualenv, if any, left alone)."""
    command = [sys.executable, "-m", "compileall", "-q", "-x", r"/\.venv/", str(directory)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return directory


def run_adp(adp: Path, dataset: str, source: Path, out: Path, core: int) -> tuple[float, float]:
    with open(source, "rb") as stdin, open(out, "wb") as stdout:
        return _timed(
            ["taskset", "-c", str(core), sys.executable, f"conv_{dataset}.py"],
            cwd=adp,
            env={**os.environ, "PYTHONPATH": "."},
            stdin=stdin,
            stdout=stdout,
        )


def run_tree(tree: Path, source: Path, out: Path, home: Path, core: int) -> tuple[float, float]:
    command = ["taskset", "-c", str(core), sys.executable, "-m", "pipelines.cli.main", "convert"]
    command += ["--format", "sharegpt", str(source), "-o", str(out), "--no-catalog", "--json"]
    env = {**os.environ, "PYTHONPATH": str(tree), "ACEFORGE_HOME": str(home)}
    return _timed(command, cwd=tree, env=env, stdout=subprocess.DEVNULL)


def _timed(command: list[str], **kwargs) -> tuple[float, float]:
    """The command's wall seconds and CPU seconds (user + system: steadier than wall time on a busy machine)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, stderr=subprocess.PIPE, **kwargs)
    seconds = time.perf_counter() - start
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        raise SystemExit(f"{' '.join(command[3:6])} failed: {lines[-1] if lines else done.returncode}")
    return seconds, cpu


def same_rows(a: Path, b: Path) -> bool:
    import pyarrow.parquet as pq

    return pq.read_table(a).equals(pq.read_table(b))


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return median([wall for wall, _ in runs]), median([cpu for _, cpu in runs])


def median(values: list[float]) -> float:
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def measure(dataset: str, args, adp: Path | None, trees: list[Path], tmp: Path) -> None:
    source = tmp / f"{dataset}.jsonl"
    size = make_input(dataset, args.mb, source)
    seconds: dict[str, list[tuple[float, float]]] = {"ADP": []} if adp else {}
    seconds.update({tree.name: [] for tree in trees})
    # One folder per tree, the same file name: the records' dataset (and so their ids) is the output's stem.
    outputs = {tree.name: tmp / str(i) / f"{dataset}.parquet" for i, tree in enumerate(trees)}
    for _ in range(args.repeat):
        if adp:
            seconds["ADP"].append(run_adp(adp, dataset, source, tmp / "adp.jsonl", args.core))
        for tree in trees:
            seconds[tree.name].append(run_tree(tree, source, outputs[tree.name], tmp / "home", args.core))
    first = outputs[trees[0].name]
    same = all(same_rows(first, outputs[tree.name]) for tree in trees[1:])
    base = _medians(seconds["ADP"]) if adp else None
    cells = []
    for side, values in seconds.items():
        wall, cpu = _medians(values)
        ratio = f" x{base[0] / wall:.2f} (cpu x{base[1] / cpu:.2f})" if base and side != "ADP" else ""
        cells.append(f"{side} {wall:.3f}s {size / 1e6 / wall:5.1f}MB/s cpu {cpu:.3f}s{ratio}")
    rows = "" if len(trees) < 2 else f"  same rows: {'yes' if same else 'NO'}"
    print(f"{dataset:<22}{size / 1e6:6.1f}MB  " + "  ".join(cells) + rows, flush=True)
    source.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--adp", help="git dir of ADP's repository (fetch github:zhu-yiqi/agent-data-protocol)")
    parser.add_argument("--tree", type=Path, action="append", default=[], help="another aceforge checkout to run")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--mb", type=float, default=40, help="input size per dataset (0: one record)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; every side runs once a round")
    parser.add_argument("--core", type=int, default=0, help="the core every process is pinned to")
    args = parser.parse_args()
    trees = [byte_compiled(tree) for tree in (ROOT, *(tree.resolve() for tree in args.tree))]
    if len({tree.name for tree in trees}) < len(trees):
        raise SystemExit("give trees with different folder names: the table names them so")
    print(f"core {args.core}; load average at start {os.getloadavg()[0]:.1f}; median of {args.repeat} rounds")
    with tempfile.TemporaryDirectory(prefix="aceforge-vs-adp-") as name:
        tmp = Path(name)
        adp = byte_compiled(adp_checkout(args.adp, tmp / "adp")) if args.adp else None
        for dataset in args.datasets:
            measure(dataset, args, adp, trees, tmp)
    print(f"load average at end {os.getloadavg()[0]:.1f}")
    print("(whole-process wall time, start-up included; aceforge writes Parquet and checks it, ADP writes JSONL)")


if __name__ == "__main__":
    main()
