"""Save and load tool-world databases as JSON (gzip when the name ends in .gz)."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import orjson

from schemas.io import atomic_output


def save_db(state: dict[str, Any], path: str | Path) -> Path:
    """Write atomically: a half-written DB file never replaces a good one."""
    path = Path(path)
    blob = orjson.dumps(state, option=orjson.OPT_INDENT_2 if path.suffix == ".json" else 0)
    if path.suffix == ".gz":
        blob = gzip.compress(blob, mtime=0)  # mtime=0: the same DB gives the same bytes
    with atomic_output(path) as tmp:
        tmp.write_bytes(blob)
    return path


def load_db(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    blob = path.read_bytes()
    if path.suffix == ".gz":
        blob = gzip.decompress(blob)
    state = orjson.loads(blob)
    if not isinstance(state, dict):
        raise ValueError(f"{path}: a database file holds a JSON object of tables")
    return state
