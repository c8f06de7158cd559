"""Shared test fixtures: paths to ../shared/fixtures (real-world samples, never copied here)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT.parent / "shared" / "fixtures"
ADP_FIXTURES = FIXTURES / "adp"
TAU_FIXTURES = FIXTURES / "tau"

# Nothing may download from a hub at run time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture
def data_home(tmp_path, monkeypatch) -> Path:
    """A fresh ACEFORGE_HOME (catalog, Dagster instance, caches) for one test."""
    home = tmp_path / "aceforge-data"
    monkeypatch.setenv("ACEFORGE_HOME", str(home))
    return home
