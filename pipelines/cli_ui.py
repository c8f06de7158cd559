"""``aceforge ui``: the Dagster UI (webserver and daemon) over the aceforge pipelines.

Its instance lives under the data directory (DAGSTER_HOME = <ACEFORGE_HOME>/dagster),
so the runs of ``aceforge run`` and of the UI share one history. Plain
``dagster dev`` in the repository works too: pyproject.toml's [tool.dagster]
names the definitions module.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from pydantic import Field

from pipelines.cli_app import app
from pipelines.cli_common import say
from pipelines.cli_config import with_config
from pipelines.dagster_home import dagster_home
from schemas.settings import data_home
from schemas.stage_config import StageConfig

DEFINITIONS_MODULE = "pipelines.definitions"


class UiConfig(StageConfig):
    host: str = "127.0.0.1"
    """Address the webserver listens on (0.0.0.0 to reach it from other machines)."""
    port: int = Field(3000, ge=1, le=65535)
    """Port of the webserver."""
    log_level: str = "warning"
    """Dagster's log level on the terminal: critical, error, warning, info or debug."""


@app.command("ui")
@with_config(UiConfig)
def ui(cfg: UiConfig) -> None:
    """Start the Dagster UI (webserver + daemon) on the aceforge pipelines and print its URL; Ctrl-C stops it."""
    data_home(create=True)
    env = {**os.environ, "DAGSTER_HOME": str(dagster_home())}
    command = [sys.executable, "-m", "dagster", "dev", "-m", DEFINITIONS_MODULE]
    command += ["-h", cfg.host, "-p", str(cfg.port), "--log-level", cfg.log_level]
    say(f"Dagster UI: http://{cfg.host}:{cfg.port}  (DAGSTER_HOME={env['DAGSTER_HOME']}; Ctrl-C stops it)")
    # dagster dev stops on SIGTERM by treating it as SIGINT, and so does not stop at all when SIGINT is
    # ignored, as it is for a background job of a script: handled here, SIGINT is back to its default there.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    server = subprocess.Popen(command, env=env)
    # dagster dev shuts its webserver and daemon down cleanly on SIGTERM to its own process: pass ours on.
    signal.signal(signal.SIGTERM, lambda *_: server.send_signal(signal.SIGTERM))
    try:
        code = server.wait()
    except KeyboardInterrupt:  # Ctrl-C reached dagster dev too (same process group): let it finish stopping
        code = server.wait(timeout=60)
    raise SystemExit(code)
