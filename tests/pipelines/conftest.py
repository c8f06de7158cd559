"""Fixtures the pipeline tests share: the running UI (``aceforge ui``) for the browser and guard tests."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import NamedTuple

import pytest

from runtime.ports import free_port
from tests.conftest import ROOT
from tests.pipelines.cli_helpers import wait_until


class RunningUi(NamedTuple):
    url: str  # http://127.0.0.1:PORT
    token: str | None  # the access token `aceforge ui` printed in its URL (None: started with --no-token)
    log: Path  # what it printed


def printed_token(log: Path) -> str | None:
    """The token of the URL `aceforge ui` printed (``Dagster UI: http://...:PORT/?token=...``), None for none."""
    printed = re.search(r"Dagster UI: http://\S+/(\?token=(\S+))?\s", log.read_text())
    if printed is None:
        raise LookupError("no URL printed yet")  # not an AssertionError: wait_until tries again
    return printed.group(2)


@pytest.fixture
def ui(request, data_home, tmp_path) -> RunningUi:
    """`aceforge ui` on a free port (with the flags the test's indirect parameter lists)."""
    port = free_port()
    log_path = tmp_path / "ui.log"
    log = log_path.open("w")
    flags = getattr(request, "param", [])
    server = subprocess.Popen(
        [sys.executable, "-m", "pipelines.cli.main", "ui", "--port", str(port), "--log-level", "info", *flags],
        env={k: v for k, v in os.environ.items() if k != "ACEFORGE_ENTRIES"},
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        # SIGINT ignored, as for a background job of a script: `aceforge ui` must stop on SIGTERM all the same.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    url = f"http://127.0.0.1:{port}"

    def serves() -> bool:
        token = printed_token(log_path)
        headers = {"Authorization": f"token {token}"} if token else {}
        return urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5).status == 200

    try:
        wait_until(serves, timeout=120, what="the UI", log=log_path)
        yield RunningUi(url, printed_token(log_path), log_path)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
        log.close()
