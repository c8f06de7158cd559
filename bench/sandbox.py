"""Start-up cost of the code sandbox: wall time of a run that does nothing, alone and with the hidden tests'
harness (two sandboxes), median and best of N runs after one warm-up (bubblewrap probe, filter compile).

    python bench/sandbox.py [N]
"""

from __future__ import annotations

import statistics
import sys
import time

from environments.code.sandbox import run_python

ADD = "def add(a, b):\n    return a + b\n"
CASES = {
    "solution only (pass)": ("pass\n", [], None),
    "solution + harness (2 tests)": (ADD, ["assert add(1, 2) == 3", "assert add(2, 2) == 4"], "add"),
}


def main(n: int) -> None:
    for label, (code, tests, entry) in CASES.items():
        first = run_python(code, tests, entry)
        times = []
        for _ in range(n):
            started = time.perf_counter()
            result = run_python(code, tests, entry)
            times.append(time.perf_counter() - started)
            assert result.status == "ok", result.to_dict()
        filtered = first.isolation.get("syscall_filter", False)
        print(
            f"{label:30s} median {statistics.median(times) * 1000:6.1f} ms   best {min(times) * 1000:6.1f} ms"
            f"   (n={n}, {first.isolation['mode']}, seccomp filter: {filtered})"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
