"""What the CLI tests share: `aceforge` invoked in-process, its last stdout line as JSON, the samples they convert."""

from __future__ import annotations

import json
import time
from pathlib import Path

# typer reads TERMINAL_WIDTH (and the colour settings) once, when its rich_utils is first imported, and the CLI
# imports it only to print a help text: imported here, before any test's env=, so no test's width stays for the rest.
import typer.rich_utils  # noqa: F401
from typer.testing import CliRunner

from pipelines.cli.main import app
from tests.conftest import ADP_FIXTURES, TAU_FIXTURES

runner = CliRunner()
OS_STD = ADP_FIXTURES / "agenttuning_os" / "sample_std.json"
TAU_RUNS = TAU_FIXTURES / "tau-bench" / "historical_trajectories" / "gpt-4o-airline.excerpt.json"


def invoke(*args, input=None, env=None):
    return runner.invoke(app, [str(a) for a in args], input=input, env=env)


def last_json(result):
    return json.loads(result.stdout.strip().splitlines()[-1])


def wait_until(condition, timeout: float, what: str, every: float = 1.0, log: Path | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except AssertionError:
            raise
        except Exception:  # not up yet: connection refused, element not rendered
            pass
        time.sleep(every)
    tail = log.read_text()[-4000:] if log and log.exists() else ""
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}\n{tail}")
