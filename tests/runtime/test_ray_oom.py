"""A Ray task too big for its node fails the stage instead of being killed and retried without end.

Ray's memory monitor kills a worker when its node runs low on memory, and by
default retries the task for ever; runtime/engine.py bounds the retries. The
check runs in its own process: the node's kill threshold is set below what
any process uses, so every attempt is killed, and the map must raise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from tests.ray_cluster import RAY_ENV, ROOT

pytest.importorskip("ray")

SCRIPT = textwrap.dedent(
    """
    import sys
    import time
    from pathlib import Path
    from runtime.executor import ExecutorConfig, open_executor

    def hold(_, megabytes):
        block = bytearray(megabytes << 20)
        time.sleep(5)
        return len(block)

    with open_executor(ExecutorConfig(engine="ray")) as executor:  # the outcome goes to a file: the raylet
        try:  # writes its notes on stdout meanwhile
            outcome = repr(list(executor.map(hold, None, [300])))
        except executor.ray.exceptions.OutOfMemoryError as exc:
            outcome = "OutOfMemoryError: " + str(exc).splitlines()[0][:120]
        Path(sys.argv[1]).write_text(outcome)
    """
)


def test_a_task_the_memory_monitor_keeps_killing_fails_after_a_few_retries():
    temp = tempfile.mkdtemp(prefix="afoom", dir="/tmp")  # short: Ray's socket paths must fit 107 characters
    env = {
        **os.environ,
        **RAY_ENV,
        "PYTHONPATH": str(ROOT),
        "RAY_TMPDIR": temp,
        "RAY_memory_usage_threshold": "0.01",  # below any node's use: every attempt is killed
        "RAY_memory_monitor_refresh_ms": "100",
    }
    env.pop("RAY_task_oom_retries", None)
    outcome = Path(temp) / "outcome"
    try:
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(outcome)], env=env, capture_output=True, text=True, timeout=300
        )
        said = outcome.read_text() if outcome.exists() else "(no outcome)"
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert said.startswith("OutOfMemoryError: "), said + done.stdout[-2000:]
    assert 1 <= done.stdout.count("oom retries remaining") <= 4  # the raylet's note of each kill
