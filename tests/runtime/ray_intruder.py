"""What another local user tries against a local cluster of aceforge's: run as a separate process (as uid 65534
where the tests run as root, else as this user without the cluster's token), it prints one JSON object of what
each attempt gave.

``python -m tests.runtime.ray_intruder ADDRESS TOKEN_FILE MARKER PORT...``: read the cluster's token, join the
cluster as a Ray client and run ``id`` as a task, and submit a job that writes MARKER through the job API of
every HTTP port given (the dashboard, its agents).
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request

# Ray reads these when imported; the intruder has no token (unless it can read the file) and stays on loopback.
for key in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_AUTH_MODE"):
    os.environ.pop(key, None)
os.environ.update({"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0", "HOME": "/tmp"})


def read_token(path: str) -> str:
    try:
        with open(path) as file:
            return "read" if file.read() else "empty"
    except OSError as exc:
        return type(exc).__name__


def run_a_task(address: str) -> str:
    import ray

    try:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
        task = ray.remote(lambda: os.popen("id").read())
        return "ran: " + ray.get(task.remote(), timeout=30)
    except Exception as exc:  # every way of being refused is an answer here
        return f"refused: {type(exc).__name__}"
    finally:
        ray.shutdown()


def submit_jobs(ports: list[int], marker: str) -> dict[str, str]:
    job = json.dumps({"entrypoint": f"id > {marker}"}).encode()
    answers = {}
    for port in ports:
        for path in ("/api/jobs/", "/api/job_agent/jobs/"):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}{path}", data=job, headers={"Content-Type": "application/json"}
            )
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    answers[f"{port}{path}"] = f"accepted {response.status}"
            except urllib.error.HTTPError as exc:
                answers[f"{port}{path}"] = f"http {exc.code}"
            except Exception as exc:  # not an HTTP server (gRPC): no job API there
                answers[f"{port}{path}"] = type(exc).__name__
    return answers


if __name__ == "__main__":
    address, token_file, marker, *ports = sys.argv[1:]
    result = {
        "uid": os.getuid(),
        "token": read_token(token_file),
        "jobs": submit_jobs([int(p) for p in ports], marker),
        "task": run_a_task(address),
    }
    print(json.dumps(result))
