"""A killed `aceforge convert`: its workers die with it, and the next run removes what it left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runtime.executor import SPOOL_PREFIX
from schemas.io import read_records
from tests.conftest import ROOT
from tests.pipelines.cli_helpers import OS_STD

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; PR_SET_PDEATHSIG is Linux's")


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def running(pid: int) -> bool:
    """Alive and not a zombie (a container's init may be slow to reap the orphans it inherits)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_for(condition, what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def adp_lines(megabytes: float) -> bytes:
    """Distinct ADP records (the agenttuning_os sample, renumbered) as JSONL, about ``megabytes`` of it."""
    sample = json.loads(OS_STD.read_text())
    lines, size, n = [], 0, 0
    while size < megabytes * 2**20:
        record = {**sample[n % len(sample)], "id": f"os-{n}"}
        lines.append(json.dumps(record).encode() + b"\n")
        size += len(lines[-1])
        n += 1
    return b"".join(lines)


def test_sigkill_of_the_parent_leaves_no_worker_and_the_next_run_cleans_up(data_home, tmp_path):
    """The fault: SIGKILL of a `convert --workers 2` parent left a worker waiting on a dead pipe forever,
    and its hidden `.out.parquet.<pid>.tmp` file stayed forever."""
    work = tmp_path / "work"
    out = work / "out.parquet"
    command = [
        sys.executable,
        "-m",
        "pipelines.cli.main",
        "convert",
        "-f",
        "adp",
        "-",
        "-o",
        str(out),
        "--workers",
        "2",
    ]
    parent = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        # Three chunks' worth, and stdin left open: the parent hands chunks to its worker, then waits for more.
        parent.stdin.write(adp_lines(3))
        parent.stdin.flush()
        wait_for(lambda: children(parent.pid), "the worker to start")
        workers = children(parent.pid)
        leftovers = sorted(p.name for p in work.iterdir())
        assert leftovers == [f".out.parquet.{parent.pid}.tmp", f".out.quarantine.parquet.{parent.pid}.tmp"]
        assert [e for e in os.listdir("/dev/shm") if e.startswith(f"{SPOOL_PREFIX}{parent.pid}-")]
        parent.kill()
        parent.wait(timeout=30)
        wait_for(lambda: not any(running(w) for w in workers), "the workers to die with their parent", timeout=60)
    finally:
        parent.kill()
        parent.stdin.close()
    assert sorted(p.name for p in work.iterdir()) == leftovers  # what a killed run leaves

    again = subprocess.run(
        [
            sys.executable,
            "-m",
            "pipelines.cli.main",
            "convert",
            "-f",
            "adp",
            str(OS_STD),
            "-o",
            str(out),
            "--workers",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in work.iterdir()) == ["out.parquet", "out.quarantine.parquet"]
    assert len(list(read_records(out))) == 5
    assert not [e for e in os.listdir("/dev/shm") if e.startswith(f"{SPOOL_PREFIX}{parent.pid}-")]


def test_temp_files_of_a_running_writer_are_left_alone(tmp_path):
    from schemas.io import write_records

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale, live = tmp_path / f".o.parquet.{dead.pid}.tmp", tmp_path / f".o.parquet.{os.getppid()}.tmp"
    other = tmp_path / f".other.parquet.{dead.pid}.tmp"
    for path in (stale, live, other):
        path.write_bytes(b"partial")
    write_records([], tmp_path / "o.parquet")
    assert not stale.exists()
    assert live.read_bytes() == b"partial" and other.read_bytes() == b"partial"


def test_workers_are_told_to_die_with_their_parent():
    """The request itself: a forked child that asked for it gets SIGKILL when its parent exits."""
    script = (
        "import os, sys, time\n"
        "from runtime.executor import die_with_parent\n"
        "parent = os.getpid()\n"
        "if os.fork() == 0:\n"
        "    die_with_parent(parent)\n"
        "    print(os.getpid(), flush=True)\n"
        "    time.sleep(600)\n"
        "    os._exit(0)\n"
        "time.sleep(1)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    child = int(done.stdout.split()[0])
    try:
        wait_for(lambda: not running(child), "the child to die with its parent", timeout=60)
    finally:
        if running(child):
            os.kill(child, signal.SIGKILL)
