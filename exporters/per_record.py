"""Exports that write each record as one JSON line (ADP, ATIF): the loop, and the error a record that cannot be
written gives."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
from pydantic import ValidationError

from schemas.io import atomic_output, read_records
from schemas.record import AgentRecord
from schemas.versions import SchemaError


class RecordNotExported(ValueError):
    """Record ``index`` (0-based, in file order) of the source cannot be written; ``cause`` says why."""

    def __init__(self, source: Path, index: int, cause: Exception):
        super().__init__(f"{source}: record {index} cannot be exported: {cause}")
        self.source, self.index, self.cause = source, index, cause


def write_each(source: Path, output: Path, to_row: Callable[[AgentRecord], dict[str, Any]]) -> dict[str, Any]:
    """``to_row`` of every record of ``source``, one JSON line each, into ``output`` (all or nothing).

    A file that is not a record file of a known version raises its SchemaError (about the file, not one record).
    """
    count = 0
    try:
        with atomic_output(output) as tmp, open(tmp, "wb") as f:
            for record in read_records(source):
                f.write(orjson.dumps(to_row(record)) + b"\n")
                count += 1
    except SchemaError:
        raise
    except (ValidationError, ValueError, KeyError, pa.ArrowException) as exc:
        raise RecordNotExported(source, count, exc) from exc
    return {"output": str(output), "records": count, "written": count}
