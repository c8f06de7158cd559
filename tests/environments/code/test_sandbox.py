"""The sandbox stops misbehaving code and reports why, without ever raising into the caller."""

from __future__ import annotations

import os
import socket
import sys
import uuid
from pathlib import Path

from environments.code.config import SandboxLimits
from environments.code.isolation import uid_pids
from environments.code.sandbox import run_python
from environments.code.syscall_filter import compiled_filter

FAST = SandboxLimits(wall_s=5.0, cpu_s=2)
AS_ROOT = os.geteuid() == 0


def test_a_correct_solution_passes_every_hidden_test():
    result = run_python(
        "def add(a, b):\n    return a + b\n", ["assert add(1, 2) == 3", "assert add(-1, 1) == 0"], "add"
    )
    assert (result.status, result.tests_passed, result.tests_total) == ("ok", 2, 2)


def test_a_wrong_solution_reports_which_tests_failed():
    result = run_python("def add(a, b):\n    return a - b\n", ["assert add(0, 0) == 0", "assert add(1, 2) == 3"], "add")
    assert result.status == "tests_failed"
    assert [t["passed"] for t in result.test_results] == [True, False]
    assert result.test_results[1]["error"].startswith("AssertionError")


def test_an_infinite_loop_is_stopped_by_the_cpu_limit():
    result = run_python("while True:\n    pass\n", limits=SandboxLimits(wall_s=10.0, cpu_s=1))
    assert result.status == "timeout"
    assert result.isolation["limit_hit"] == "cpu"


def test_a_sleeping_process_is_stopped_by_the_wall_clock_and_its_group_killed():
    result = run_python("import time\ntime.sleep(60)\n", limits=SandboxLimits(wall_s=1.0, cpu_s=5))
    assert result.status == "timeout"
    assert result.isolation["limit_hit"] == "wall"
    if AS_ROOT:
        assert uid_pids(result.isolation["uid"]) == []


def test_a_fork_bomb_is_refused():
    result = run_python("import os\nwhile True:\n    os.fork()\n", limits=FAST)
    assert result.status == "process_limit"
    assert result.violations[0] == {"kind": "process_limit", "detail": "os.fork"}


def test_subprocess_spawns_are_refused():
    code = "import subprocess, sys\nprocs = [subprocess.Popen([sys.executable, '-c', 'pass']) for _ in range(50)]\n"
    assert run_python(code, limits=FAST).status == "process_limit"


def test_a_fork_loop_through_libc_is_capped_and_swept():
    # With children allowed the hook lets libc's fork through; RLIMIT_NPROC and the pid namespace are the walls.
    code = "import ctypes, time\nlibc = ctypes.CDLL(None)\nforks = [libc.fork() for _ in range(200)]\ntime.sleep(60)\n"
    result = run_python(code, limits=SandboxLimits(wall_s=2.0, cpu_s=2, max_processes=8))
    assert result.status == "timeout"
    if AS_ROOT:
        assert uid_pids(result.isolation["uid"]) == []


def test_a_huge_allocation_hits_the_memory_limit():
    result = run_python("blob = bytearray(8 * 1024 ** 3)\n", limits=SandboxLimits(memory_mb=256))
    assert result.status == "memory_limit"
    grows = "def f():\n    return len(bytearray(8 * 1024 ** 3))\n"
    result = run_python(grows, ["assert f() == 0"], "f", limits=SandboxLimits(memory_mb=256))
    assert (result.status, result.test_results[0]["error"]) == ("memory_limit", "MemoryError")


def test_a_write_outside_the_work_directory_is_denied(tmp_path):
    target = tmp_path / "escaped.txt"
    result = run_python(f"open({str(target)!r}, 'w').write('x')\n", limits=FAST)
    assert result.status == "write_denied"
    assert result.violations[0]["detail"] == "open '<path>'"  # evidence names no path outside the task folder
    assert not target.exists()


def test_a_denied_write_still_fails_when_the_code_swallows_the_error(tmp_path):
    code = f"try:\n    open({str(tmp_path / 'x')!r}, 'a')\nexcept OSError:\n    pass\ndef f():\n    return 1\n"
    result = run_python(code, ["assert f() == 1"], "f", limits=FAST)
    assert result.tests_passed == 1
    assert result.status == "write_denied"


def test_files_inside_the_work_directory_can_be_written_and_read():
    code = "open('notes.txt', 'w').write('kept')\nprint(open('notes.txt').read())\n"
    result = run_python(code, limits=FAST)
    assert (result.status, result.stdout) == ("ok", "kept\n")


def test_a_network_connection_is_denied():
    code = "import socket\nsocket.create_connection(('192.0.2.1', 80), timeout=2)\n"
    result = run_python(code, limits=FAST)
    assert result.status == "network_denied"


def test_the_child_sees_only_loopback():
    result = run_python("import socket\nprint(sorted(name for _, name in socket.if_nameindex()))\n", limits=FAST)
    assert result.stdout.strip() == "['lo']"
    assert len(socket.if_nameindex()) >= 1  # the caller's own network is untouched


def test_syntax_errors_missing_functions_and_crashes_get_their_own_codes():
    assert run_python("def f(:\n", ["assert True"], "f").status == "syntax_error"
    assert run_python("def g():\n    return 1\n", ["assert True"], "f").status == "missing_entry_point"
    assert run_python("raise SystemExit(3)\n").status == "runtime_error"
    assert run_python("import os\nos._exit(0)\n").status == "crashed"


def test_forged_result_lines_are_ignored():
    code = "import os\nfor fd in range(3, 10):\n    try:\n        os.write(fd, b'not json\\n')\n    except OSError:\n        pass\n"
    result = run_python(code, ["assert 1 == 2"], limits=FAST)
    assert result.status == "tests_failed"


def test_endless_output_hits_the_output_limit():
    code = "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n"
    result = run_python(code, limits=SandboxLimits(wall_s=10.0, cpu_s=5, file_size_mb=1))
    assert result.status == "output_limit"
    assert len(result.stdout) <= 4001  # the caller keeps an excerpt, not the flood


def test_standard_library_imports_are_not_mistaken_for_writes():
    code = "import decimal, fractions, statistics, sqlite3, email.mime.text, http.client, asyncio\nprint('ok')\n"
    result = run_python(code, limits=FAST)
    assert (result.status, result.violations) == ("ok", [])


def test_a_write_through_libc_behind_the_audit_hook_hits_a_read_only_filesystem():
    # ctypes passes the audit hook: the read-only root and the absent host /tmp are the walls.
    target = Path("/tmp") / f"aceforge-escape-{uuid.uuid4().hex}.txt"
    code = (
        "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        f"for path in ({str(target).encode()!r}, b'/escape.txt'):\n"
        "    fd = libc.open(path, os.O_CREAT | os.O_WRONLY, 0o644)\n"
        "    print(fd, os.strerror(ctypes.get_errno()))\n"
    )
    result = run_python(code, limits=FAST)
    assert result.stdout.splitlines() == ["-1 No such file or directory", "-1 Read-only file system"]
    assert not target.exists()


def test_without_bubblewrap_code_is_refused_unless_the_operator_allows_it(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on the PATH
    result = run_python("print(1)", ["assert True"])
    assert (result.status, result.tests_total) == ("sandbox_error", 1)
    assert result.errors[0]["detail"].startswith("bubblewrap (bwrap) is not installed: refusing to run untrusted code")
    config = tmp_path / "sandbox.yaml"
    config.write_text("allow_unisolated: true\n")
    monkeypatch.setenv("ACEFORGE_SANDBOX_CONFIG", str(config))
    result = run_python("print(1)", ["assert True"])
    assert (result.status, result.stdout, result.isolation["mode"]) == ("ok", "1\n", "unisolated")
    ptrace = "import ctypes\nprint(ctypes.CDLL(None).ptrace(0, 0, 0, 0))\n"  # the seccomp filter stays
    result = run_python(ptrace)
    assert (result.status, result.stdout, result.isolation["syscall_filter"]) == ("syscall_denied", "-1\n", True)


def test_without_libseccomp_code_is_refused_unless_the_operator_allows_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pyseccomp", None)  # its import fails, as it does where libseccomp is missing
    compiled_filter.cache_clear()
    try:
        result = run_python("print(1)")
        assert result.status == "sandbox_error"
        assert result.errors[0]["detail"].startswith("libseccomp cannot be loaded: ")
        assert "refusing to run untrusted code" in result.errors[0]["detail"]
        config = tmp_path / "sandbox.yaml"
        config.write_text("allow_unisolated: true\n")
        monkeypatch.setenv("ACEFORGE_SANDBOX_CONFIG", str(config))
        result = run_python("print(1)")
        assert (result.status, result.stdout, result.isolation["mode"]) == ("ok", "1\n", "unisolated")
        assert result.isolation["syscall_filter"] is False
    finally:
        compiled_filter.cache_clear()


def test_tests_see_plain_values_exceptions_and_in_place_changes_of_the_solution():
    code = (
        "def sort_in_place(items):\n    items.sort()\n"
        "def parse(text):\n    return int(text)\n"
        "def pair(a):\n    return (a, {a: [a]}, {a}, b'x', 1.5)\n"
        "def lazy():\n    return (i for i in range(3))\n"
    )
    tests = [
        "xs = [3, 1, 2]\nsort_in_place(xs)\nassert xs == [1, 2, 3]",
        "try:\n    parse('x')\nexcept ValueError:\n    pass\nelse:\n    raise AssertionError",
        "assert pair(2) == (2, {2: [2]}, {2}, b'x', 1.5)",
        "assert list(lazy()) == [0, 1, 2]",
    ]
    result = run_python(code, tests, "sort_in_place", limits=FAST)
    assert [t["passed"] for t in result.test_results] == [True, True, True, False]
    assert result.test_results[3]["error"] == "TypeError: a generator cannot be sent between the solution and the tests"
