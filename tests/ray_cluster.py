"""A real two-node Ray cluster on 127.0.0.1 for tests: a head and a second node, one CPU each.

Each node is its own set of processes (GCS on the head, a raylet and object
store per node, their workers), started by Ray's ``cluster_utils.Cluster``
with its files and token where aceforge keeps a local cluster's
(``runtime.engine.private_cluster_files``: a folder only this user can enter,
token authentication on). ``ray start --address`` would refuse: it adds a
node only where Ray may use the machine's external interface, and the tests
must stay on loopback (RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0, read when ray is
imported). Teardown stops the nodes, then kills any process this test started
that is still alive, and reports what is left (nothing, normally).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import psutil

from runtime.engine import private_cluster_files
from runtime.ports import free_port

ROOT = Path(__file__).resolve().parents[1]
# Read by ray when imported: every Ray process stays on 127.0.0.1, without usage reports.
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}


def our_processes(before: set[int]) -> list[psutil.Process]:
    """Descendants of this process started since ``before`` was taken, zombies aside."""
    found = []
    for process in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.NoSuchProcess):
            if process.pid not in before and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process)
    return found


class LocalCluster:
    def __init__(self):
        self.files = contextlib.ExitStack()
        self.temp = ""
        self.cluster = None
        self.previous_tmpdir: str | None = None
        self.before = {p.pid for p in psutil.Process().children(recursive=True)}

    @property
    def address(self) -> str:
        return self.cluster.address

    def start(self) -> LocalCluster:
        os.environ.update(RAY_ENV)
        self.temp = os.path.join(self.files.enter_context(private_cluster_files()), "ray")
        # Ray's Cluster writes the head's address to <RAY_TMPDIR>/ray/ray_current_cluster without creating the
        # folder (/tmp/ray on a machine where Ray never ran): ours, so a user's own Ray address is left alone too.
        self.previous_tmpdir = os.environ.get("RAY_TMPDIR")
        os.environ["RAY_TMPDIR"] = self.temp
        os.makedirs(os.path.join(self.temp, "ray"), exist_ok=True)
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        from ray._private import ray_constants
        from ray.cluster_utils import Cluster

        if ray_constants.ENABLE_RAY_CLUSTER:
            raise RuntimeError("ray was imported before RAY_ENV was set: the nodes would not stay on 127.0.0.1")

        # The dashboard on loopback, at a port of its own: the UI links to it (pipelines/assets/progress.py).
        head = {
            "num_cpus": 1,
            "include_dashboard": True,
            "dashboard_host": "127.0.0.1",
            "dashboard_port": free_port(),
            "temp_dir": self.temp,
        }
        self.cluster = Cluster(initialize_head=True, head_node_args=head)
        self.cluster.add_node(num_cpus=1)
        self.cluster.wait_for_nodes()
        return self

    def stop(self) -> list[int]:
        """Stop the nodes and kill what is left of them; return the pids still alive (none, normally)."""
        import ray

        ray.shutdown()
        if self.cluster is not None:
            self.cluster.shutdown()
        for process in our_processes(self.before):
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
        deadline = time.monotonic() + 10
        while (left := our_processes(self.before)) and time.monotonic() < deadline:
            time.sleep(0.2)
        self.files.close()  # the folder and the token go; the environment's auth settings are restored
        if self.previous_tmpdir is None:
            os.environ.pop("RAY_TMPDIR", None)
        else:
            os.environ["RAY_TMPDIR"] = self.previous_tmpdir
        return [p.pid for p in left]
