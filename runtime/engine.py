"""Where a stage's heavy work runs: in this machine's processes (``local``) or on a Ray cluster (``ray``).

Stages keep one function per unit of work (convert a chunk, encode a batch,
MinHash a batch, roll out a shard of tasks); the local path calls it here, the
Ray path hands the same function to Ray (tasks, an actor pool, a Ray Data
shuffle). This module is the only place that talks to Ray, and imports it only
when a Ray path runs, so ``engine=local`` needs no Ray at all.

A local cluster (empty ``ray_address``) is started on 127.0.0.1 only, with
Ray's token authentication on (a fresh token per cluster, in a file only this
user can read), its files in a folder only this user can enter, and no
dashboard unless asked for (``ray_dashboard``): a Ray cluster runs whatever
code its clients send as the user who started it, so no other local user may
be a client. It is stopped when the stage ends; a given address (``auto``,
``ray://host:10001``) is joined with the caller's own settings and left running. ``task_progress`` hands a caller (a Dagster asset)
each finished Ray task, and ``cluster_info`` says where the dashboard is.
The cluster's workers must import aceforge: install it on every node (or start
the nodes with the repository on ``PYTHONPATH``), see docs/scale.md.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal

from runtime.ports import free_port
from schemas.stage_config import StageConfig

# A throw-away local cluster binds 127.0.0.1 (Ray otherwise binds the machine's external interface, even when
# told 127.0.0.1). A cluster someone started keeps its own settings.
LOCAL_ONLY = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
# Ray reads the token from RAY_AUTH_TOKEN before RAY_AUTH_TOKEN_PATH: a local cluster sets the path and hides
# a token the caller's environment holds for some other cluster.
AUTH_ENV = ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH", "RAY_AUTH_TOKEN")
IN_FLIGHT_PER_CPU = 4  # tasks queued per CPU: enough to keep workers busy, few enough to bound memory
# Ray retries a task its memory monitor killed without end by default: a task too big for its node would loop
# forever. The driver owns its tasks' retries, so this holds on any cluster; a user's own setting wins.
OOM_RETRIES = {"RAY_task_oom_retries": "3"}


class EngineOptions(StageConfig):
    """The engine of a stage that can scale out (convert, score, dedup, synth rollouts)."""

    engine: Literal["local", "ray"] = "local"
    """Where the heavy work runs: local (this machine's processes) or ray (a Ray cluster: same outputs; see docs/scale.md)."""
    ray_address: str = ""
    """The Ray cluster of engine=ray: 'auto' (the cluster this machine has joined), ray://HOST:10001 (Ray Client), or empty: start a local one on 127.0.0.1 for this run."""
    ray_dashboard: bool = False
    """Start the Ray dashboard (on 127.0.0.1, behind the cluster's token) with a local cluster; off by default: its job API runs commands."""


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


@contextmanager
def shared_cluster(options: EngineOptions) -> Iterator[str]:
    """The Ray address for several stages (in several processes) to share: the configured one, or a local
    cluster started here for their whole run (empty for engine=local). The processes that join it must be
    started within the block: they take its token from the environment."""
    if options.engine == "local" or options.ray_address:
        yield options.ray_address
        return
    with ray_session("", dashboard=options.ray_dashboard) as ray:
        yield ray.get_runtime_context().gcs_address


def cluster_cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


CLUSTER_LINE = "ray: cluster "  # how a ClusterInfo line starts: the run's terminal picks it out by it


@dataclass(frozen=True)
class ClusterInfo:
    address: str
    cpus: int
    gpus: int
    dashboard: str  # its URL, empty when the cluster runs without one
    token_file: str = ""  # where the cluster's token is, when this process knows (the dashboard asks for it)

    def line(self) -> str:
        board = self.dashboard or "none (--ray-dashboard starts one)"
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


# Who hears of each finished Ray task: (what ran, tasks done, tasks in all or None while the input streams).
_on_task_done: ContextVar[Callable[[str, int, int | None], None] | None] = ContextVar("on_task_done", default=None)


@contextmanager
def task_progress(callback: Callable[[str, int, int | None], None]) -> Iterator[None]:
    """Within the block, ``callback(what, done, total)`` after each task of ``ordered_map``/``actor_pool_map``."""
    token = _on_task_done.set(callback)
    try:
        yield
    finally:
        _on_task_done.reset(token)


def _counted(what: str, results: Iterator[Any], total: int | None) -> Iterator[Any]:
    callback = _on_task_done.get()
    for done, result in enumerate(results, 1):
        if callback is not None:
            callback(what, done, total)
        yield result


def _length(items: Iterable[Any]) -> int | None:
    return len(items) if hasattr(items, "__len__") else None


def ordered_map(ray: Any, fn: Callable[[Any, Any], Any], shared: Any, items: Iterable[Any]) -> Iterator[Any]:
    """``fn(shared, item)`` for each item as Ray tasks, results in input order.

    ``shared`` goes to the object store once; at most IN_FLIGHT_PER_CPU tasks per cluster CPU are
    queued, so a long input streams through in bounded memory.
    """
    return _counted(fn.__name__, _ordered(ray, fn, shared, items), _length(items))


def _ordered(ray: Any, fn: Callable[[Any, Any], Any], shared: Any, items: Iterable[Any]) -> Iterator[Any]:
    remote = ray.remote(num_cpus=1)(fn)
    shared_ref = ray.put(shared)
    limit = IN_FLIGHT_PER_CPU * cluster_cpus(ray)
    pending: deque = deque()
    for item in items:
        pending.append(remote.remote(shared_ref, item))
        if len(pending) >= limit:
            yield ray.get(pending.popleft())
    while pending:
        yield ray.get(pending.popleft())


def actor_pool_map(
    ray: Any, worker: type, args: tuple, items: Iterable[Any], actors: int | None = None, gpus_each: float = 0
) -> Iterator[Any]:
    """``worker(*args)(item)`` for each item, on a pool of actors (one per cluster CPU unless ``actors`` says,
    each holding ``gpus_each`` GPUs), results in input order.

    An actor keeps what it loaded (a model, an environment's tables) across the items it serves.
    """
    from ray.util import ActorPool

    actor = ray.remote(num_cpus=1, num_gpus=gpus_each)(worker)
    work = list(items)
    pool = ActorPool([actor.remote(*args) for _ in range(actors or cluster_cpus(ray))])
    return _counted(worker.__name__, pool.map(lambda a, item: a.__call__.remote(item), work), len(work))


@contextmanager
def engine_session(options: EngineOptions | None) -> Iterator[Any]:
    """None for engine=local; for engine=ray, the ``ray`` module connected to the configured cluster."""
    if options is None or options.engine == "local":
        yield None
        return
    with ray_session(options.ray_address, dashboard=options.ray_dashboard) as ray:
        yield ray
