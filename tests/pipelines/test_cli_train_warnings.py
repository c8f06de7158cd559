"""`train` filters TRL's notices about the vLLM version range and its experimental rollout_func, nothing else."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

IMPORT_TRL = (
    "import warnings; from pipelines.cli.train import quiet_third_party; quiet_third_party(); "
    "import trl.generation.vllm_generation; warnings.warn('a warning of our own')"
)


def test_trl_version_notices_are_filtered_and_other_warnings_kept():
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_TRL], cwd=ROOT, capture_output=True, text=True, timeout=300, check=True
    )
    assert "TRL currently supports vLLM versions" not in result.stderr
    assert "a warning of our own" in result.stderr
