"""Where aceforge keeps its data: one directory, ``./aceforge-data`` unless ``ACEFORGE_HOME`` says otherwise.

Everything a run writes lives under it: the DuckDB catalog, converted
datasets, the generated demo sources, models, the generation cache and the
Dagster instance. It sits in schemas/, the bottom of the dependency order, so
every package can find the data directory without importing another. Paths are
resolved when asked for (not at import), so a test or a command that sets
``ACEFORGE_HOME`` is always honoured.

Code that holds its own data directory (a Dagster run's storage resource)
runs library calls inside ``data_home_scope(path)``: a context variable, so
the process environment, and any other run or thread in the process, keep
theirs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

ENV_VAR = "ACEFORGE_HOME"
DEFAULT_DIR = "aceforge-data"
_SCOPED: ContextVar[Path | None] = ContextVar("aceforge_data_home", default=None)


def data_home(create: bool = False) -> Path:
    """The data directory, absolute: the enclosing ``data_home_scope``'s, else $ACEFORGE_HOME, else ./aceforge-data."""
    home = _SCOPED.get() or Path(os.environ.get(ENV_VAR) or DEFAULT_DIR).expanduser().resolve()
    if create:
        home.mkdir(parents=True, exist_ok=True)
    return home


@contextmanager
def data_home_scope(path: Path) -> Iterator[Path]:
    """Inside, ``data_home()`` is ``path`` for this thread of execution. Threads and processes started inside
    do not inherit it (they read $ACEFORGE_HOME): code that needs the data directory there is handed paths."""
    token = _SCOPED.set(path.expanduser().resolve())
    try:
        yield path
    finally:
        _SCOPED.reset(token)


def catalog_path() -> Path:
    return data_home() / "catalog.duckdb"


def datasets_dir() -> Path:
    return data_home() / "datasets"


def demo_dir() -> Path:
    return data_home() / "demo"
