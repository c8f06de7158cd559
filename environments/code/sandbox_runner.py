"""The program inside each sandbox process (stdlib only, no package imports).

The parent (sandbox.py) starts it as ``python -I -S -B -c <this text>`` with one
JSON object on stdin; ``role`` says which of two processes it is:

- ``solution`` runs the untrusted code: it sets its resource limits, loads
  aceforge's seccomp filter (syscall_filter.py: refused system calls are
  answered, and recorded, by aceforge itself), installs an audit hook that
  refuses (and records) writes outside its folder, process creation and
  network calls, runs the code, and then, when there
  are tests, serves calls to the code's functions: requests come in on one
  pipe, plain-data results (or the exception raised) go back on another.
- ``harness`` runs the hidden tests, in a separate sandbox. The solution's
  functions are proxies there: a call sends its arguments to the solution
  and turns the reply back into builtin values (``decode`` builds nothing
  else), so every ``assert`` is evaluated here, on plain data, and an object
  whose ``__eq__`` always says yes cannot cross. Only the harness holds the
  descriptor of the test results; the solution never has it. It has the
  same limits, filter (no child processes) and hook.

Both write one JSON event per line to their own event descriptor. The parent
counts passed tests only from the harness's events; the solution's events can
only add violations and errors, never passes.
"""

import base64
import builtins
import contextlib
import json
import os
import resource
import sys

MAX_LINE = 8 * 1024 * 1024  # one message between solution and harness
MAX_DEPTH = 200
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
# libc functions that make processes (or any system call): looking one up through ctypes is refused and recorded.
PROCESS_SYMBOLS = ("fork", "vfork", "_Fork", "__fork", "clone", "clone3", "execve", "execv", "execvp", "execvpe")
PROCESS_SYMBOLS += ("fexecve", "posix_spawn", "posix_spawnp", "system", "popen", "daemon", "syscall")
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
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_SET_MODE_FILTER = 1
SECCOMP_FILTER_FLAG_NEW_LISTENER = 1 << 3


# -- plain data between the two processes -------------------------------------------------------------------------


def encode(value, depth=0):
    """JSON for builtin data; containers and non-JSON types as one-key tagged objects."""
    if depth > MAX_DEPTH:
        raise TypeError("value nested too deeply to send")
    if value is None or value is True or value is False:
        return value
    for kind, convert in ((int, int), (float, float), (str, str)):
        if isinstance(value, kind):
            return convert(value)
    if isinstance(value, bytes | bytearray):
        tag = "ba" if isinstance(value, bytearray) else "b"
        return {tag: base64.b64encode(bytes(value)).decode()}
    if isinstance(value, complex):
        return {"c": [value.real, value.imag]}
    if isinstance(value, dict):
        return {"d": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in dict.items(value)]}
    for kind, tag in ((list, "l"), (tuple, "t"), (set, "s"), (frozenset, "fs")):
        if isinstance(value, kind):
            return {tag: [encode(item, depth + 1) for item in kind.__iter__(value)]}
    raise TypeError(f"a {type(value).__name__} cannot be sent between the solution and the tests")


def decode(data, depth=0):
    """Builtin values only, whatever the bytes say; anything else raises ValueError."""
    if depth > MAX_DEPTH:
        raise ValueError("value nested too deeply")
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is not dict or len(data) != 1:
        raise ValueError("not an encoded value")
    ((tag, body),) = data.items()
    items = body if type(body) is list else None
    if tag in ("b", "ba") and type(body) is str:
        raw = base64.b64decode(body.encode(), validate=True)
        return raw if tag == "b" else bytearray(raw)
    if tag == "c" and items is not None and len(items) == 2 and all(type(x) in (int, float) for x in items):
        return complex(items[0], items[1])
    if tag == "d" and items is not None:
        if not all(type(pair) is list and len(pair) == 2 for pair in items):
            raise ValueError("bad dict encoding")
        return {decode(k, depth + 1): decode(v, depth + 1) for k, v in items}
    kinds = {"l": list, "t": tuple, "s": set, "fs": frozenset}
    if tag in kinds and items is not None:
        return kinds[tag](decode(item, depth + 1) for item in items)
    raise ValueError(f"unknown encoding {tag!r}")


class Channel:
    def __init__(self, read_fd, write_fd):
        self.reader = os.fdopen(read_fd, "rb")
        self.writer = os.fdopen(write_fd, "wb")

    def send(self, message):
        self.writer.write(json.dumps(message).encode() + b"\n")
        self.writer.flush()

    def receive(self):
        """The next message (a dict), or None at the end of the stream or on a line that is not one."""
        line = self.reader.readline(MAX_LINE + 1)
        if not line or len(line) > MAX_LINE:
            return None
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            return None
        return message if isinstance(message, dict) else None


# -- walls and reporting --------------------------------------------------------------------------------------------


def set_limits(limits, max_processes):
    cpu = int(limits["cpu_s"])
    memory = int(limits["memory_mb"]) * 1024 * 1024
    fsize = int(limits["file_size_mb"]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["open_files"], limits["open_files"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # RLIMIT_NPROC counts this uid's processes (in the sandbox's user namespace: the sandbox's own).
    nproc = _own_processes() + max_processes - 1
    resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))


def _own_processes():
    uid, count = os.getuid(), 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            with contextlib.suppress(OSError):
                count += os.stat(f"/proc/{name}").st_uid == uid
    return max(count, 1)


def load_syscall_filter(spec):
    """Load aceforge's seccomp program on this process (syscall_filter.py says why here) and send aceforge
    the listener, keeping no copy: the code must never answer its own refused calls."""
    import _socket  # socket.py would add its imports (enum, selectors) to every start, ~8 ms
    import ctypes

    class Program(ctypes.Structure):  # struct sock_fprog
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    code = base64.b64decode(spec["program"])
    instructions = ctypes.create_string_buffer(code, len(code))
    program = Program(len(code) // 8, ctypes.addressof(instructions))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)):
        raise OSError(ctypes.get_errno(), "no_new_privs: " + os.strerror(ctypes.get_errno()))
    flags = (ctypes.c_long(SECCOMP_SET_MODE_FILTER), ctypes.c_long(SECCOMP_FILTER_FLAG_NEW_LISTENER))
    listener = libc.syscall(ctypes.c_long(spec["syscall"]), *flags, ctypes.byref(program))
    if listener < 0:
        raise OSError(ctypes.get_errno(), "seccomp: " + os.strerror(ctypes.get_errno()))
    channel = _socket.socket(fileno=spec["fd"])
    try:
        rights = listener.to_bytes(4, sys.byteorder, signed=True)  # one int, as SCM_RIGHTS carries descriptors
        channel.sendmsg([b"listener"], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)])
    finally:
        channel.close()
        os.close(listener)


def make_hook(workdir, allow_spawn, record):
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
        elif event in ("ctypes.dlsym", "ctypes.dlsym/handle") and args[1] in PROCESS_SYMBOLS and not allow_spawn:
            record("process_limit", f"ctypes {args[1]}")  # looking the function up is refused, so is the call
        elif event in NETWORK_EVENTS:
            record("network_denied", f"{event} {args[1:2]!r}" if len(args) > 1 else event)

    return hook


# -- the solution process -------------------------------------------------------------------------------------------


def run_solution(cfg, emit, record):
    """Run the code; with tests, then answer the harness's calls until it hangs up."""
    main_pid = os.getpid()
    ns = {"__name__": "__solution__" if cfg["serve"] else "__main__"}
    channel = Channel(cfg["calls_fd"], cfg["replies_fd"]) if cfg["serve"] else None
    sys.addaudithook(make_hook(os.getcwd(), cfg["max_processes"] > 1, record))
    try:
        exec(compile(cfg["code"], "<solution>", "exec"), ns)
    except SyntaxError as exc:
        emit(event="error", kind="syntax_error", detail=f"solution: {exc}")
        return
    except MemoryError:
        emit(event="error", kind="memory_limit", detail="solution")
        return
    except BaseException as exc:  # user code may raise anything, SystemExit included
        _exit_if_forked(main_pid)
        emit(event="error", kind="runtime_error", detail=f"solution: {type(exc).__name__}: {exc}"[:500])
        return
    _exit_if_forked(main_pid)
    entry = cfg.get("entry_point")
    if entry and not callable(ns.get(entry)):
        emit(event="error", kind="missing_entry_point", detail=entry)
        return
    if channel is not None:
        channel.send({"ready": sorted(n for n, v in ns.items() if callable(v) and not n.startswith("__"))})
        serve_calls(channel, ns, main_pid)


def serve_calls(channel, ns, main_pid):
    while (request := channel.receive()) is not None:
        try:
            function = ns[request["call"]]
            args, kwargs = decode(request["args"]), decode(request["kwargs"])
        except (KeyError, TypeError, ValueError) as exc:
            channel.send({"raise": [["RuntimeError"], f"bad call: {exc}"]})
            continue
        try:
            value = function(*args, **kwargs)
            _exit_if_forked(main_pid)
            reply = {"value": encode(value), "args": encode(list(args))}
        except BaseException as exc:
            _exit_if_forked(main_pid)
            reply = {"raise": [[k.__name__ for k in type(exc).__mro__], str(exc)[:2000]]}
        channel.send(reply)


def _exit_if_forked(main_pid):
    # A child forked behind the hook's back must not report as if it were the runner.
    if os.getpid() != main_pid:
        os._exit(0)


# -- the harness process --------------------------------------------------------------------------------------------


class SolutionGone(Exception):
    """The solution process stopped answering (it exited, was killed, or broke the protocol)."""


def proxy(name, channel):
    def call(*args, **kwargs):
        try:
            channel.send({"call": name, "args": encode(list(args)), "kwargs": encode(kwargs)})
        except (BrokenPipeError, OSError):
            raise SolutionGone(f"the solution ended before {name}() returned") from None
        reply = channel.receive()
        if reply is None:
            raise SolutionGone(f"the solution ended before {name}() returned")
        if "raise" in reply:
            raise _exception(reply["raise"])
        try:
            value = decode(reply.get("value"))
            _write_back(args, decode(reply.get("args")))
        except (ValueError, TypeError, RecursionError) as exc:
            raise SolutionGone(f"{name}() sent back something that is not a value: {exc}") from None
        return value

    call.__name__ = call.__qualname__ = name
    return call


def _exception(raised):
    """The builtin exception nearest to what the solution raised (its own classes cannot cross)."""
    names, message = (raised if isinstance(raised, list) and len(raised) == 2 else [[], ""])[:2]
    for name in names if isinstance(names, list) else []:
        cls = getattr(builtins, name, None) if isinstance(name, str) else None
        if isinstance(cls, type) and issubclass(cls, Exception):
            return cls(str(message))
    return RuntimeError(f"{names[0] if names else 'exception'}: {message}")


def _write_back(sent, returned):
    """Arguments the function changed in place change here too (lists, dicts, sets, bytearrays)."""
    if type(returned) is not list or len(returned) != len(sent):
        return
    for original, changed in zip(sent, returned, strict=True):
        if type(original) is type(changed) and isinstance(original, list | bytearray):
            original[:] = changed
        elif type(original) is type(changed) and isinstance(original, dict | set):
            original.clear()
            original.update(changed)


def run_harness(cfg, emit, record):
    channel = Channel(cfg["replies_fd"], cfg["calls_fd"])
    ready = channel.receive()
    names = ready.get("ready") if ready else None
    if not isinstance(names, list):
        for index in range(len(cfg["tests"])):
            emit(event="test", index=index, passed=False, error="the solution did not load")
        return
    sys.addaudithook(make_hook(os.getcwd(), False, record))
    ns = {"__name__": "__tests__"}
    ns.update({name: proxy(name, channel) for name in names if isinstance(name, str) and name.isidentifier()})
    try:
        if cfg.get("setup"):
            exec(compile(cfg["setup"], "<setup>", "exec"), ns)
    except BaseException as exc:
        emit(event="error", kind="runtime_error", detail=f"setup: {type(exc).__name__}: {exc}"[:500])
        return
    for index, test in enumerate(cfg["tests"]):
        try:
            exec(compile(test, f"<test {index}>", "exec"), ns)
            emit(event="test", index=index, passed=True)
        except MemoryError:  # raised here or, through the proxy, in the solution
            emit(event="test", index=index, passed=False, error="MemoryError")
            emit(event="error", kind="memory_limit", detail=f"test {index}")
        except BaseException as exc:
            emit(event="test", index=index, passed=False, error=f"{type(exc).__name__}: {exc}"[:300])


def main():
    cfg = json.loads(sys.stdin.read())
    sys.stdin.close()
    out = os.fdopen(cfg["events_fd"], "w", buffering=1)

    def emit(**event):
        out.write(json.dumps(event) + "\n")
        out.flush()

    def record(kind, detail):
        emit(event="violation", kind=kind, detail=detail[:300])
        raise PermissionError(f"sandbox: {kind}: {detail}")

    harness = cfg["role"] == "harness"
    try:
        set_limits(cfg["limits"], 1 if harness else cfg["max_processes"])
    except (OSError, ValueError) as exc:
        emit(event="error", kind="sandbox_error", detail=f"limits not set: {exc}")
        return
    if cfg.get("syscall_filter"):
        try:
            load_syscall_filter(cfg["syscall_filter"])
        except (OSError, ValueError) as exc:
            emit(event="error", kind="sandbox_error", detail=f"syscall filter not loaded: {exc}")
            return
    if harness:
        run_harness(cfg, emit, record)
    else:
        run_solution(cfg, emit, record)
    emit(event="done")


if __name__ == "__main__":
    main()
