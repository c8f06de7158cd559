"""A local cluster of aceforge's runs nobody else's code: another local user (uid 65534 when the tests run as
root) cannot read its token, join it as a client, or submit a job through any of its HTTP ports, and its
files lie in a folder only this user can enter (Ray makes its own temp folder world-writable).

Before this check existed, local clusters ran with RAY_AUTH_MODE=disabled and a dashboard: uid 65534 submitted
``id > file`` through the job API and the file said uid=0(root).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import uuid
from pathlib import Path

import psutil
import pytest

from tests.ray_cluster import RAY_ENV, ROOT
from tests.unprivileged import AS_ROOT, unprivileged_python

os.environ.update(RAY_ENV)  # before ray is imported: it reads them then
pytest.importorskip("ray")

INTRUDER = "tests.runtime.ray_intruder"


def listening_ports() -> list[int]:
    """TCP ports the cluster's processes (this process's descendants) listen on."""
    ports = set()
    for process in psutil.Process().children(recursive=True):
        try:
            ports |= {c.laddr.port for c in process.net_connections(kind="tcp") if c.status == psutil.CONN_LISTEN}
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return sorted(ports)


@pytest.fixture(scope="module")
def cluster():
    """A local cluster as `--engine ray --ray-dashboard` starts one: its address, token file and ports."""
    from runtime.engine import cluster_info, ray_session

    with ray_session("", dashboard=True) as ray:
        info = cluster_info(ray)
        yield info, listening_ports()


def intrude(command: list[str], info, ports: list[int], tmp_path: Path) -> dict:
    marker = tmp_path / f"pwned-{uuid.uuid4().hex}"
    tmp_path.chmod(0o777)  # the intruder may write its marker here: only the job API must stop it
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_AUTH")}
    done = subprocess.run(
        [*command, info.address, info.token_file, str(marker), *map(str, ports)],
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["marker"] = marker.exists()
    return result


def assert_refused(result: dict) -> None:
    assert result["task"].startswith("refused"), result["task"]
    assert not any(answer.startswith("accepted") for answer in result["jobs"].values()), result["jobs"]
    assert not result["marker"]


def test_the_cluster_keeps_its_files_and_token_to_its_user(cluster):
    info, ports = cluster
    folder = Path(info.token_file).parent
    assert info.dashboard.startswith("http://127.0.0.1:") and f"(its token: {info.token_file})" in info.line()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(Path(info.token_file).stat().st_mode) == 0o600
    assert list((folder / "ray").glob("session_*")), "Ray's files are not in the private folder"


@pytest.mark.skipif(not AS_ROOT, reason="another user's attempts need root to start them as uid 65534")
def test_another_user_can_neither_join_nor_submit_a_job(cluster, tmp_path):
    info, ports = cluster
    command = unprivileged_python(INTRUDER)
    if command is None:
        pytest.skip("uid 65534 cannot run this checkout: a Python of this version or its folders unreadable")
    result = intrude(command, info, ports, tmp_path)
    assert result["uid"] == 65534
    assert result["token"] == "PermissionError"
    assert_refused(result)
    dashboard_port = int(info.dashboard.rsplit(":", 1)[1])
    assert result["jobs"][f"{dashboard_port}/api/jobs/"] == "http 401"


def test_a_client_of_this_user_without_the_token_is_refused(cluster, tmp_path):
    info, ports = cluster
    result = intrude([sys.executable, "-m", INTRUDER], info, ports, tmp_path)
    assert result["uid"] == os.getuid()
    assert_refused(result)


AFTERWARDS = """
import os, json
from pathlib import Path
from runtime.engine import ray_session
before = {key: os.environ.get(key) for key in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH")}
with ray_session("") as ray:
    token = Path(os.environ["RAY_AUTH_TOKEN_PATH"])
    ran = ray.get(ray.remote(lambda: 41 + 1).remote())  # the driver itself holds the token
    from ray._private.worker import get_dashboard_url
    dashboard = get_dashboard_url()
after = {key: os.environ.get(key) for key in before}
print(json.dumps([ran, dashboard, token.parent.exists(), before == after]))
"""


def test_without_being_asked_no_dashboard_and_nothing_left_after():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", AFTERWARDS], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [42, "", False, True]
