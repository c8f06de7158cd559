"""The sandbox's seccomp filter: system calls no sandboxed code needs, refused with EPERM and recorded.

The filter is compiled by libseccomp (through ``pyseccomp``) into a BPF
program here, in aceforge, and loaded by the sandbox runner itself, in the
process that will run the untrusted code, before that code runs (not by
bubblewrap's ``--seccomp FD``). Loaded there it covers that process and every
process it makes (a filter is inherited across fork, clone and execve, and
with no_new_privs set, which the runner does and bubblewrap already did, it
cannot be removed or loosened: a later filter can only refuse more, and the
``seccomp`` call itself is refused). The runner loads it with
``SECCOMP_FILTER_FLAG_NEW_LISTENER`` and hands the listener descriptor to
aceforge over a socket, then closes its own copy: bubblewrap offers no
listener, and without one a denial can only kill the process (no errno),
raise SIGSYS (whose handler must set the return register, which a Python
handler cannot) or fail silently.

Each refused call stops in the kernel until the ``Supervisor`` thread here,
outside the sandbox, has recorded it and answered EPERM, so the denial is in
the run's report whatever the code does with the error. Should the listener
be gone, the kernel fails these calls with ENOSYS: still refused.

What is refused, and why: ``DENIED``, ``prctl(PR_SET_SECCOMP)``, a ``clone``
into new namespaces, and a call of another architecture (32-bit ``int
0x80``, x32). Where the process may have no child processes (the harness;
the solution with ``max_processes`` 1) also ``PROCESS_CALLS`` and a
``clone`` without CLONE_THREAD: the audit hook cannot see
``_posixsubprocess.fork_exec`` (subprocess's own audit call can be silenced)
nor machine code, the kernel sees both. ``clone3`` gets ENOSYS, unrecorded:
its flags are behind a pointer a filter cannot read, and libc then falls
back to ``clone``, whose flags it can. A refused call is recorded as
``process_limit`` when it would have made a process, else
``syscall_denied``, with the call's name.
"""

from __future__ import annotations

import base64
import contextlib
import ctypes
import errno
import os
import select
import socket
import tempfile
import threading
from dataclasses import dataclass
from functools import lru_cache

DENIED = {  # why: the calls (names as libseccomp knows them)
    # Reading or changing another process: its memory, registers, descriptors.
    "tracing": "ptrace process_vm_readv process_vm_writev process_madvise kcmp pidfd_getfd",
    # Kernel keyrings are not namespaced: keys of the host's users, and a long history of kernel bugs.
    "keyrings": "keyctl add_key request_key",
    # Large kernel surfaces that exploits start from; io_uring also does I/O that no filter sees.
    "kernel surface": "bpf perf_event_open userfaultfd io_uring_setup io_uring_enter io_uring_register",
    # Mounts and namespaces: rearranging what the sandbox sees, or leaving it.
    "mounts and namespaces": "mount umount2 pivot_root chroot unshare setns move_mount open_tree fsopen fsconfig "
    "fsmount fspick mount_setattr",
    # Opening a file by its handle, past the mount namespace (the "shocker" escape), and making such handles.
    "file handles": "open_by_handle_at name_to_handle_at",
    # The machine's own state: kernels, modules, reboot, swap, clocks, accounting, quotas, the kernel log, I/O ports.
    "machine": "kexec_load kexec_file_load init_module finit_module delete_module reboot swapon swapoff acct quotactl "
    "quotactl_fd syslog settimeofday clock_settime clock_adjtime adjtimex iopl ioperm personality uselib "
    "lookup_dcookie vhangup fanotify_init",
    # A filter of the code's own could take these calls first and let them through (SECCOMP_USER_NOTIF_FLAG_CONTINUE);
    # prctl(PR_SET_SECCOMP) too.
    "filters": "seccomp",
}
PROCESS_CALLS = ("fork", "vfork", "execve", "execveat")  # and clone without CLONE_THREAD
CLONE_THREAD = 0x00010000
CLONE_NAMESPACES = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000)
PR_SET_SECCOMP = 22
MAX_RECORDS = 100  # denials kept per process; a loop of them is still answered, and counted


class FilterUnavailable(RuntimeError):
    """libseccomp or its binding cannot be loaded here."""


@dataclass(frozen=True)
class CompiledFilter:
    program: bytes  # BPF instructions, 8 bytes each
    seccomp_nr: int  # the seccomp(2) call's number here, which the runner needs to load the program

    def for_runner(self, fd: int) -> dict:
        """What the runner's job needs: the program, how to load it, and where to send the listener."""
        return {"program": base64.b64encode(self.program).decode(), "syscall": self.seccomp_nr, "fd": fd}


def _seccomp():
    try:
        import pyseccomp
    except (ImportError, RuntimeError, OSError) as exc:  # pyseccomp raises RuntimeError without libseccomp
        raise FilterUnavailable(f"libseccomp cannot be loaded: {exc}") from None
    return pyseccomp


def filter_problem() -> str | None:
    """None when the filter compiles here, else what is missing."""
    try:
        compiled_filter(False)
    except FilterUnavailable as exc:
        return str(exc)
    return None


@lru_cache(maxsize=2)
def compiled_filter(allow_processes: bool) -> CompiledFilter:
    """The filter for a process that may (or may not) make child processes."""
    sc = _seccomp()
    try:
        rules = sc.SyscallFilter(sc.ALLOW)
        rules.set_attr(sc.Attr.ACT_BADARCH, sc.NOTIFY)
        for name in " ".join(DENIED.values()).split():
            if sc.resolve_syscall(sc.Arch.NATIVE, name) >= 0:  # negative: not a call of this architecture
                rules.add_rule(sc.NOTIFY, name)
        rules.add_rule(sc.NOTIFY, "prctl", sc.Arg(0, sc.EQ, PR_SET_SECCOMP))
        rules.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
        for flag in CLONE_NAMESPACES:
            rules.add_rule(sc.NOTIFY, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
        if not allow_processes:
            rules.add_rule(sc.NOTIFY, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
            for name in PROCESS_CALLS:
                if sc.resolve_syscall(sc.Arch.NATIVE, name) >= 0:
                    rules.add_rule(sc.NOTIFY, name)
        with tempfile.TemporaryFile() as out:
            rules.export_bpf(out)
            out.seek(0)
            program = out.read()
        return CompiledFilter(program, sc.resolve_syscall(sc.Arch.NATIVE, "seccomp"))
    except OSError as exc:
        raise FilterUnavailable(f"libseccomp cannot compile the sandbox's filter: {exc}") from None


class Supervisor(threading.Thread):
    """Answers one sandbox process's refused calls with EPERM, recording each first.

    The listener arrives on ``channel`` once the runner has loaded the filter. The thread ends when every
    process under the filter has exited (the listener hangs up), or at ``finish``.
    """

    def __init__(self, channel: socket.socket, allow_processes: bool):
        super().__init__(daemon=True, name="aceforge-syscall-supervisor")
        self.channel, self.allow_processes = channel, allow_processes
        self.records: list[dict] = []
        self.refused = 0
        self._stopping = threading.Event()

    def finish(self, timeout: float = 0.5) -> list[dict]:
        """Stop (after what is pending, up to ``timeout`` seconds) and return the violation events (once)."""
        if self._stopping.is_set():
            return []
        self.join(timeout)  # at once when the processes are gone: the listener hangs up
        self._stopping.set()
        self.join()
        self.channel.close()
        if self.refused > len(self.records):
            detail = f"{self.refused - len(self.records)} more refused system calls"
            self.records.append({"event": "violation", "kind": "syscall_denied", "detail": detail})
        return self.records

    def run(self) -> None:
        listener = self._receive_listener()
        if listener is None:
            return
        try:
            self._serve(listener)
        finally:
            os.close(listener)

    def _receive_listener(self) -> int | None:
        poller = select.poll()
        poller.register(self.channel, select.POLLIN)
        while not self._stopping.is_set():
            if poller.poll(100):  # the listener, or the end of file of a runner that died before sending it
                with contextlib.suppress(OSError):
                    _, fds, _, _ = socket.recv_fds(self.channel, 16, 1)
                    return fds[0] if fds else None
                return None
        return None

    def _serve(self, listener: int) -> None:
        sc = _seccomp()
        # pyseccomp answers notifications only for a filter loaded in this process (ours is the runner's), so the
        # same libseccomp functions it wraps are called here on the listener the runner sent.
        lib = sc._libseccomp
        request, response = ctypes.POINTER(sc._Notif)(), ctypes.POINTER(sc._NotifResp)()
        if lib.seccomp_notify_alloc(ctypes.byref(request), ctypes.byref(response)) != 0:
            return  # the listener closes unanswered: every refused call fails with ENOSYS
        poller = select.poll()
        poller.register(listener, select.POLLIN)
        try:
            while not self._stopping.is_set():
                events = poller.poll(100)
                if any(event & (select.POLLHUP | select.POLLERR) for _, event in events):
                    return  # every process under the filter is gone
                if not events:
                    continue
                ctypes.memset(request, 0, ctypes.sizeof(sc._Notif))  # the kernel takes only a zeroed request
                if lib.seccomp_notify_receive(listener, request) != 0:
                    continue  # the caller died meanwhile
                self._record(request.contents.data.arch, request.contents.data.nr, sc)
                answer = response.contents
                answer.id, answer.val, answer.error, answer.flags = request.contents.id, 0, -errno.EPERM, 0
                lib.seccomp_notify_respond(listener, response)  # fails only if the caller died meanwhile
        finally:
            lib.seccomp_notify_free(request, response)

    def _record(self, arch: int, nr: int, sc) -> None:
        self.refused += 1
        if len(self.records) >= MAX_RECORDS:
            return
        try:
            name = sc.resolve_syscall(arch, nr).decode()
        except ValueError:
            name = str(nr)
        foreign = arch != sc.system_arch()
        spawn = name in (*PROCESS_CALLS, "clone") and not self.allow_processes and not foreign
        detail = f"syscall {name}" + (" of another architecture" if foreign else "")
        self.records.append(
            {"event": "violation", "kind": "process_limit" if spawn else "syscall_denied", "detail": detail}
        )
