"""Fixtures the pipeline tests share: the running UI (``aceforge ui``) for the browser and guard tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request

import pytest

from schemas.ports import free_port
from tests.conftest import ROOT
from tests.pipelines.cli_helpers import wait_until


@pytest.fixture
def ui_url(data_home, tmp_path):
    port = free_port()
    log = (tmp_path / "ui.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "pipelines.cli.main", "ui", "--port", str(port), "--log-level", "info"],
        env={k: v for k, v in os.environ.items() if k != "ACEFORGE_ENTRIES"},
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        # SIGINT ignored, as for a background job of a script: `aceforge ui` must stop on SIGTERM all the same.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: urllib.request.urlopen(url, timeout=5).status == 200, timeout=120, what="the UI")
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
        log.close()
