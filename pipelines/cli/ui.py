"""``aceforge ui``: the Dagster UI (webserver and daemon) over the aceforge pipelines.

Its instance lives under the data directory (DAGSTER_HOME = <ACEFORGE_HOME>/dagster),
so the runs of ``aceforge run`` and of the UI share one history. The webserver
runs behind aceforge's request guard (pipelines/ui/guard.py: an access token, printed
once in the URL; no cross-origin or GET mutations, no foreign Host headers), so this
starts it and the daemon itself rather than through ``dagster dev``, which runs
Dagster's bare webserver.
Plain ``dagster dev`` in the repository works too (pyproject.toml's
[tool.dagster] names the definitions module), without that guard.

``--log-level`` reaches the webserver, the daemon, the code servers and the
runs the UI launches: those runs log to the terminal through Dagster's default
console logger, whose level is the instance's (dagster.yaml), set while the UI
runs and put back as it was when it stops.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Literal

from pydantic import Field

from pipelines.cli.app import app
from pipelines.cli.common import say
from pipelines.cli.config import with_config
from pipelines.dagster_home import dagster_home, run_log_level
from pipelines.ui.access_token import new_token
from pipelines.ui.guard import allowed_hosts
from pipelines.ui.webserver import HOSTS_ENV, NO_TOKEN_ENV, TOKEN_ENV
from runtime.settings import data_home
from schemas.stage_config import StageConfig

DEFINITIONS_MODULE = "pipelines.definitions"
STOP_WAIT_S = 60


class UiConfig(StageConfig):
    host: str = "127.0.0.1"
    """Address the webserver listens on (0.0.0.0 to reach it from other machines: name them in --allowed-hosts)."""
    port: int = Field(3000, ge=1, le=65535)
    """Port of the webserver."""
    allowed_hosts: list[str] = Field(default_factory=list)
    """Host names the UI answers to besides loopback and its own address (e.g. the machine's DNS name)."""
    token: bool = True
    """Ask every request for the access token printed in the URL (a fresh one per start); --no-token: anyone who
    reaches the port drives the UI (launched runs run as you), so only on a machine nobody else uses."""
    log_level: Literal["critical", "error", "warning", "info", "debug"] = "warning"
    """Dagster's log level on the terminal, the launched runs' logs included (their messages below it are not
    kept in the run's log either)."""


@app.command("ui")
@with_config(UiConfig)
def ui(cfg: UiConfig) -> None:
    """Start the Dagster UI (webserver + daemon) on the aceforge pipelines and print its URL; Ctrl-C stops it."""
    home = prepare_instance()
    hosts = allowed_hosts(cfg.host, cfg.port, cfg.allowed_hosts)
    inherited = {key: value for key, value in os.environ.items() if key not in (TOKEN_ENV, NO_TOKEN_ENV)}
    env = {**inherited, "DAGSTER_HOME": str(home), HOSTS_ENV: ",".join(sorted(hosts))}
    token = new_token() if cfg.token else None
    # In the environment, not the command line, which every user of the machine can read (ps).
    server_env = {**env, TOKEN_ENV: token} if token else {**env, NO_TOKEN_ENV: "1"}
    target = ["-m", DEFINITIONS_MODULE]
    webserver = [sys.executable, "-m", "pipelines.ui.webserver", "-h", cfg.host, "-p", str(cfg.port), *target]
    webserver += ["--dagster-log-level", cfg.log_level, "--uvicorn-log-level", cfg.log_level]
    daemon = [sys.executable, "-m", "dagster._daemon", "run", "--log-level", cfg.log_level, *target]  # as dagster dev
    for command in (webserver, daemon):
        command += ["--code-server-log-level", cfg.log_level]
    url = f"http://{cfg.host}:{cfg.port}/" + (f"?token={token}" if token else "")
    if not token:
        say("warning: --no-token: anyone who can reach this port can launch runs as you")
    say(f"Dagster UI: {url}  (DAGSTER_HOME={env['DAGSTER_HOME']}; Ctrl-C stops it)")
    # A background job of a script starts with SIGINT ignored, and its children would inherit that: back to
    # the default here, so both stop on the SIGINT they are sent below (and on Ctrl-C).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    with run_log_level(home, cfg.log_level):
        code = _serve([(webserver, server_env), (daemon, env)])
    raise SystemExit(code)


def _serve(commands: list[tuple[list[str], dict[str, str]]]) -> int:
    """Start the servers (command, environment), wait until one exits (or Ctrl-C, SIGTERM), stop the others;
    the exit status."""
    servers = [subprocess.Popen(command, env=env) for command, env in commands]

    def stop(*_) -> None:  # SIGINT is how both shut down cleanly (code servers, run storage)
        for server in servers:
            if server.poll() is None:
                server.send_signal(signal.SIGINT)

    signal.signal(signal.SIGTERM, stop)
    try:
        code = _wait_for_first(servers)
    except KeyboardInterrupt:  # Ctrl-C reached them too (same process group): let them finish stopping
        code = 0
    stop()
    for server in servers:
        try:
            server.wait(timeout=STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            server.kill()
    return code


def prepare_instance() -> Path:
    """The UI's DAGSTER_HOME with its storage created; its path."""
    data_home(create=True)
    home = dagster_home()
    create_storage(home)
    return home


def create_storage(home) -> None:
    """Create the instance's run, event and schedule databases here, once: the webserver and the daemon
    start at the same time, and both creating them on a fresh data directory left two schema versions."""
    from dagster import DagsterInstance

    with DagsterInstance.from_config(str(home)) as instance:
        instance.get_runs(limit=1)
        instance.event_log_storage.get_asset_records()
        instance.schedule_storage.all_instigator_state()


def _wait_for_first(servers: list[subprocess.Popen]) -> int:
    """Wait until one of ``servers`` exits; its exit status (the other is stopped by the caller)."""
    import time

    while True:
        for server in servers:
            if server.poll() is not None:
                return server.returncode
        time.sleep(0.5)
