"""Dagster's webserver with aceforge's request guard in front (guard.py); ``aceforge ui`` starts it.

``python -m pipelines.ui.webserver ARGS`` takes dagster-webserver's own arguments; from the environment, the
Host header values to accept (ACEFORGE_UI_HOSTS, comma-separated ``name:port``) and the access token
(ACEFORGE_UI_TOKEN, or ACEFORGE_UI_NO_TOKEN=1 for none). Without them it does not start. The token is taken
out of the environment before Dagster starts its code servers, so they and the runs never hold it, and out of
the access log lines (uvicorn's, at --uvicorn-log-level info). Dagster builds the app in
``create_app_from_workspace_process_context``; this wraps what that returns, so everything else (workspace,
code server, instance, shutdown) stays Dagster's own.
"""

from __future__ import annotations

import logging
import os
import sys

HOSTS_ENV = "ACEFORGE_UI_HOSTS"
TOKEN_ENV = "ACEFORGE_UI_TOKEN"
NO_TOKEN_ENV = "ACEFORGE_UI_NO_TOKEN"


class _HideToken(logging.Filter):
    """Writes the token as ``...`` in the log records it sees (uvicorn's access log has the request's URL)."""

    def __init__(self, token: str):
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(a.replace(self.token, "...") if isinstance(a, str) else a for a in record.args)
        return True


def main() -> None:
    hosts = frozenset(h.strip().lower() for h in os.environ.get(HOSTS_ENV, "").split(",") if h.strip())
    if not hosts:
        sys.exit(f"error: {HOSTS_ENV} names no host: the UI would refuse every request")
    token = os.environ.pop(TOKEN_ENV, "") or None
    if token is None and os.environ.get(NO_TOKEN_ENV) != "1":
        sys.exit(f"error: {TOKEN_ENV} is not set (and {NO_TOKEN_ENV} is not 1): the UI would be anyone's")
    if token is not None:
        logging.getLogger("uvicorn.access").addFilter(_HideToken(token))

    import dagster_webserver.cli as webserver_cli

    from pipelines.ui.guard import RequestGuard

    build = webserver_cli.create_app_from_workspace_process_context

    def guarded_app(*args, **kwargs):
        return RequestGuard(build(*args, **kwargs), hosts, token)

    webserver_cli.create_app_from_workspace_process_context = guarded_app
    webserver_cli.main()


if __name__ == "__main__":
    main()
