"""A vLLM engine starts without the notices every CPU start printed and leaves no socket files behind; errors
stay, and a user's settings win."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from generators.llm.vllm_backend import QUIET_ENV, engine_environment
from tests.conftest import ROOT

# Converts the packaged GGUF into a fresh models folder, starts an engine, generates, then logs through vLLM.
START_ENGINE = """
from generators.llm.interface import ChatRequest, SamplingParams
from generators.llm.vllm_backend import VllmBackend

if __name__ == "__main__":
    backend = VllmBackend("default", max_model_len=512, batch_size=1)
    result = backend.generate([ChatRequest(messages=[{"role": "user", "content": "Say hi."}])], SamplingParams(max_tokens=4))
    print("generated:", bool(result[0].texts[0]), flush=True)
    from vllm.logger import init_logger
    init_logger("vllm.aceforge_test").error("an error of vLLM's own")
    backend.close()
"""

NOISE = (
    "Converting and de-quantizing GGUF",  # transformers' bar while the GGUF is converted
    "Writing model shards",
    "FutureWarning",  # torch's reduce_op deprecation, triggered by vLLM's Triton dispatcher
    "NUMA binding",  # torch's C++ notice in the engine's worker
    "Enforce eager set",  # vLLM's warnings on what its CPU build always does
    "Model Runner V2 requires Triton",
    "Triton is installed, but doesn't include CPU backend",
)


@pytest.mark.slow
def test_an_engine_starts_without_cpu_notices_and_keeps_vllm_errors(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("VLLM_LOGGING")}
    env["ACEFORGE_MODELS"] = str(tmp_path / "models")
    # Where vLLM leaves its ZMQ socket files unless told otherwise; short: a socket's path fits 107 characters.
    temp = Path(tempfile.mkdtemp(prefix="afq", dir="/tmp"))
    env["TMPDIR"] = str(temp)
    script = tmp_path / "start_engine.py"
    script.write_text(START_ENGINE)
    result = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "generated: True" in result.stdout
    assert "an error of vLLM's own" in result.stdout
    noise = [line for line in output.splitlines() if any(text in line for text in NOISE)]
    # vLLM logs the Triton note while it is imported, before its logging is configured: the parent does not print
    # it; the engine's two spawned processes still do.
    assert len(noise) <= 2 and all("Triton is installed" in line for line in noise), noise
    left = [path.name for path in temp.rglob("*") if path.is_socket()]
    shutil.rmtree(temp, ignore_errors=True)
    assert left == []  # the engine's IPC folder went with the process


def test_the_engine_environment_is_put_back_and_a_users_settings_win(monkeypatch):
    for name in [*QUIET_ENV, "VLLM_CPU_KVCACHE_SPACE"]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("VLLM_LOGGING_LEVEL", "INFO")
    with engine_environment(cpu=True):
        assert os.environ["VLLM_LOGGING_LEVEL"] == "INFO" and os.environ["TORCH_CPP_LOG_LEVEL"] == "ERROR"
        assert os.environ["VLLM_CPU_KVCACHE_SPACE"] == "1"
    assert "TORCH_CPP_LOG_LEVEL" not in os.environ and "VLLM_CPU_KVCACHE_SPACE" not in os.environ
    assert os.environ["VLLM_LOGGING_LEVEL"] == "INFO"

    monkeypatch.delenv("VLLM_LOGGING_LEVEL")
    with engine_environment(cpu=False):
        assert os.environ["VLLM_LOGGING_LEVEL"] == "ERROR" and "VLLM_CPU_KVCACHE_SPACE" not in os.environ
    assert "VLLM_LOGGING_LEVEL" not in os.environ
