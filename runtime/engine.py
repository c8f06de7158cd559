"""The Ray cluster a Ray executor (runtime/executor.py) works on: a private local one, or a given address.

A local cluster (empty ``ray_address``) is started on 127.0.0.1 only, with
Ray's token authentication on (a fresh token per cluster, in a file only this
user can read), its files in a folder only this user can enter, and no
dashboard unless asked for (``ray_dashboard``): a Ray cluster runs whatever
code its clients send as the user who started it, so no other local user may
be a client. It is stopped when the stage ends; a given address (``auto``,
``ray://host:10001``) is joined with the caller's own settings and left
running. ``cluster_info`` says where the dashboard is. The cluster's workers
must import aceforge: install it on every node (or start the nodes with the
repository on ``PYTHONPATH``), see docs/scale.md.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from runtime.ports import free_port

# A throw-away local cluster binds 127.0.0.1 (Ray otherwise binds the machine's external interface, even when
# told 127.0.0.1). A cluster someone started keeps its own settings.
LOCAL_ONLY = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
# Ray reads the token from RAY_AUTH_TOKEN before RAY_AUTH_TOKEN_PATH: a local cluster sets the path and hides
# a token the caller's environment holds for some other cluster.
AUTH_ENV = ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH", "RAY_AUTH_TOKEN")
# Ray retries a task its memory monitor killed without end by default: a task too big for its node would loop
# forever. The driver owns its tasks' retries, so this holds on any cluster; a user's own setting wins.
OOM_RETRIES = {"RAY_task_oom_retries": "3"}


@contextmanager
def private_cluster_files() -> Iterator[str]:
    """A folder for one local cluster that only this user can enter (mode 0700), holding a fresh token (0600);
    within the block, Ray's token authentication is on with that token, for this process and the processes it
    starts (Ray's own, and steps that join the cluster). Removed, and the environment restored, after.

    Ray makes its temp folder world-writable (0777, no sticky bit): it goes inside this one, as ``<folder>/ray``.
    The folder is under /tmp, not $TMPDIR: Ray's Unix socket paths below it must stay under 107 characters.
    """
    folder = tempfile.mkdtemp(prefix="aceforge-ray-", dir="/tmp")
    token = os.path.join(folder, "auth_token")
    descriptor = os.open(token, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(secrets.token_hex(32))
    previous = {key: os.environ.pop(key, None) for key in AUTH_ENV}
    os.environ.update({"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": token})
    _reload_auth()
    try:
        yield folder
    finally:
        for key, value in previous.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        _reload_auth()
        shutil.rmtree(folder, ignore_errors=True)


def _reload_auth() -> None:
    """Make an already imported Ray read the authentication settings of the environment again (Ray caches both
    the mode and the token when it is first imported or initialized)."""
    import sys

    if "ray" not in sys.modules:
        return
    from ray._raylet import AuthenticationTokenLoader, Config

    Config.initialize("")
    AuthenticationTokenLoader.instance().reset_cache()


@contextmanager
def ray_session(address: str = "", dashboard: bool = False) -> Iterator[Any]:
    """The ``ray`` module, connected: to ``address``, or to a local cluster started here (with its dashboard when
    ``dashboard``) and stopped after."""
    settings = OOM_RETRIES if address else {**LOCAL_ONLY, **OOM_RETRIES}  # a real cluster keeps its own bind
    for key, value in settings.items():  # read when ray is first imported or initialized: set before either
        os.environ.setdefault(key, value)
    import ray
    from ray._private import ray_constants

    # Ray Data says at INFO, on the terminal, where each Dataset's execution logs go: not a user's concern.
    logging.getLogger("ray.data").setLevel(logging.WARNING)

    if ray.is_initialized():  # a caller (a test, an asset) already holds the connection: share it
        yield ray
        return
    if ray_constants.ENABLE_RAY_CLUSTER and not address:
        raise RuntimeError(
            "ray was imported before RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 was set: a local cluster would listen "
            "on every interface; set it in the environment (or give ray_address)"
        )
    if address:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
        try:
            yield ray
        finally:
            ray.shutdown()
        return
    with private_cluster_files() as folder:
        board = {"dashboard_host": "127.0.0.1", "dashboard_port": free_port()} if dashboard else {}
        ray.init(
            include_dashboard=dashboard,
            _temp_dir=os.path.join(folder, "ray"),
            log_to_driver=False,
            configure_logging=False,
            **board,
        )
        try:
            yield ray
        finally:
            ray.shutdown()


CLUSTER_LINE = "ray: cluster "  # how a ClusterInfo line starts: the run's terminal picks it out by it


@dataclass(frozen=True)
class ClusterInfo:
    address: str
    cpus: int
    gpus: int
    dashboard: str  # its URL, empty when the cluster runs without one
    token_file: str = ""  # where the cluster's token is, when this process knows (the dashboard asks for it)

    def line(self) -> str:
        board = self.dashboard or "none (ray_dashboard: true starts one)"
        if self.dashboard and self.token_file:
            board += f" (its token: {self.token_file})"
        return f"{CLUSTER_LINE}{self.address}, {self.cpus} CPUs, {self.gpus} GPUs, dashboard {board}"


def cluster_info(ray: Any) -> ClusterInfo:
    from ray._private.worker import get_dashboard_url

    resources = ray.cluster_resources()
    url = get_dashboard_url()
    return ClusterInfo(
        address=ray.get_runtime_context().gcs_address,
        cpus=int(resources.get("CPU", 0)),
        gpus=int(resources.get("GPU", 0)),
        dashboard=f"http://{url}" if url else "",
        token_file=os.environ.get("RAY_AUTH_TOKEN_PATH", ""),
    )
