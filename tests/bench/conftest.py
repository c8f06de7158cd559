"""The bench scripts import their helpers as top-level modules (``python bench/x.py`` puts bench/ on the path)."""

from __future__ import annotations

import sys

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
