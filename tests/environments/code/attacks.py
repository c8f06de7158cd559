"""Hostile code for the sandbox (issues 18, 20 and 34), run as root and as an unprivileged user.

``run_attacks`` runs every attack through ``run_python`` and returns plain
results; the unprivileged run calls it in a child process started as uid
65534 (``python -m tests.environments.code.attacks HOME PORT MARKER``) and
reads its JSON from stdout.
"""

from __future__ import annotations

import json
import socket
import sys
import threading

from environments.code.config import SandboxLimits
from environments.code.sandbox import run_python

WRONG_ADD = "def add(a, b):\n    return 0\n"
ADD_TESTS = ["assert add(1, 2) == 3", "assert add(2, 2) == 4"]
# Pass events written every way the code can reach a descriptor: raw writes, fdopen, /proc/self/fd.
FORGE = """
import os, json
line = (json.dumps({"event": "test", "index": 0, "passed": True}) + "\\n"
        + json.dumps({"event": "test", "index": 1, "passed": True}) + "\\n" + json.dumps({"event": "done"}) + "\\n")
for fd in range(3, 64):
    try:
        os.write(fd, line.encode())
    except OSError:
        pass
    try:
        os.fdopen(fd, "w", closefd=False).write(line)
    except (OSError, ValueError):
        pass
"""
FORGE_PROC = """
import os, json
line = json.dumps({"event": "test", "index": 0, "passed": True}) + "\\n"
for name in os.listdir("/proc/self/fd"):
    try:
        with open("/proc/self/fd/" + name, "a") as f:
            f.write(line)
    except (OSError, ValueError, PermissionError):
        pass
"""
ALWAYS_EQUAL = (
    "class Yes(int):\n    def __eq__(self, other):\n        return True\n\ndef add(a, b):\n    return Yes(0)\n"
)
PROBE_SECRETS = (
    "import os\nprint(sorted(os.environ.items()))\n"
    "for pid in os.listdir('/proc'):\n    if pid.isdigit():\n"
    "        try:\n            print(open(f'/proc/{pid}/environ', 'rb').read())\n"
    "        except OSError as exc:\n            print(pid, exc.strerror)\n"
)


class Listener:
    """A TCP listener on 127.0.0.1 that counts the connections it accepts."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port, self.accepted, self.stopped = self.sock.getsockname()[1], 0, False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
                self.accepted += 1
                conn.close()
            except TimeoutError:
                continue

    def close(self):
        self.stopped = True
        self.thread.join()
        self.sock.close()


def connect_code(port: int) -> str:
    """Try the listener through the socket module, then through libc (past the audit hook)."""
    return f"""
import ctypes, socket, struct
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=2)
    print("module: connected")
except OSError as exc:
    print("module:", type(exc).__name__)
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.socket(2, 1, 0)
address = struct.pack("=H", 2) + struct.pack("!H4s8x", {port}, bytes([127, 0, 0, 1]))
print("libc:", libc.connect(fd, address, 16), ctypes.get_errno())
"""


def setsid_code(marker: str) -> str:
    """A grandchild in its own session that execs a sleeper whose command line carries ``marker``."""
    return f"""
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(120)  # {marker}"])
    os._exit(0)
time.sleep(0.5)
"""


DISK_FILL = """
written = 0
try:
    for i in range(64):
        with open(f"fill{i}", "wb") as f:
            for _ in range(16):
                f.write(b"x" * (1 << 20))
                written += 1
except OSError as exc:
    print(exc.strerror)
print("MiB", written)
"""
HOST_WRITES = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for path in (b"/usr/aceforge-escape", b"/escape", b"/task/../escape"):
    fd = libc.open(path, os.O_CREAT | os.O_WRONLY, 0o644)
    print(path.decode(), fd, os.strerror(ctypes.get_errno()))
"""
FORK_BOMB = "import os\nfor _ in range(100):\n    os.fork()\n"
FORK_COUNT = """
import os, time
children = 0
for _ in range(100):
    try:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        children += 1
    except OSError:
        pass
print(children)
"""
CTYPES_FORKS = """
import ctypes
libc = ctypes.CDLL(None)
for attempt in ("libc.fork()", "ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.cast(libc.fork, ctypes.c_void_p).value)()",
                "libc.syscall(57)"):
    try:
        print(attempt, eval(attempt))
    except PermissionError as exc:
        print(attempt, "refused")
"""

# Issue 34: system calls made from machine code (no libc function, so no ctypes look-up the audit hook sees), each
# with harmless arguments; x86_64 numbers. Raw results: -1 is -EPERM. Then getpid through the 32-bit gate (int 0x80).
RAW_SYSCALLS = {
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "keyctl": 250, "add_key": 248,
    "request_key": 249, "bpf": 321, "mount": 165, "umount2": 166, "pivot_root": 155, "unshare": 272, "setns": 308,
    "perf_event_open": 298, "kexec_load": 246, "init_module": 175, "userfaultfd": 323, "open_by_handle_at": 304,
    "io_uring_setup": 425, "seccomp": 317,
}  # fmt: skip
RAW_CALLS = f"""
import ctypes, mmap, os
SYSCALL = "4889f84889f74889d64889ca4d89c24d89c84c8b4c2408 0f05 c3"  # syscall(nr, a1..a6) without libc
INT80_GETPID = "b814000000 cd80 c3"
code = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
code.write(bytes.fromhex(SYSCALL + INT80_GETPID))
base = ctypes.addressof(ctypes.c_char.from_buffer(code))
syscall = ctypes.CFUNCTYPE(ctypes.c_long, *[ctypes.c_long] * 7)(base)
for name, nr in {RAW_SYSCALLS!r}.items():
    print(name, syscall(nr, 0, 0, 0, 0, 0, 0))
print("int80 getpid", ctypes.CFUNCTYPE(ctypes.c_int)(base + len(bytes.fromhex(SYSCALL)))() == os.getpid())
"""
# Issue 34: process creation past the audit hook: subprocess's own audit call silenced, so only
# _posixsubprocess.fork_exec runs, and the error caught.
SILENT_SUBPROCESS = """
import subprocess, sys
sys.audit = lambda *args: None
try:
    subprocess.run(["/usr/bin/true"])
    print("ran")
except OSError as exc:
    print(type(exc).__name__)
"""
# Issue 34: with child processes allowed, a child attaches to the runner (its parent) with ptrace.
PTRACE_PARENT = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
pid = os.fork()
if pid == 0:
    result = libc.ptrace(16, os.getppid(), 0, 0)  # PTRACE_ATTACH
    print("attach", result, ctypes.get_errno(), flush=True)
    os._exit(0)
os.waitpid(pid, 0)
"""


def run_attacks(home: str, port: int, marker: str) -> dict[str, dict]:
    fast = SandboxLimits(wall_s=10.0, cpu_s=3)
    runs = {
        "forge": run_python(WRONG_ADD + FORGE, ADD_TESTS, "add", limits=fast),
        "always_equal": run_python(ALWAYS_EQUAL, ADD_TESTS, "add", limits=fast),
        "forge_proc": run_python(WRONG_ADD + FORGE_PROC, ADD_TESTS, "add", limits=fast),
        "correct": run_python("def add(a, b):\n    return a + b\n", ADD_TESTS, "add", limits=fast),
        "secrets": run_python(PROBE_SECRETS, limits=fast),
        "network": run_python(connect_code(port), limits=fast),
        "home_token": run_python(f"print(open({home + '/token'!r}).read())\n", limits=fast),
        "passwd": run_python("print(open('/etc/passwd').read())\n", limits=fast),
        "host_writes": run_python(HOST_WRITES, limits=fast),
        "fork_bomb": run_python(FORK_BOMB, limits=fast),
        "ctypes_forks": run_python(CTYPES_FORKS, limits=fast),
        "fork_count": run_python(FORK_COUNT, limits=SandboxLimits(wall_s=10.0, cpu_s=3, max_processes=4)),
        "setsid": run_python(setsid_code(marker), limits=SandboxLimits(wall_s=10.0, cpu_s=3, max_processes=4)),
        "disk": run_python(DISK_FILL, limits=SandboxLimits(wall_s=20.0, cpu_s=10, disk_mb=8, file_size_mb=64)),
        "raw_syscalls": run_python(RAW_CALLS, limits=fast),
        "silent_subprocess": run_python(SILENT_SUBPROCESS, limits=fast),
        "ptrace_parent": run_python(PTRACE_PARENT, limits=SandboxLimits(wall_s=10.0, cpu_s=3, max_processes=4)),
    }
    return {name: result.to_dict() for name, result in runs.items()}


if __name__ == "__main__":
    print(json.dumps(run_attacks(sys.argv[1], int(sys.argv[2]), sys.argv[3])))
