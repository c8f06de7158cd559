"""How a sandbox process is started: inside bubblewrap, or (only if the operator allows it) without.

Bubblewrap (Debian's ``bwrap``) gives every process its own user, pid, network,
IPC, UTS and mount namespaces, the same way whether aceforge runs as root or
not: a root caller first drops to a private unused uid, so bubblewrap always
runs unprivileged and RLIMIT_NPROC binds. Inside, the filesystem is ``/usr``
(and the interpreter's own prefix) read-only, a private ``/proc`` and ``/dev``,
and the task folder ``/task``, a size-limited tmpfs and the only writable
place; ``/etc``, the home folders, the data directory and ``/tmp`` are not
there. No network but loopback; no new user namespaces; when the sandbox's
first process exits, the kernel kills every process left in its pid
namespace, and a dying aceforge takes the sandbox with it.

Every sandbox process also runs under a seccomp filter (syscall_filter.py)
that refuses, and records, system calls such as ptrace, mount or bpf.

When bubblewrap or libseccomp is missing or cannot start, code is refused
(``SandboxUnavailable``) unless the operator set ``allow_unisolated``; then a
process runs with resource limits, the audit hook, a private uid (when root)
and the seccomp filter (where libseccomp is there) only.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from environments.code.syscall_filter import filter_problem

TASK_DIR = "/task"
PRIVATE_UID_BASE = 200_000
PRIVATE_UID_SPAN = 100_000
CHILD_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}
USR_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


class SandboxUnavailable(RuntimeError):
    """No isolation can be had here and the operator did not allow running code without it."""


@dataclass(frozen=True)
class Isolation:
    mode: str  # "bubblewrap" | "unisolated"
    python: str  # the interpreter every sandbox process runs
    bwrap: str | None = None
    syscall_filter: bool = True  # the seccomp filter is loaded in every sandbox process

    def argv(self, runner_source: str, disk_mb: int) -> list[str]:
        python = [self.python, "-I", "-S", "-B", "-c", runner_source]
        if self.bwrap is None:
            return python
        return [self.bwrap, *bwrap_options(self.python, disk_mb), *python]

    def workdir(self) -> str | None:
        """The task folder as the child sees it (None: a real temporary folder, made by the caller)."""
        return TASK_DIR if self.bwrap is not None else None


def choose_isolation(allow_unisolated: bool) -> Isolation:
    """Bubblewrap when it works here; otherwise refuse, or (operator's opt-out) run without it."""
    dropping = os.geteuid() == 0
    python = sandbox_python(dropping)
    bwrap = shutil.which("bwrap")
    problem = "bubblewrap (bwrap) is not installed" if bwrap is None else bwrap_problem(bwrap, python, dropping)
    no_filter = filter_problem()
    if problem is None and no_filter is None:
        return Isolation("bubblewrap", python, bwrap)
    if allow_unisolated:
        return Isolation("unisolated", python, syscall_filter=no_filter is None)
    raise SandboxUnavailable(
        f"{problem or no_filter}: refusing to run untrusted code without isolation (install bubblewrap and "
        "libseccomp, e.g. `apt-get install bubblewrap libseccomp2`, or set allow_unisolated: true in "
        "$ACEFORGE_SANDBOX_CONFIG)"
    )


def bwrap_options(python: str, disk_mb: int) -> list[str]:
    options = ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session"]
    options += ["--clearenv", *(arg for key, value in CHILD_ENV.items() for arg in ("--setenv", key, value))]
    options += ["--setenv", "HOME", TASK_DIR, "--setenv", "TMPDIR", TASK_DIR]
    options += ["--ro-bind", "/usr", "/usr"]
    for path in USR_LINKS:
        if os.path.islink(path):
            options += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            options += ["--ro-bind", path, path]
    prefix = str(Path(python).parent.parent)
    if not prefix.startswith("/usr/"):
        options += ["--ro-bind", prefix, prefix]
    options += ["--dev", "/dev", "--proc", "/proc", "--size", str(disk_mb * 1024 * 1024), "--tmpfs", TASK_DIR]
    return options + ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", TASK_DIR]


@lru_cache(maxsize=4)
def bwrap_problem(bwrap: str, python: str, dropping: bool) -> str | None:
    """None when bubblewrap starts a process here (checked once per process), else what went wrong."""
    probe_uid = private_uid() if dropping else None
    try:
        done = subprocess.run(
            [bwrap, *bwrap_options(python, 1), python, "-I", "-S", "-c", "pass"],
            capture_output=True,
            timeout=30,
            env=dict(CHILD_ENV),
            **user_kwargs(probe_uid),
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap cannot start: {exc}"
    if done.returncode != 0:
        return f"bubblewrap cannot start here: {done.stderr.decode(errors='replace').strip()[:300]}"
    return None


def user_kwargs(uid: int | None) -> dict:
    """Popen arguments that run the child as ``uid`` (its own group, no supplementary groups)."""
    return {} if uid is None else {"user": uid, "group": uid, "extra_groups": []}


def private_uid() -> int:
    while True:
        uid = PRIVATE_UID_BASE + secrets.randbelow(PRIVATE_UID_SPAN)
        if not uid_pids(uid):
            return uid


def uid_pids(uid: int) -> list[int]:
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


def _world_accessible(path: str) -> bool:
    """True when a process of any uid can reach and run ``path`` (every parent searchable)."""
    p = Path(path)
    if not p.exists() or not os.stat(p).st_mode & stat.S_IXOTH:
        return False
    return all(os.stat(parent).st_mode & stat.S_IXOTH for parent in p.parents)


def sandbox_python(dropping_privileges: bool) -> str:
    """The interpreter for the children: the caller's own unless a private uid could not reach it.

    Sandbox processes import nothing but the standard library, so any Python 3.11 will do.
    """
    candidates = [os.path.realpath(sys.executable)]
    if dropping_privileges:
        candidates += [os.path.realpath("/usr/bin/python3"), os.path.realpath("/usr/local/bin/python3")]
    for candidate in candidates:
        if not dropping_privileges or _world_accessible(candidate):
            return candidate
    raise SandboxUnavailable("no Python interpreter reachable by an unprivileged uid")
