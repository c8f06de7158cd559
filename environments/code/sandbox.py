"""Run untrusted Python in a subprocess sandbox and report what happened with a reason code.

Walls (kernel): wall-clock timeout with the whole process group killed, CPU
time (RLIMIT_CPU), address space (RLIMIT_AS), file size, open files, and, when
the caller is root, a private unused uid so that RLIMIT_NPROC binds and every
leftover process of that uid can be swept after the run, plus a private mount
namespace where every mount but the work directory is read-only; a new
network namespace (loopback only) where the platform allows it; a fresh
temporary directory as cwd, the only writable place. Reporting (audit hook in the child, sandbox_runner.py):
writes outside that directory, process creation and network calls are refused
and recorded. The design contains accidents and misbehaviour of generated
code; it is not a defence against code crafted to forge its own test report.

Status codes (``SandboxResult.status``), most serious first:
``timeout`` (wall or CPU), ``memory_limit``, ``process_limit``,
``write_denied``, ``network_denied``, ``output_limit``, ``crashed``,
``sandbox_error``, ``syntax_error``, ``missing_entry_point``,
``runtime_error``, ``tests_failed``, ``ok``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

RUNNER_SOURCE = (Path(__file__).with_name("sandbox_runner.py")).read_text()
STATUS_ORDER = (
    "timeout",
    "memory_limit",
    "process_limit",
    "write_denied",
    "network_denied",
    "output_limit",
    "crashed",
    "sandbox_error",
    "syntax_error",
    "missing_entry_point",
    "runtime_error",
    "tests_failed",
    "ok",
)
OUTPUT_EXCERPT = 4000
PRIVATE_UID_BASE = 200_000
PRIVATE_UID_SPAN = 100_000


@dataclass(frozen=True)
class SandboxLimits:
    wall_s: float = 10.0
    cpu_s: int = 5
    memory_mb: int = 512
    max_processes: int = 1  # 1: the runner alone, no child processes
    file_size_mb: int = 16
    open_files: int = 64
    network: bool = False


@dataclass
class SandboxResult:
    status: str
    tests_total: int = 0
    tests_passed: int = 0
    test_results: list[dict[str, Any]] = field(default_factory=list)
    violations: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    stdout: str = ""
    stderr: str = ""
    returncode: int | None = None
    wall_s: float = 0.0
    isolation: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def run_python(
    code: str,
    tests: list[str] | tuple[str, ...] = (),
    entry_point: str | None = None,
    setup: str = "",
    limits: SandboxLimits = SandboxLimits(),
) -> SandboxResult:
    """Run ``code`` (then each hidden test, if any) in a fresh sandbox; never raises for bad code."""
    workdir = Path(tempfile.mkdtemp(prefix="aceforge-sbx-"))
    private = Path(tempfile.mkdtemp(prefix="aceforge-sbx-io-"))  # 0700: the child only gets descriptors
    uid = _private_uid() if os.geteuid() == 0 else None
    try:
        if uid is not None:
            os.chown(workdir, uid, uid)
        payload = {
            "code": code,
            "tests": list(tests),
            "entry_point": entry_point,
            "setup": setup,
            "limits": asdict(limits),
            "uid": uid,
        }
        return _launch(payload, workdir, private, uid, limits)
    except OSError as exc:
        return SandboxResult(
            status="sandbox_error", errors=[{"kind": "sandbox_error", "detail": str(exc)}], tests_total=len(tests)
        )
    finally:
        if uid is not None:
            _kill_uid(uid)
        shutil.rmtree(workdir, ignore_errors=True)
        shutil.rmtree(private, ignore_errors=True)


def _launch(payload: dict, workdir: Path, private: Path, uid: int | None, limits: SandboxLimits) -> SandboxResult:
    files = {name: open(private / name, "w+b") for name in ("stdout", "stderr", "events")}  # noqa: SIM115  closed in finally
    python = _sandbox_python(uid is not None)
    env = {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "HOME": str(workdir),
        "TMPDIR": str(workdir),
    }
    started = time.monotonic()
    timed_out = False
    try:
        events_fd = files["events"].fileno()
        payload["result_fd"] = events_fd
        proc = subprocess.Popen(
            [python, "-I", "-S", "-B", "-c", RUNNER_SOURCE],
            stdin=subprocess.PIPE,
            stdout=files["stdout"],
            stderr=files["stderr"],
            cwd=workdir,
            env=env,
            start_new_session=True,
            pass_fds=(events_fd,),
        )
        try:
            proc.communicate(orjson.dumps(payload), timeout=limits.wall_s)
        except subprocess.TimeoutExpired:
            timed_out = True
        _kill_group(proc.pid)
        proc.wait()
        outputs = {name: _read_excerpt(f) for name, f in files.items() if name != "events"}
        size_cap = limits.file_size_mb * 1024 * 1024
        output_full = any(os.fstat(files[name].fileno()).st_size >= size_cap for name in ("stdout", "stderr"))
        files["events"].seek(0)
        events = [_parse_event(line) for line in files["events"].read().splitlines() if line.strip()]
    finally:
        for f in files.values():
            f.close()
    result = _interpret(events, proc.returncode, timed_out, len(payload["tests"]))
    if output_full:  # the child hit RLIMIT_FSIZE on its own output
        result.status = min(result.status, "output_limit", key=STATUS_ORDER.index)
    result.stdout, result.stderr = outputs["stdout"], outputs["stderr"]
    result.wall_s = round(time.monotonic() - started, 4)
    return result


def _interpret(events: list[dict], returncode: int | None, timed_out: bool, n_tests: int) -> SandboxResult:
    result = SandboxResult(status="ok", tests_total=n_tests, returncode=returncode)
    kinds: set[str] = set()
    for event in events:
        kind = event.get("event")
        if kind == "setup":
            result.isolation = {k: v for k, v in event.items() if k != "event"}
        elif kind == "violation":
            result.violations.append({"kind": event["kind"], "detail": event.get("detail", "")})
            kinds.add(event["kind"])
        elif kind == "error":
            result.errors.append({"kind": event["kind"], "detail": event.get("detail", "")})
            kinds.add(event["kind"])
        elif kind == "test":
            result.test_results.append({k: v for k, v in event.items() if k != "event"})
    result.tests_passed = sum(1 for t in result.test_results if t.get("passed"))
    cpu_killed = returncode in (-signal.SIGXCPU, -signal.SIGKILL) and not timed_out
    if timed_out or cpu_killed:
        kinds.add("timeout")
        result.isolation["limit_hit"] = "wall" if timed_out else "cpu"
    if not any(e.get("event") == "done" for e in events) and not kinds:
        kinds.add("crashed")
    if n_tests and result.tests_passed < n_tests:
        kinds.add("tests_failed")
    result.status = next((s for s in STATUS_ORDER if s in kinds), "ok")
    return result


def _parse_event(line: bytes) -> dict:
    try:
        event = orjson.loads(line)
        return event if isinstance(event, dict) else {}
    except orjson.JSONDecodeError:
        return {}  # a line user code wrote into the descriptor: ignored, not trusted


def _read_excerpt(f) -> str:
    f.seek(0)
    data = f.read(OUTPUT_EXCERPT + 1)
    text = data[:OUTPUT_EXCERPT].decode("utf-8", errors="replace")
    return text + ("…" if len(data) > OUTPUT_EXCERPT else "")


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _uid_pids(uid: int) -> list[int]:
    """Live (not zombie) processes whose real uid is ``uid``."""
    pids = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", "rb") as f:
                fields = dict(line.split(b":", 1) for line in f if line[:4] in (b"Stat", b"Uid:"))
        except (OSError, ValueError):
            continue
        live = not fields.get(b"State", b"").strip().startswith((b"Z", b"X"))
        if live and int(fields.get(b"Uid", b"-1 ").split()[0]) == uid:
            pids.append(int(entry.name))
    return pids


def _kill_uid(uid: int) -> None:
    """Kill whatever still runs as the private uid (a child that left the process group)."""
    if not os.path.isdir("/proc"):
        return
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:  # a process may fork between the scan and the kill
        pids = _uid_pids(uid)
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)


def _private_uid() -> int:
    while True:
        uid = PRIVATE_UID_BASE + secrets.randbelow(PRIVATE_UID_SPAN)
        if not _uid_pids(uid):
            return uid


def _world_accessible(path: str) -> bool:
    """True when a process of any uid can reach and run ``path`` (every parent searchable)."""
    p = Path(path)
    if not p.exists() or not os.stat(p).st_mode & stat.S_IXOTH:
        return False
    return all(os.stat(parent).st_mode & stat.S_IXOTH for parent in p.parents)


def _sandbox_python(dropping_privileges: bool) -> str:
    """The interpreter for the child: the caller's own unless a private uid could not import its stdlib.

    The child starts as root and drops to the private uid before running user
    code, whose imports (``math`` is a shared library) must then still load.
    """
    if not dropping_privileges:
        return sys.executable
    candidates = [os.path.realpath(sys.executable), "/usr/bin/python3", "/usr/local/bin/python3"]
    for candidate in candidates:
        if _world_accessible(candidate):
            return candidate
    raise OSError("no Python interpreter reachable by an unprivileged uid")
