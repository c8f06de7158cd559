"""A content-addressed store of generation results (SQLite under the data directory).

The key hashes everything that changes an output: the model identity (path and
a hash of its files), the engine and its numerics (backend name, dtype), the
rendered prompt, the tools, the JSON schema and every sampling parameter
including the seed. Throughput knobs (batch size, concurrency, GPU memory,
parallelism) are not inputs to the key at all. Each result is committed on its
own as it completes; SQLite's journal makes every write atomic, so a run
killed at any point leaves only whole results behind.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

from environments.base import canonical_hash
from generators.llm.interface import ChatRequest, GenerationResult, SamplingParams
from generators.llm.tool_calls import normalize_tools
from runtime.settings import data_home

KEY_VERSION = 1


def cache_key(
    model_id: dict[str, str],
    engine: dict[str, Any],
    prompt: str,
    request: ChatRequest,
    params: SamplingParams,
) -> str:
    """The content key of one request's result; see the module docstring for what goes in."""
    return canonical_hash(
        {
            "v": KEY_VERSION,
            "model": model_id,
            "engine": engine,
            "prompt": prompt,
            "tools": normalize_tools(request.tools),
            "json_schema": request.json_schema,
            "sampling": params.model_dump(),
        }
    )


def default_cache_path() -> Path:
    return data_home() / "cache" / "generations.sqlite"


class GenerationCache:
    """key -> GenerationResult; safe to share across threads and processes."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=60, check_same_thread=False, isolation_level=None)
        # WAL: readers never block the writer; NORMAL sync is durable against a killed process.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, result BLOB NOT NULL)")

    def get_many(self, keys: Iterable[str]) -> dict[str, GenerationResult]:
        keys = list(dict.fromkeys(keys))
        found: dict[str, GenerationResult] = {}
        with self._lock:
            for start in range(0, len(keys), 500):  # SQLite caps bound parameters per statement
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(f"SELECT key, result FROM results WHERE key IN ({marks})", chunk)
                for key, blob in rows:
                    found[key] = GenerationResult.model_validate(orjson.loads(blob))
        return found

    def put(self, key: str, result: GenerationResult) -> None:
        """Store one result (first writer wins: a key's result never changes)."""
        blob = orjson.dumps(result.model_dump(exclude={"cached"}))
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO results (key, result) VALUES (?, ?)", (key, blob))

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
