"""Where aceforge keeps its data: one directory, ``./aceforge-data`` unless ``ACEFORGE_HOME`` says otherwise.

Everything a run writes lives under it: the DuckDB catalog, converted
datasets, the generated demo sources, models, the generation cache and the
Dagster instance. It sits in schemas/, the bottom of the dependency order, so
every package can find the data directory without importing another. Paths are
resolved when asked for (not at import), so a test or a command that sets
``ACEFORGE_HOME`` is always honoured.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "ACEFORGE_HOME"
DEFAULT_DIR = "aceforge-data"


def data_home(create: bool = False) -> Path:
    """The data directory, absolute."""
    home = Path(os.environ.get(ENV_VAR) or DEFAULT_DIR).expanduser().resolve()
    if create:
        home.mkdir(parents=True, exist_ok=True)
    return home


def catalog_path() -> Path:
    return data_home() / "catalog.duckdb"


def datasets_dir() -> Path:
    return data_home() / "datasets"


def demo_dir() -> Path:
    return data_home() / "demo"
