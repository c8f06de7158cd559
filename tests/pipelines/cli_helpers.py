"""What the CLI tests share: `aceforge` invoked in-process, its last stdout line as JSON, the samples they convert."""

from __future__ import annotations

import json
import socket

from typer.testing import CliRunner

from pipelines.cli import app
from tests.conftest import ADP_FIXTURES, TAU_FIXTURES

runner = CliRunner()
OS_STD = ADP_FIXTURES / "agenttuning_os" / "sample_std.json"
TAU_RUNS = TAU_FIXTURES / "tau-bench" / "historical_trajectories" / "gpt-4o-airline.excerpt.json"


def invoke(*args, input=None, env=None):
    return runner.invoke(app, [str(a) for a in args], input=input, env=env)


def last_json(result):
    return json.loads(result.stdout.strip().splitlines()[-1])


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
