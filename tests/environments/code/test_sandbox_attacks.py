"""The attacks of issues 18, 20 and 34 on the code sandbox, each refused, as root and as an unprivileged user.

Every attack in attacks.py runs once per privilege (a module fixture): in this
process when it has that privilege, else (root testing the unprivileged case)
in a child started with ``setpriv`` as uid/gid 65534.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

from tests.environments.code.attacks import RAW_SYSCALLS, Listener, run_attacks
from tests.unprivileged import AS_ROOT, unprivileged_python

TOKEN = f"hf_secret_{uuid.uuid4().hex}"
SECRET_ENV = f"aceforge-test-secret-{uuid.uuid4().hex}"


@pytest.fixture(scope="module", params=["root", "unprivileged"])
def attacked(request):
    """(results by attack, home folder, marker, listener's accepted connections) for one privilege."""
    home = Path(tempfile.mkdtemp(prefix="aceforge-home-"))
    home.chmod(0o755)
    (home / "token").write_text(TOKEN)
    (home / "token").chmod(0o644)
    marker = f"aceforge-setsid-{uuid.uuid4().hex}"
    listener = Listener()
    try:
        if request.param == "root" and not AS_ROOT:
            pytest.skip("the root case needs root")
        if request.param == "root" or not AS_ROOT:
            os.environ["ACEFORGE_TEST_SECRET"] = SECRET_ENV
            try:
                results = run_attacks(str(home), listener.port, marker)
            finally:
                del os.environ["ACEFORGE_TEST_SECRET"]
        else:
            command = unprivileged_python("tests.environments.code.attacks")
            if command is None:
                pytest.skip("uid 65534 cannot run this checkout: a Python of this version or its folders unreadable")
            env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "ACEFORGE_TEST_SECRET": SECRET_ENV}
            done = subprocess.run(
                [*command, str(home), str(listener.port), marker], capture_output=True, env=env, timeout=300
            )
            assert done.returncode == 0, done.stderr.decode()[-2000:]
            results = json.loads(done.stdout)
        yield results, home, marker, listener.accepted
    finally:
        listener.close()
        shutil.rmtree(home, ignore_errors=True)


def test_forged_pass_events_do_not_make_a_wrong_solution_pass(attacked):
    results = attacked[0]
    forged = results["forge"]
    assert (forged["status"], forged["tests_passed"], forged["isolation"]["mode"]) == ("tests_failed", 0, "bubblewrap")
    by_path = results["forge_proc"]  # opening /proc/self/fd/N for writing is a write outside the task folder
    assert (by_path["status"], by_path["tests_passed"]) == ("write_denied", 0)
    assert results["always_equal"]["status"] == "tests_failed"  # the object cannot cross, its value 0 does
    assert (results["correct"]["status"], results["correct"]["tests_passed"]) == ("ok", 2)


def test_the_sandbox_sees_no_secret_of_the_caller(attacked):
    secrets = json.dumps(attacked[0]["secrets"])
    assert SECRET_ENV not in secrets and "ACEFORGE_TEST_SECRET" not in secrets
    assert "HOME', '/task'" in attacked[0]["secrets"]["stdout"]


def test_no_connection_reaches_a_listener_on_loopback(attacked):
    results, _, _, accepted = attacked
    network = results["network"]
    assert accepted == 0
    assert network["status"] == "network_denied"
    assert network["stdout"].splitlines() == ["module: PermissionError", "libc: -1 111"]  # 111: refused, empty lo


def test_the_home_folder_and_etc_are_not_there(attacked):
    results = attacked[0]
    for name in ("home_token", "passwd"):
        assert results[name]["status"] == "runtime_error"
        assert results[name]["errors"][0]["detail"] == (
            "solution: FileNotFoundError: [Errno 2] No such file or directory: '<path>'"
        )
    assert TOKEN not in json.dumps(results) and "root:x:0:0" not in json.dumps(results)


def test_the_filesystem_is_read_only_but_the_task_folder(attacked):
    assert attacked[0]["host_writes"]["stdout"].splitlines() == [
        "<path> -1 Read-only file system",
        "<path> -1 Read-only file system",
        "/task/../escape -1 Read-only file system",
    ]


def test_process_creation_is_refused_and_recorded(attacked):
    results = attacked[0]
    assert results["fork_bomb"]["status"] == "process_limit"
    ctypes_forks = results["ctypes_forks"]
    assert ctypes_forks["status"] == "process_limit"  # issue 20: not `ok` with nothing recorded
    assert [v["detail"] for v in ctypes_forks["violations"]] == ["ctypes fork", "ctypes fork", "ctypes syscall"]
    assert ctypes_forks["stdout"].count("refused") == 3
    assert results["fork_count"]["stdout"] == "3\n"  # max_processes=4: the solution and 3 children, of 100 tried


def test_a_setsid_grandchild_dies_with_the_sandbox(attacked):
    _, _, marker, _ = attacked
    assert attacked[0]["setsid"]["status"] == "ok"
    survivors = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                survivors.append(pid)
        except OSError:
            continue
    assert survivors == []


def test_the_task_folder_has_a_disk_quota(attacked):
    disk = attacked[0]["disk"]
    assert disk["stdout"].splitlines()[0] == "No space left on device"
    assert int(disk["stdout"].splitlines()[1].split()[1]) <= 8


def test_refused_system_calls_fail_with_eperm_and_each_is_recorded(attacked):
    if platform.machine() != "x86_64":
        pytest.skip("the attack is x86_64 machine code")
    raw = attacked[0]["raw_syscalls"]
    assert raw["status"] == "syscall_denied"
    assert raw["stdout"].splitlines() == [f"{name} -1" for name in RAW_SYSCALLS] + ["int80 getpid False"]
    assert [(v["kind"], v["detail"]) for v in raw["violations"]] == [
        *(("syscall_denied", f"syscall {name}") for name in RAW_SYSCALLS),
        ("syscall_denied", "syscall getpid of another architecture"),
    ]


def test_process_creation_past_the_audit_hook_is_refused_and_recorded(attacked):
    silent = attacked[0]["silent_subprocess"]  # the OSError is caught: the record stands all the same
    assert (silent["status"], silent["stdout"]) == ("process_limit", "PermissionError\n")
    assert silent["violations"] == [  # _posixsubprocess tries vfork, then fork (a clone without CLONE_THREAD)
        {"kind": "process_limit", "detail": "syscall vfork"},
        {"kind": "process_limit", "detail": "syscall clone"},
    ]


def test_ptrace_is_refused_where_child_processes_are_allowed(attacked):
    traced = attacked[0]["ptrace_parent"]  # before: attached, the runner stopped, and the run timed out
    assert (traced["status"], traced["stdout"]) == ("syscall_denied", "attach -1 1\n")
    assert traced["violations"] == [{"kind": "syscall_denied", "detail": "syscall ptrace"}]
