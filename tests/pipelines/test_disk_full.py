"""A full disk under `aceforge convert` and `aceforge run`: one line naming the folder and the space it had, exit 1,
no traceback, and no temporary or orphaned file left. The disk is a real 1 MiB tmpfs (mounting needs root)."""

from __future__ import annotations

import errno
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from subprocess import PIPE

import pytest

from runtime.executor import SPOOL_PREFIX, ProcessExecutor
from tests.conftest import ROOT
from tests.pipelines.cli_helpers import OS_STD

DISK_BYTES = 2**20


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs mounted on a fresh folder, unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(disk)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def aceforge(*args: str, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    """`aceforge ARGS` in a process of its own: its result, with its ``pid`` (the workers' spool is named after it)."""
    command = [sys.executable, "-m", "pipelines.cli.main", *map(str, args)]
    with subprocess.Popen(command, cwd=ROOT, env=env, stdout=PIPE, stderr=PIPE, text=True) as process:
        stdout, stderr = process.communicate(timeout=timeout)
    result = subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
    result.pid = process.pid
    return result


def incompressible_adp(path: Path, records: int, bad_every: int = 100) -> Path:
    """ADP records (the agenttuning_os sample, renumbered), each with 4 KB of random hex that no compressor shrinks
    much, and a line that is not JSON every ``bad_every`` records (quarantine rows)."""
    sample = json.loads(OS_STD.read_text())
    rng = random.Random(7)
    with path.open("w") as f:
        for n in range(records):
            record = {**sample[n % len(sample)], "id": f"os-{n}", "details": {"noise": rng.randbytes(2048).hex()}}
            f.write(json.dumps(record) + "\n")
            if n % bad_every == 0:
                f.write('{"id": "cut", "content": [{"cla\n')
    return path


def full_disk_line(stderr: str, folder: Path, role: str, what: str) -> list[str]:
    """stderr is one line: the folder, what it is, and that the work needed more than what was free there."""
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    pattern = (
        rf"error: no space left on device in {re.escape(str(folder))} \({re.escape(role)}\): {what} needed more "
        r"than the (\d+\.\d) MiB free there when it started; its temporary files were removed"
    )
    match = re.fullmatch(pattern, lines[-1])
    assert match, lines[-1]
    assert 0.75 <= float(match[1]) * 2**20 / DISK_BYTES <= 1  # the disk, less what the filesystem keeps for itself
    return lines


@pytest.mark.parametrize("workers", [1, 2])
def test_convert_that_fills_the_disk_is_one_line_and_leaves_no_file(small_disk, tmp_path, workers):
    """The fault: a full disk left `.tmp` files and could leave the quarantine file without its records file
    (renamed into place before writing the records failed)."""
    raw = incompressible_adp(tmp_path / "big.jsonl", 1000)  # under one row group: records are written at close
    result = aceforge("convert", "-f", "adp", raw, "-o", small_disk / "out.parquet", "--workers", workers, "--json")
    assert sorted(os.listdir(small_disk)) == []
    assert not [e for e in os.listdir("/dev/shm") if e.startswith(f"{SPOOL_PREFIX}{result.pid}-")]  # workers' spool
    assert result.returncode == 1 and result.stdout == ""
    lines = full_disk_line(result.stderr, small_disk, "the output's folder", "convert")
    assert len(lines) == 1


def test_a_convert_that_fails_midway_stops_its_workers_at_once(small_disk, tmp_path):
    """In a process that goes on (a Dagster step), with the error held: the failure came while the workers still
    had chunks, and their process and spool went with it, not when the error is let go."""
    from data_catalog.convert import convert_files

    raw = incompressible_adp(tmp_path / "big.jsonl", 2500)  # over a row group: the disk fills while converting
    me = os.getpid()
    children = Path(f"/proc/{me}/task/{me}/children")
    before = set(children.read_text().split())  # an earlier test's in this worker (a resource tracker) may live on
    with pytest.raises(OSError) as failed:
        convert_files("adp", [str(raw)], small_disk / "out.parquet", executor=ProcessExecutor(2))
    assert failed.value.errno == errno.ENOSPC
    assert not [e for e in os.listdir("/dev/shm") if e.startswith(f"{SPOOL_PREFIX}{me}-")]
    assert set(children.read_text().split()) <= before
    assert os.listdir(small_disk) == []


def test_a_quarantine_that_fills_its_disk_leaves_neither_file(small_disk, tmp_path):
    """The quarantine on the small disk, the records elsewhere: the line names the quarantine's folder, and the
    records file does not appear without its quarantine."""
    raw = tmp_path / "bad.jsonl"
    rng = random.Random(7)
    # 1500 quarantine rows of 2000 random hex digits: under one row group, so they are written when the file closes.
    raw.write_text("".join(json.dumps({"id": n, "content": rng.randbytes(1000).hex()}) + "\n" for n in range(1500)))
    out = tmp_path / "out" / "records.parquet"
    result = aceforge("convert", "-f", "adp", raw, "-o", out, "--quarantine", small_disk / "q.parquet")
    assert sorted(os.listdir(small_disk)) == [] and sorted(os.listdir(out.parent)) == []
    assert result.returncode == 1
    lines = full_disk_line(result.stderr, small_disk, "the quarantine's folder", "convert")
    assert len(lines) == 1


def test_run_on_a_full_disk_is_one_line(small_disk):
    """The fault: `aceforge run` with its data directory on a full disk printed 183 lines of SQLite tracebacks
    (Dagster's run and event storage is SQLite in the same folder, and fails too)."""
    home = small_disk / "home"
    env = {k: v for k, v in os.environ.items() if k not in ("DAGSTER_HOME", "ACEFORGE_ENTRIES")}
    config = small_disk.parent / "small.yaml"
    config.write_text("tasks: {n: 3}\nrollouts: {model_tasks: 0}\nlearner: {agent: perturbed, k: 2}\n")
    result = aceforge("run", "--config", config, env={**env, "ACEFORGE_HOME": str(home)}, timeout=900)
    assert result.returncode == 1
    lines = full_disk_line(result.stderr, home, "the data directory, ACEFORGE_HOME", "the run")
    # Before it: the run's progress lines, none of them an error, nothing of Dagster's storage.
    assert not [line for line in lines[:-1] if "error" in line.lower() or "exception" in line.lower()]
    assert lines[0].startswith("demo sources: 5 files") and ": FAILED" not in result.stderr
    assert not [p for p in home.rglob("*") if p.name.endswith(".tmp")]
