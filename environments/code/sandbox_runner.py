"""The program that runs inside the sandbox child (stdlib only, no package imports).

The parent (sandbox.py) starts ``python -I -S -c <this file's text>`` in a fresh
session with the work directory as cwd, and sends one JSON object on stdin:
limits, the code, optional hidden tests, and the number of the file descriptor
for result events. This program then, in order:

1. isolates itself while it still may: a new network namespace (loopback only),
   and, when started as root, a private mount namespace in which every mount
   but the work directory is read-only; resource limits (CPU, address space,
   processes, file size, open files); when root, a drop to an unused uid/gid;
2. installs an audit hook that refuses writes outside the work directory,
   process creation and network access, and records each refusal;
3. runs the code, then each hidden test, writing one JSON event per line.

The audit hook is the reporting layer; the kernel limits are the walls (a
caller of libc through ctypes passes the hook but not RLIMIT_NPROC, the uid,
the read-only mounts or the empty network namespace).
"""

import json
import os
import re
import resource
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
KEPT_MOUNT_FLAGS = {"nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC}

SPAWN_EVENTS = frozenset(
    {"os.fork", "os.forkpty", "os.posix_spawn", "os.exec", "os.spawn", "os.system", "subprocess.Popen", "pty.spawn"}
)
NETWORK_EVENTS = frozenset(
    {
        "socket.connect",
        "socket.bind",
        "socket.sendto",
        "socket.sendmsg",
        "socket.getaddrinfo",
        "socket.gethostbyname",
        "socket.gethostbyname_ex",
        "socket.gethostbyaddr",
        "socket.getnameinfo",
    }
)
# Audit events whose path arguments (by position) are written to.
PATH_WRITE_EVENTS = {
    "os.remove": (0,),
    "os.rmdir": (0,),
    "os.mkdir": (0,),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.truncate": (0,),
    "os.utime": (0,),
    "os.rename": (0, 1),
    "os.link": (1,),
    "os.symlink": (1,),
    "shutil.rmtree": (0,),
    "shutil.copyfile": (1,),
    "shutil.copytree": (1,),
    "shutil.move": (0, 1),
}
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
ALLOWED_WRITE_PATHS = frozenset({"/dev/null"})


def isolate(cfg):
    """Cut the network, set the kernel limits and drop privileges; report what held."""
    report = {"net_isolated": False, "fs_readonly": False, "uid": os.getuid(), "nproc_limit": False}
    if not cfg["limits"]["network"]:
        report["net_isolated"] = _unshare_network()
    if os.geteuid() == 0:
        report["fs_readonly"] = _read_only_filesystem(os.path.realpath(os.getcwd()))
    limits = cfg["limits"]
    cpu = int(limits["cpu_s"])
    memory = int(limits["memory_mb"]) * 1024 * 1024
    fsize = int(limits["file_size_mb"]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["open_files"], limits["open_files"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    uid = cfg.get("uid")
    if uid is not None:
        # RLIMIT_NPROC counts per uid and never binds root, hence the private uid.
        nproc = int(limits["max_processes"])
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
        report.update(uid=uid, nproc_limit=True)
    return report


def _unshare_network():
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        flags = CLONE_NEWNET if os.geteuid() == 0 else CLONE_NEWUSER | CLONE_NEWNET
        return libc.unshare(flags) == 0
    except (OSError, AttributeError):
        return False


def _read_only_filesystem(workdir):
    """In a private mount namespace, remount everything read-only except the work directory."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]
        work = workdir.encode()
        if (
            libc.unshare(CLONE_NEWNS) != 0
            or libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0
            or libc.mount(work, work, None, MS_BIND, None) != 0
        ):
            return False
        with open("/proc/self/mountinfo") as f:
            mounts = [line.split() for line in f]
        for fields in mounts:
            target = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
            if target == workdir:
                continue
            kept = sum(KEPT_MOUNT_FLAGS.get(option, 0) for option in fields[5].split(","))
            if libc.mount(None, target.encode(), None, MS_BIND | MS_REMOUNT | MS_RDONLY | kept, None) != 0:
                return False
        os.chdir(workdir)  # the old cwd is the directory under the bind mount, on a now read-only mount
        return True
    except (OSError, AttributeError):
        return False


def make_hook(workdir, allow_spawn, allow_network, record):
    root = os.path.realpath(workdir)

    def inside(path):
        if isinstance(path, int):
            return True  # an already-open descriptor
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        full = os.path.realpath(os.path.join(root, os.fspath(path)))
        return full == root or full.startswith(root + os.sep) or full in ALLOWED_WRITE_PATHS

    def hook(event, args):
        if event == "open":
            path, mode, flags = args
            writing = (mode is not None and any(c in str(mode) for c in "wax+")) or bool((flags or 0) & WRITE_FLAGS)
            if writing and not inside(path):
                record("write_denied", f"open {path!r}")
        elif event in PATH_WRITE_EVENTS:
            for i in PATH_WRITE_EVENTS[event]:
                if i < len(args) and args[i] is not None and not inside(args[i]):
                    record("write_denied", f"{event} {args[i]!r}")
        elif event in SPAWN_EVENTS and not allow_spawn:
            record("process_limit", event)
        elif event in NETWORK_EVENTS and not allow_network:
            record("network_denied", f"{event} {args[1:2]!r}" if len(args) > 1 else event)

    return hook


def run_code(cfg, emit):
    main_pid = os.getpid()
    ns = {"__name__": "__main__" if not cfg["tests"] else "__solution__"}
    stage = "solution"
    try:
        exec(compile(cfg["code"], "<solution>", "exec"), ns)
        if cfg.get("entry_point") and not callable(ns.get(cfg["entry_point"])):
            emit(event="error", kind="missing_entry_point", detail=cfg["entry_point"])
            return
        stage = "setup"
        if cfg.get("setup"):
            exec(compile(cfg["setup"], "<setup>", "exec"), ns)
    except SyntaxError as exc:
        emit(event="error", kind="syntax_error", detail=f"{stage}: {exc}")
        return
    except MemoryError:
        emit(event="error", kind="memory_limit", detail=stage)
        return
    except BaseException as exc:  # user code may raise anything, SystemExit included
        _exit_if_forked(main_pid)
        emit(event="error", kind="runtime_error", detail=f"{stage}: {type(exc).__name__}: {exc}"[:500])
        return
    for index, test in enumerate(cfg["tests"]):
        run_one_test(index, test, ns, main_pid, emit)


def run_one_test(index, test, ns, main_pid, emit):
    try:
        exec(compile(test, f"<test {index}>", "exec"), ns)
        _exit_if_forked(main_pid)
        emit(event="test", index=index, passed=True)
    except MemoryError:
        emit(event="test", index=index, passed=False, error="MemoryError")
        emit(event="error", kind="memory_limit", detail=f"test {index}")
    except BaseException as exc:
        _exit_if_forked(main_pid)
        emit(event="test", index=index, passed=False, error=f"{type(exc).__name__}: {exc}"[:300])


def _exit_if_forked(main_pid):
    # A child forked behind the hook's back must not report as if it were the runner.
    if os.getpid() != main_pid:
        os._exit(0)


def main():
    cfg = json.loads(sys.stdin.read())
    sys.stdin.close()
    out = os.fdopen(cfg["result_fd"], "w", buffering=1)

    def emit(**event):
        out.write(json.dumps(event) + "\n")
        out.flush()

    def record(kind, detail):
        emit(event="violation", kind=kind, detail=detail[:300])
        raise PermissionError(f"sandbox: {kind}: {detail}")

    try:
        emit(event="setup", **isolate(cfg))
    except OSError as exc:
        emit(event="error", kind="sandbox_error", detail=f"isolation failed: {exc}")
        return
    limits = cfg["limits"]
    sys.addaudithook(make_hook(os.getcwd(), limits["max_processes"] > 1, limits["network"], record))
    run_code(cfg, emit)
    emit(event="done")


if __name__ == "__main__":
    main()
