"""Helpers for converter tests: run convert_files on a temp JSONL file, and compare with ADP's step kinds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson

from data_catalog.convert import convert_files
from data_catalog.sources.base import ConvertOptions
from schemas.io import iter_parquet_rows, read_records


def convert_lines(fmt: str, lines: list[Any], tmp_path: Path, **options: str):
    """Convert a JSONL file of ``lines`` (objects, or str for raw text) through convert_files.

    Returns (stats, records, quarantine rows).
    """
    path = tmp_path / f"{fmt}.jsonl"
    with open(path, "wb") as f:
        for line in lines:
            f.write((line.encode() if isinstance(line, str) else orjson.dumps(line)) + b"\n")
    out = tmp_path / f"{fmt}.parquet"
    stats = convert_files(fmt, [str(path)], out, options=ConvertOptions(extra=options))
    assert stats.read == stats.converted + stats.quarantined
    return stats, list(read_records(out)), list(iter_parquet_rows(stats.quarantine))


def load(path: Path) -> Any:
    return json.loads(Path(path).read_text())


def kinds(steps: list) -> list[str]:
    """The step kinds of a trajectory (model objects or ADP dicts)."""
    return [s["class_"] if isinstance(s, dict) else s.class_ for s in steps]


def drop_adp_synthetic_finish(content: list[dict]) -> list[dict]:
    """ADP's known defect: when a trajectory does not end in a finish message, its converter
    appends a randomly chosen user "success" turn and a "<finish> ... </finish>" message
    (PROVENANCE.md, caveat 1). They are not in the raw data; drop exactly that pair."""
    tail = content[-2:]
    assert len(tail) == 2 and tail[0]["class_"] == "text_observation" and tail[0]["source"] == "user"
    assert (
        tail[1]["class_"] == "message_action"
        and tail[1]["content"].startswith("<finish>")
        and not tail[1]["description"]
    )
    return content[:-2]
