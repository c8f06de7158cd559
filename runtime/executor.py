"""Where a stage's heavy work runs: one ``Executor``, chosen by one ``ExecutorConfig`` (``--engine``, ``--workers``,
``--ray-address``, ``--ray-dashboard``; the same keys in a YAML).

Stages keep one function per unit of work (convert a chunk, MinHash a batch,
roll out a shard of tasks) and hand it to the executor:

- ``map(fn, shared, items)``: ``fn(shared, item)`` per item, results in input
  order, a bounded number in flight;
- ``pool_map(worker_class, args, items)``: ``worker_class(*args)(item)`` per
  item, on workers that keep what they loaded (a model, an environment's
  tables) across the items they serve;
- on Ray only, ``grouped(tables, key, value)`` (a shuffle by key: dedup's LSH
  buckets) and ``remote`` True: a stage that has a cluster-sized path of its
  own (dedup's candidates, rollout actors) takes it there.

Three executors: in this process (engine=local, workers=1); in this process
and ``workers - 1`` forked ones (engine=local, workers > 1); on a Ray cluster
(engine=ray; runtime/engine.py starts or joins it). Every one gives the same
results in the same order. This module is the only library module that starts
processes or talks to Ray, and imports Ray only when a Ray executor runs, so
engine=local needs no Ray at all.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import shutil
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from schemas.stage_config import StageConfig

if TYPE_CHECKING:  # imported where a process pool starts: `aceforge --help` needs the config only
    from concurrent.futures import Future

IN_FLIGHT_PER_CPU = 4  # tasks queued per CPU: enough to keep workers busy, few enough to bound memory
SPOOL_PREFIX = "aceforge-chunks-"
PR_SET_PDEATHSIG = 1  # linux/prctl.h
ALIGNMENT = 64  # Arrow's buffer alignment, kept for buffers read back from a spool file


class ExecutorConfig(StageConfig):
    """Where the heavy work of a stage that can scale out runs (convert, score, dedup, synth rollouts, run)."""

    engine: Literal["local", "ray"] = "local"
    """Where the heavy work runs: local (this machine's processes, see workers) or ray (a Ray cluster: same outputs; see docs/scale.md)."""
    workers: int = Field(1, ge=1)
    """engine=local: processes that work at once (this one and workers-1 forked ones); engine=ray uses the cluster's CPUs."""
    ray_address: str = ""
    """The Ray cluster of engine=ray: 'auto' (the cluster this machine has joined), ray://HOST:10001 (Ray Client), or empty: start a local one on 127.0.0.1 for this run."""
    ray_dashboard: bool = False
    """Start the Ray dashboard (on 127.0.0.1, behind the cluster's token) with a local cluster; off by default: its job API runs commands."""


class Executor:
    """Work in this process, one item after the other."""

    remote = False  # True where work runs on other machines' memory (Ray): stages may take their cluster path
    spread = False  # True where work leaves this process: workers that load a model load their own
    workers = 1

    def map(self, fn: Callable[[Any, Any], Any], shared: Any, items: Iterable[Any]) -> Iterator[Any]:
        """``fn(shared, item)`` for each item, results in input order."""
        return (fn(shared, item) for item in items)

    def pool_map(
        self, worker_class: type, args: tuple, items: Iterable[Any], actors: int | None = None, gpus_each: float = 0
    ) -> Iterator[Any]:
        """``worker_class(*args)(item)`` for each item, results in input order; ``actors``/``gpus_each``: on Ray."""
        return self.map(_call, worker_class(*args), items)

    def resources(self) -> dict[str, float]:
        """The CPUs (and GPUs) the work may use."""
        return {"CPU": float(self.workers)}


def _call(worker: Any, item: Any) -> Any:
    return worker(item)


class ProcessExecutor(Executor):
    """Work in this process and ``workers - 1`` forked ones, each started per ``map`` with the shared value
    (forked: no pickling of it) and bound to this process's life. Results come back through a memory-backed
    spool (see ``_spooled``); while every worker is busy, this process works the next item itself rather than
    wait."""

    spread = True

    def __init__(self, workers: int):
        self.workers = workers

    def map(self, fn: Callable[[Any, Any], Any], shared: Any, items: Iterable[Any]) -> Iterator[Any]:
        return self._in_workers(fn, lambda: shared, items)

    def pool_map(
        self, worker_class: type, args: tuple, items: Iterable[Any], actors: int | None = None, gpus_each: float = 0
    ) -> Iterator[Any]:
        here = worker_class(*args)
        return self._in_workers(_call, lambda: worker_class(*args), items, here)

    def _in_workers(
        self, fn: Callable[[Any, Any], Any], make: Callable[[], Any], items: Iterable[Any], here: Any = None
    ) -> Iterator[Any]:
        """Results in input order. Each forked worker has four items in flight; results ready at the front are
        given back at once, and the front is waited for only when more than two per process pile up behind it
        (memory stays bounded whatever a slow item does)."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        here = make() if here is None else here
        context = multiprocessing.get_context("fork")
        in_flight = IN_FLIGHT_PER_CPU * (self.workers - 1)
        with (
            tempfile.TemporaryDirectory(prefix=f"{SPOOL_PREFIX}{os.getpid()}-", dir=_spool_folder()) as spool,
            ProcessPoolExecutor(
                self.workers - 1, mp_context=context, initializer=_start_worker, initargs=(make, spool, os.getpid())
            ) as pool,
        ):
            pending: deque[Future | _Done] = deque()  # in input order
            for number, item in enumerate(items):
                busy = sum(1 for r in pending if not _ready(r))
                if busy < in_flight:
                    pending.append(pool.submit(_work_in_worker, fn, item, number))
                else:
                    pending.append(_Done(fn(here, item)))
                while pending and (_ready(pending[0]) or len(pending) > in_flight + 2 * self.workers):
                    yield _result(pending.popleft())
            while pending:
                yield _result(pending.popleft())


class _Done:
    def __init__(self, value: Any):
        self.value = value


def _ready(result: Future | _Done) -> bool:
    return isinstance(result, _Done) or result.done()


def _result(result: Future | _Done) -> Any:
    return result.value if isinstance(result, _Done) else _unspooled(*result.result())


_worker_state: Any = None  # a forked worker's shared value (or its worker object)
_worker_spool: str | None = None  # the folder a worker leaves its results' buffers in


def _start_worker(make: Callable[[], Any], spool: str, parent: int) -> None:
    """A forked worker's start: bound to its parent's life, then ready to work."""
    global _worker_state, _worker_spool
    die_with_parent(parent)
    _worker_state, _worker_spool = make(), spool


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this (forked) process when its parent dies, even by SIGKILL (Linux prctl
    PR_SET_PDEATHSIG); a worker would otherwise wait forever on a pipe nobody reads. Elsewhere: a no-op."""
    if sys.platform != "linux":
        return
    import ctypes
    import signal

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request was made: nobody would signal us
        os._exit(1)


def _work_in_worker(fn: Callable[[Any, Any], Any], item: Any, number: int) -> tuple[bytes, str | None, list]:
    return _spooled(fn(_worker_state, item), os.path.join(_worker_spool, str(number)))


def _spooled(result: Any, path: str) -> tuple[bytes, str | None, list[tuple[int, int]]]:
    """``result`` pickled (protocol 5) with its large buffers (Arrow batches' columns, numpy arrays) left in the
    file ``path``, mapped back without a copy (``_unspooled``): pickled through the pool's pipes, they kept its
    helper threads busy with the GIL, and the workers waited for work. At 2 workers on two cores, against a writer
    that only waited (bench/ingest.py): markdown 1.44 -> 1.83x, react-os 1.47 -> 1.73x, codeact 1.72 -> 1.76x
    (medians of 5, with convert's own Arrow-file spool, which this replaced at the same speed: bench/ingest.py
    --sizes 40000 --workers 1 2 --repeat 3, old and new trees alternately on a loaded two-core machine, 2 workers:
    codeact 14.2k, 16.4k rec/s before, 16.9k, 14.0k after; markdown 13.8k, 15.2k before, 15.1k, 12.5k after)."""
    buffers: list[pickle.PickleBuffer] = []
    data = pickle.dumps(result, protocol=5, buffer_callback=buffers.append)
    if not buffers:
        return data, None, []
    places = []
    try:
        with open(path, "wb") as file:
            for buffer in buffers:
                view = buffer.raw()
                file.write(b"\0" * (-file.tell() % ALIGNMENT))
                places.append((file.tell(), view.nbytes))
                file.write(view)
    except OSError:  # a full spool (containers often give /dev/shm 64 MB): the result goes back pickled
        with contextlib.suppress(OSError):
            os.unlink(path)
        return pickle.dumps(result, protocol=5), None, []
    return data, path, places


def _unspooled(data: bytes, path: str | None, places: list[tuple[int, int]]) -> Any:
    """A worker's result, its buffers mapped from the spool (the mapping lives as long as they do); the file
    goes at once."""
    if path is None:
        return pickle.loads(data)
    import pyarrow as pa

    source = pa.memory_map(path)
    whole = source.read_buffer()
    source.close()
    os.unlink(path)
    return pickle.loads(data, buffers=[whole.slice(offset, size) for offset, size in places])


def _spool_folder() -> str:
    """Memory-backed /dev/shm where there is one, so results never reach a disk; else the temp folder.

    Spools of killed runs (named after their pid, which no longer runs) are removed first: in /dev/shm
    they would hold memory until the machine restarts.
    """
    from schemas.io import process_runs

    folder = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else tempfile.gettempdir()
    for entry in os.scandir(folder):
        pid = entry.name.removeprefix(SPOOL_PREFIX).split("-")[0]
        if entry.name.startswith(SPOOL_PREFIX) and pid.isdigit() and not process_runs(int(pid)):
            shutil.rmtree(entry.path, ignore_errors=True)
    return folder


class RayExecutor(Executor):
    """Work as Ray tasks and actors on a connected cluster (``ray``: the connected module)."""

    remote = spread = True

    def __init__(self, ray: Any):
        self.ray = ray

    @property
    def workers(self) -> int:  # type: ignore[override]
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def resources(self) -> dict[str, float]:
        return dict(self.ray.cluster_resources())

    def map(self, fn: Callable[[Any, Any], Any], shared: Any, items: Iterable[Any]) -> Iterator[Any]:
        """Ray tasks; ``shared`` goes to the object store once; at most IN_FLIGHT_PER_CPU tasks per cluster CPU
        are queued, so a long input streams through in bounded memory."""
        return _counted(fn.__name__, self._ordered(fn, shared, items), _length(items))

    def _ordered(self, fn: Callable[[Any, Any], Any], shared: Any, items: Iterable[Any]) -> Iterator[Any]:
        remote = self.ray.remote(num_cpus=1)(fn)
        shared_ref = self.ray.put(shared)
        limit = IN_FLIGHT_PER_CPU * self.workers
        pending: deque = deque()
        for item in items:
            pending.append(remote.remote(shared_ref, item))
            if len(pending) >= limit:
                yield self.ray.get(pending.popleft())
        while pending:
            yield self.ray.get(pending.popleft())

    def pool_map(
        self, worker_class: type, args: tuple, items: Iterable[Any], actors: int | None = None, gpus_each: float = 0
    ) -> Iterator[Any]:
        """A pool of actors: one per cluster CPU unless ``actors`` says, each holding ``gpus_each`` GPUs."""
        from ray.util import ActorPool

        actor = self.ray.remote(num_cpus=1, num_gpus=gpus_each)(worker_class)
        work = list(items)
        pool = ActorPool([actor.remote(*args) for _ in range(actors or self.workers)])
        return _counted(worker_class.__name__, pool.map(lambda a, item: a.__call__.remote(item), work), len(work))

    def grouped(self, tables: Iterable[Any], key: str, value: str, partitions: int) -> list[Any]:
        """The distinct ``value``s of each ``key`` that has two or more, by a Ray Data shuffle of ``tables`` (Arrow
        tables with both columns) into ``partitions`` partitions, or one per cluster CPU if more."""
        data = self.ray.data.from_arrow(list(tables))
        # Ray Data's default of 200 partitions is all overhead below millions of keys.
        partitions = max(self.workers, partitions)
        groups = data.groupby(key, num_partitions=partitions).map_groups(
            _distinct, batch_format="numpy", fn_kwargs={"column": value}
        )
        return [row[value] for row in groups.iter_rows()]


def _distinct(group: dict, column: str) -> dict:
    """A group's distinct values of ``column``, when it has two or more."""
    import numpy as np

    values = np.unique(group[column])
    return {column: [values]} if len(values) > 1 else {column: []}


# Who hears of each finished Ray task: (what ran, tasks done, tasks in all or None while the input streams).
_on_task_done: ContextVar[Callable[[str, int, int | None], None] | None] = ContextVar("on_task_done", default=None)


@contextmanager
def task_progress(callback: Callable[[str, int, int | None], None]) -> Iterator[None]:
    """Within the block, ``callback(what, done, total)`` after each task of a Ray executor's ``map``/``pool_map``."""
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


@contextmanager
def open_executor(cfg: ExecutorConfig | None = None) -> Iterator[Executor]:
    """The executor ``cfg`` asks for (default: this process). A Ray one is connected for the block: to
    ``ray_address``, or to a local cluster started here and stopped after (runtime/engine.py)."""
    cfg = cfg or ExecutorConfig()
    if cfg.engine == "ray":
        from runtime.engine import ray_session

        with ray_session(cfg.ray_address, dashboard=cfg.ray_dashboard) as ray:
            yield RayExecutor(ray)
    elif cfg.workers > 1:
        yield ProcessExecutor(cfg.workers)
    else:
        yield Executor()


@contextmanager
def shared_cluster(cfg: ExecutorConfig) -> Iterator[ExecutorConfig]:
    """``cfg`` for several stages (in several processes) to share: as it is, or, for engine=ray without an
    address, at a local cluster started here for their whole run. The processes that join it must be started
    within the block: they take its token from the environment."""
    if cfg.engine == "local" or cfg.ray_address:
        yield cfg
        return
    from runtime.engine import ray_session

    with ray_session("", dashboard=cfg.ray_dashboard) as ray:
        yield cfg.model_copy(update={"ray_address": ray.get_runtime_context().gcs_address})
