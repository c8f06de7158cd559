"""Run untrusted Python in a sandbox and report what happened with a reason code.

Two sandboxed processes per run with tests (sandbox_runner.py): the
*solution* runs the untrusted code and answers calls to its functions; the
*harness*, a separate process in its own sandbox, runs the hidden tests
against proxies of those functions, on plain data. Test results are read only
from the harness's own descriptor, which the solution never has, so code
under test cannot forge its report: it can only return values. Without tests
(the agent's ``run_python`` tool) the solution runs alone.

Walls (isolation.py): bubblewrap namespaces (no network, read-only
filesystem but the size-limited task folder, no /etc or home folders, every
process killed with the sandbox), a seccomp filter (syscall_filter.py:
ptrace, mount, bpf and the like fail with EPERM, each recorded by a thread
here), kernel resource limits (CPU, address space, processes, file size,
open files) and a wall-clock timeout. When no
isolation can be had, code is refused (status ``sandbox_error``) unless the
operator allows running without it (environments/code/config.py). The
limits are the operator's; a record can only ask for lower ones.

What comes back is bounded and scrubbed (``scrub``): output excerpts of
``OUTPUT_EXCERPT`` characters, absolute paths outside the task folder
replaced by ``<path>``, so evidence that is exported names nothing of the
machine it ran on.

Status codes (``SandboxResult.status``), most serious first:
``timeout`` (wall or CPU), ``memory_limit``, ``process_limit``,
``syscall_denied``, ``write_denied``, ``network_denied``, ``output_limit``, ``crashed``,
``sandbox_error``, ``syntax_error``, ``missing_entry_point``,
``runtime_error``, ``tests_failed``, ``ok``.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

from environments.code.config import SandboxLimits, sandbox_config
from environments.code.isolation import (
    CHILD_ENV,
    Isolation,
    SandboxUnavailable,
    choose_isolation,
    private_uid,
    uid_pids,
    user_kwargs,
)
from environments.code.syscall_filter import Supervisor, compiled_filter

RUNNER_SOURCE = (Path(__file__).with_name("sandbox_runner.py")).read_text()
STATUS_ORDER = (
    "timeout",
    "memory_limit",
    "process_limit",
    "syscall_denied",
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
DETAIL_EXCERPT = 300
MAX_ENTRIES = 20  # violations, errors
KILLED = {-signal.SIGXCPU, -signal.SIGKILL, 128 + signal.SIGXCPU, 128 + signal.SIGKILL}  # bwrap adds 128
_ABSOLUTE_PATH = re.compile(r"(?<![\w.~-])/[\w.~+-][^\s'\"`:,;()<>\[\]{}|]*")


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


@dataclass
class _Process:
    role: str
    proc: subprocess.Popen
    uid: int | None
    events: Any  # the open events file
    stdout: Any
    stderr: Any
    workdir: str | None  # a real folder to remove afterwards (unisolated runs only)
    supervisor: Supervisor | None  # answers (and records) the calls the seccomp filter refuses


def run_python(
    code: str,
    tests: list[str] | tuple[str, ...] = (),
    entry_point: str | None = None,
    setup: str = "",
    limits: SandboxLimits | None = None,
) -> SandboxResult:
    """Run ``code`` (then each hidden test, if any) in a fresh sandbox; never raises for bad code.

    ``limits`` defaults to the operator's (``sandbox_config().limits``); callers pass lower ones only.
    """
    config = sandbox_config()
    limits = limits or config.limits
    try:
        isolation = choose_isolation(config.allow_unisolated)
    except SandboxUnavailable as exc:
        return SandboxResult(
            status="sandbox_error", errors=[{"kind": "sandbox_error", "detail": str(exc)}], tests_total=len(tests)
        )
    job = {"code": code, "tests": list(tests), "entry_point": entry_point, "setup": setup}
    with tempfile.TemporaryDirectory(prefix="aceforge-sbx-io-") as private:  # 0700: children get descriptors only
        try:
            return _run(job, limits, isolation, Path(private))
        except OSError as exc:
            return SandboxResult(
                status="sandbox_error", errors=[{"kind": "sandbox_error", "detail": str(exc)}], tests_total=len(tests)
            )


def _run(job: dict, limits: SandboxLimits, isolation: Isolation, private: Path) -> SandboxResult:
    serve = bool(job["tests"])
    ends = [*os.pipe(), *os.pipe()] if serve else [-1, -1, -1, -1]
    calls_r, calls_w, replies_r, replies_w = ends  # harness -> solution calls; solution -> harness replies
    processes: list[_Process] = []
    started = time.monotonic()
    timed_out = False
    try:
        solution_job = {"role": "solution", "code": job["code"], "entry_point": job["entry_point"], "serve": serve}
        solution_job.update(calls_fd=calls_r, replies_fd=replies_w, max_processes=limits.max_processes)
        processes.append(_start(solution_job, limits, isolation, private, (calls_r, replies_w)))
        if serve:
            harness_job = {"role": "harness", "tests": job["tests"], "setup": job["setup"]}
            harness_job.update(calls_fd=calls_w, replies_fd=replies_r)
            processes.append(_start(harness_job, limits, isolation, private, (calls_w, replies_r)))
        _close(ends)  # only the children hold the pipes now: one side's exit is the other's end of file
        deadline = started + limits.wall_s
        for p in reversed(processes):  # the harness first: the solution ends when the harness hangs up
            if not _wait(p.proc, max(0.0, deadline - time.monotonic())):
                timed_out = True
                break
        result = _collect(processes, limits, isolation, timed_out, len(job["tests"]))
    finally:
        _close(ends)
        for p in processes:
            _stop(p)
    result.wall_s = round(time.monotonic() - started, 4)
    return result


def _wait(proc: subprocess.Popen, timeout: float) -> bool:
    """True when ``proc`` exited within ``timeout`` seconds. Woken by the exit itself through a pidfd, where
    ``Popen.wait(timeout)`` sleeps in steps of up to 50 ms (a run's wall time came in steps of them)."""
    try:
        pidfd = os.pidfd_open(proc.pid)
    except OSError:  # already reaped, or a kernel without pidfds
        try:
            proc.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            return False
    try:
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        exited = bool(poller.poll(timeout * 1000))
    finally:
        os.close(pidfd)
    if exited:
        proc.wait()
    return exited


def _close(fds: list[int]) -> None:
    for i, fd in enumerate(fds):
        if fd >= 0:
            os.close(fd)
            fds[i] = -1


def _start(job: dict, limits: SandboxLimits, isolation: Isolation, private: Path, fds: tuple[int, ...]) -> _Process:
    role = job["role"]
    uid = private_uid() if os.geteuid() == 0 else None
    files = {name: open(private / f"{role}.{name}", "w+b") for name in ("events", "stdout", "stderr")}  # noqa: SIM115
    job_file = private / f"{role}.json"
    supervisor, runner_end = _supervise(job, limits, isolation)
    pass_fds = (
        files["events"].fileno(),
        *(fd for fd in fds if fd >= 0),
        *([runner_end.fileno()] if runner_end else []),
    )
    try:
        job_file.write_bytes(orjson.dumps({**job, "limits": limits.model_dump(), "events_fd": pass_fds[0]}))
        workdir = isolation.workdir()
        if workdir is None:  # unisolated: a real folder, the private uid's own
            workdir = tempfile.mkdtemp(prefix=f"aceforge-sbx-{role}-")
            if uid is not None:
                os.chown(workdir, uid, uid)
        with open(job_file, "rb") as stdin:
            proc = subprocess.Popen(
                isolation.argv(RUNNER_SOURCE, limits.disk_mb),
                stdin=stdin,
                stdout=files["stdout"],
                stderr=files["stderr"],
                cwd=workdir if isolation.bwrap is None else "/",
                env={**CHILD_ENV, "HOME": workdir, "TMPDIR": workdir},
                start_new_session=True,
                pass_fds=pass_fds,
                **user_kwargs(uid),
            )
    except BaseException:
        if supervisor is not None:
            supervisor.finish(0)
        raise
    finally:
        if runner_end is not None:
            runner_end.close()  # the runner holds it now: the runner's exit is the supervisor's end of file
    own_folder = workdir if isolation.bwrap is None else None
    return _Process(role, proc, uid, files["events"], files["stdout"], files["stderr"], own_folder, supervisor)


def _supervise(job: dict, limits: SandboxLimits, isolation: Isolation) -> tuple[Supervisor | None, Any]:
    """The supervisor of this process's seccomp filter, and the socket end through which the runner sends it the
    listener (described in ``job`` for the runner); (None, None) without the filter."""
    if not isolation.syscall_filter:
        return None, None
    allow_processes = job["role"] == "solution" and limits.max_processes > 1
    ours, runner_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    job["syscall_filter"] = compiled_filter(allow_processes).for_runner(runner_end.fileno())
    supervisor = Supervisor(ours, allow_processes)
    supervisor.start()
    return supervisor, runner_end


def _stop(p: _Process) -> None:
    _stop_group(p)
    if p.uid is not None:
        _kill_uid(p.uid)
    if p.supervisor is not None:
        p.supervisor.finish(0)
    for f in (p.events, p.stdout, p.stderr):
        f.close()
    if p.workdir:
        shutil.rmtree(p.workdir, ignore_errors=True)


def _collect(
    processes: list[_Process], limits: SandboxLimits, isolation: Isolation, timed_out: bool, n_tests: int
) -> SandboxResult:
    for p in processes:
        _stop_group(p)
    solution, harness = processes[0], (processes[1] if len(processes) > 1 else None)
    workdir = isolation.workdir() or solution.workdir or ""
    events = {p.role: _events(p.events) + (p.supervisor.finish() if p.supervisor else []) for p in processes}
    result = _interpret(events, {p.role: p.proc.returncode for p in processes}, timed_out, n_tests)
    size_cap = limits.file_size_mb * 1024 * 1024
    if any(os.fstat(f.fileno()).st_size >= size_cap for f in (solution.stdout, solution.stderr)):
        result.status = min(result.status, "output_limit", key=STATUS_ORDER.index)  # RLIMIT_FSIZE on its output
    result.stdout = scrub(_read_excerpt(solution.stdout), workdir, OUTPUT_EXCERPT)
    result.stderr = scrub(_read_excerpt(solution.stderr), workdir, OUTPUT_EXCERPT)
    for entry in result.violations + result.errors:
        entry["detail"] = scrub(str(entry.get("detail", "")), workdir, DETAIL_EXCERPT)
    for test in result.test_results:
        if "error" in test:
            test["error"] = scrub(str(test["error"]), workdir, DETAIL_EXCERPT)
    result.isolation.update(
        mode=isolation.mode, uid=solution.uid, harness=harness is not None, syscall_filter=isolation.syscall_filter
    )
    return result


def _stop_group(p: _Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(p.proc.pid, signal.SIGKILL)
    p.proc.wait()


def _interpret(events: dict[str, list[dict]], returncodes: dict[str, int], timed_out: bool, n_tests: int):
    """The verdict: passes from the harness's events only; violations and errors from either process."""
    result = SandboxResult(status="ok", tests_total=n_tests, returncode=returncodes["solution"])
    kinds: set[str] = set()
    for role, role_events in events.items():
        for event in role_events:
            kind = event.get("event")
            if kind in ("violation", "error") and isinstance(event.get("kind"), str):
                target = result.violations if kind == "violation" else result.errors
                if len(target) < MAX_ENTRIES:
                    target.append({"kind": event["kind"], "detail": event.get("detail", "")})
                kinds.add(event["kind"] if event["kind"] in STATUS_ORDER else "crashed")
            elif kind == "test" and role == "harness" and isinstance(event.get("index"), int):
                result.test_results.append({k: v for k, v in event.items() if k in ("index", "passed", "error")})
    result.tests_passed = len({t["index"] for t in result.test_results if t.get("passed") is True})
    cpu_killed = any(code in KILLED for code in returncodes.values()) and not timed_out
    if timed_out or cpu_killed:
        kinds.add("timeout")
        result.isolation["limit_hit"] = "wall" if timed_out else "cpu"
    if not kinds and not all(any(e.get("event") == "done" for e in evs) for evs in events.values()):
        kinds.add("crashed")
    if n_tests and result.tests_passed < n_tests:
        kinds.add("tests_failed")
    result.status = next((s for s in STATUS_ORDER if s in kinds), "ok")
    return result


def _events(f) -> list[dict]:
    f.seek(0)
    return [_parse_event(line) for line in f.read(4 * 1024 * 1024).splitlines() if line.strip()]


def _parse_event(line: bytes) -> dict:
    try:
        event = orjson.loads(line)
        return event if isinstance(event, dict) else {}
    except orjson.JSONDecodeError:
        return {}  # a line the process's own code wrote into its descriptor: ignored


def _read_excerpt(f) -> str:
    f.seek(0)
    data = f.read(OUTPUT_EXCERPT + 1)
    text = data[:OUTPUT_EXCERPT].decode("utf-8", errors="replace")
    return text + ("…" if len(data) > OUTPUT_EXCERPT else "")


def scrub(text: str, workdir: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, every absolute path outside ``workdir`` replaced by ``<path>``."""

    def redact(match: re.Match) -> str:
        path = match.group(0)
        inside = workdir and (path == workdir or path.startswith(workdir.rstrip("/") + "/"))
        return path if inside or path == "/dev/null" else "<path>"

    text = _ABSOLUTE_PATH.sub(redact, text)
    return text if len(text) <= limit else text[:limit] + "…"


def _kill_uid(uid: int) -> None:
    """Kill whatever still runs as the private uid (a child that left the process group)."""
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:  # a process may fork between the scan and the kill
        pids = uid_pids(uid)
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)
