"""Shared test fixtures: paths to ../shared/fixtures (real-world samples, never copied here), the data home, the model.

The converted SmolLM2 folder lives in <repo>/aceforge-data/models (git-ignored)
unless ACEFORGE_MODELS says otherwise, so the 20-second conversion happens once
per checkout rather than once per test; tests that use their own data home
(the ``data_home`` fixture) still find it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Any elapsed time as runtime.elapsed.spent writes it (tests never assert how long something took).
SPENT = r"\d+ (s|min \d\d s|h \d\d min)"
FIXTURES = ROOT.parent / "shared" / "fixtures"
ADP_FIXTURES = FIXTURES / "adp"
TAU_FIXTURES = FIXTURES / "tau"

# Nothing may download from a hub at run time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ACEFORGE_MODELS", str(ROOT / "aceforge-data" / "models"))
# With as many xdist workers as cores, torch's default of one OpenMP thread per core in every worker (and in the
# processes a test starts) oversubscribes them: two SmolLM2 training loops side by side took 207 s with 2 threads
# each against 52 s with 1 on this two-core machine. Set before any test module imports torch.
if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) >= (os.cpu_count() or 1):
    os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture
def data_home(tmp_path, monkeypatch) -> Path:
    """A fresh ACEFORGE_HOME (catalog, Dagster instance, caches) for one test."""
    home = tmp_path / "aceforge-data"
    monkeypatch.setenv("ACEFORGE_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def smol_path() -> str:
    """The default model (SmolLM2-135M-Instruct) as a Hugging Face folder."""
    from generators.llm.model_store import prepare_default_model

    return str(prepare_default_model())


# A YAML alias bomb: nine lines, 9**9 values once expanded (configs must refuse it before walking it).
BILLION_LAUGHS = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['lol'] * 9)}]\n"
    for prev, name in zip([None, *"abcdefgh"], "abcdefghi")
)
