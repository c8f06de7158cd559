"""Dagster's webserver with aceforge's request guard in front (guard.py); ``aceforge ui`` starts it.

``python -m pipelines.ui.webserver ARGS`` takes dagster-webserver's own
arguments; the Host header values to accept come from ACEFORGE_UI_HOSTS
(comma-separated ``name:port``), and without them it does not start.
Dagster builds the app in ``create_app_from_workspace_process_context``;
this wraps what that returns, so everything else (workspace, code server,
instance, shutdown) stays Dagster's own.
"""

from __future__ import annotations

import os
import sys

HOSTS_ENV = "ACEFORGE_UI_HOSTS"


def main() -> None:
    hosts = frozenset(h.strip().lower() for h in os.environ.get(HOSTS_ENV, "").split(",") if h.strip())
    if not hosts:
        sys.exit(f"error: {HOSTS_ENV} names no host: the UI would refuse every request")

    import dagster_webserver.cli as webserver_cli

    from pipelines.ui.guard import RequestGuard

    build = webserver_cli.create_app_from_workspace_process_context

    def guarded_app(*args, **kwargs):
        return RequestGuard(build(*args, **kwargs), hosts)

    webserver_cli.create_app_from_workspace_process_context = guarded_app
    webserver_cli.main()


if __name__ == "__main__":
    main()
