"""The one check a record file passes before anything reads it, and the opening of a record Parquet file.

Every command that takes a record file calls ``check_record_file`` first (the CLI through
pipelines/cli/records.py ``check_file``), and ``open_record_parquet`` (under every Parquet record reader)
runs the same checks. A path that is not a record file gets one line that names it, says what it is and
what to do (``NotARecordFile``), never a reader's traceback from inside a stage: a missing path, a folder,
an empty or non-Parquet ``.parquet``, a Parquet file of other columns, JSON lines of raw trajectories.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from schemas.arrow_schema import schema_differences
from schemas.versions import NewerSchemaError, SchemaError, unknown_fields_message

RECORD_SUFFIXES = (".parquet", ".jsonl")
WHAT_TO_DO = "give a record file written by aceforge (`aceforge convert` makes one from raw trajectories)"
# A JSON line with two of these is a record (a bad one, maybe: its command says what is wrong with the row); one
# with fewer is something else, typically the raw trajectories `aceforge convert` reads.
RECORD_KEYS = ("id", "environment", "task", "trajectory")
SCAN_LINES = 20  # JSONL lines looked at for the first JSON object


class NotARecordFile(SchemaError):
    """``path`` is not a record file; the message is one line for the user."""

    def __init__(self, message: str, path: Path, problems: list[str] | None = None):
        super().__init__(message)
        self.path = path
        self.problems = problems or []  # every way a record Parquet file's schema differs from this version's


class RawTrajectories(NotARecordFile):
    """JSON lines of something other than records: what ``aceforge convert`` reads, most likely."""

    def __init__(self, message: str, path: Path, shape: str):
        super().__init__(message, path)
        self.shape = shape  # "keys messages, tools": what the first line holds


def check_record_file(
    path: str | os.PathLike, suffixes: tuple[str, ...] = RECORD_SUFFIXES, chats: bool = False
) -> None:
    """Raise NotARecordFile unless ``path`` is a file of records a reader can open: Parquet of the record schema
    (this version's or an earlier one's; a newer one's is a NewerSchemaError) or JSON lines whose first object
    is a record. ``chats`` also accepts chat conversations (a ``messages`` column or key), as training reads
    them. Only the first JSON lines are looked at: a bad row further on is its command's to report."""
    path = Path(path)
    if path.is_dir():
        raise NotARecordFile(_folder_line(path, suffixes), path)
    if not path.is_file():
        raise NotARecordFile(f"file not found: {path}", path)
    if path.suffix not in suffixes:
        raise NotARecordFile(f"{path}: expected a {' or '.join(suffixes)} file of records", path)
    if path.suffix == ".jsonl":
        _check_jsonl(path, chats)
        return
    file = _parquet(path)
    if not (chats and "messages" in file.schema_arrow.names):
        _check_record_schema(path, file, chats)


def open_record_parquet(path: str | os.PathLike) -> pq.ParquetFile:
    """The Parquet file of records at ``path``, of this schema version or an earlier one; NotARecordFile (or
    NewerSchemaError, for fields no version this aceforge reads has) otherwise, one line naming the file."""
    path = Path(path)
    if not path.is_file():
        check_record_file(path)  # says what it is instead: a folder, nothing
    file = _parquet(path)
    _check_record_schema(path, file)
    return file


def parquet_versions(file: pq.ParquetFile) -> list[str]:
    """The schema versions the rows of a record Parquet file say they are."""
    column = file.read(columns=["schema_version"]).column(0)
    return sorted(str(v) for v in column.unique().to_pylist())


def _folder_line(path: Path, suffixes: tuple[str, ...]) -> str:
    inside = sorted(p.name for p in path.iterdir() if p.suffix in suffixes and not p.name.startswith("."))
    if not inside:
        return f"{path} is a folder, not a record file, and holds no {' or '.join(suffixes)} file; {WHAT_TO_DO}"
    listed = ", ".join(inside[:5]) + (f" and {len(inside) - 5} more" if len(inside) > 5 else "")
    return f"{path} is a folder, not a record file; give one of its files ({listed})"


def _parquet(path: Path) -> pq.ParquetFile:
    size = path.stat().st_size
    if size == 0:
        raise NotARecordFile(f"{path} is not a Parquet file (0 bytes); {WHAT_TO_DO}", path)
    try:
        return pq.ParquetFile(path)
    except (pa.ArrowException, OSError):
        raise NotARecordFile(
            f"{path} is not a Parquet file ({_what_it_holds(path, size)}); {WHAT_TO_DO}", path
        ) from None


def _what_it_holds(path: Path, size: int) -> str:
    with path.open("rb") as handle:
        head = handle.read(512)
    if head.startswith(b"PAR1"):
        return f"a Parquet file cut short: {size} bytes and no footer"
    try:
        text = head.decode()
    except UnicodeDecodeError:
        return f"{size} bytes of something else: no Parquet footer"
    kind = "JSON" if text.lstrip()[:1] in ("{", "[") else "text"
    return f"{kind}, {size} bytes, starting {' '.join(text.split())[:40]!r}"


def _check_record_schema(path: Path, file: pq.ParquetFile, chats: bool = False) -> None:
    names = file.schema_arrow.names
    differences = schema_differences(file.schema_arrow)
    problems = differences.problems()
    if problems and "trajectory" not in names:  # another table (aceforge's scores, audits, quarantines; chats)
        columns = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
        what = "records nor chat conversations (a messages column)" if chats else "records"
        raise NotARecordFile(f"{path} is a Parquet file of other columns ({columns}), not {what}; {WHAT_TO_DO}", path)
    if problems:
        shown = "; ".join(problems[:4]) + (f"; and {len(problems) - 4} more" if len(problems) > 4 else "")
        raise NotARecordFile(
            f"{path} is not a record Parquet file ({shown}); `aceforge validate {path}` lists every difference",
            path,
            problems,
        )
    if differences.unknown:
        raise NewerSchemaError(f"{path}: {unknown_fields_message(differences.unknown, parquet_versions(file))}")


def _check_jsonl(path: Path, chats: bool) -> None:
    first, seen, value = _first_value(path)
    if value is _NOTHING:
        if seen:
            more = f", nor are the {seen - 1} lines after it" if seen > 1 else ""
            raise NotARecordFile(f"{path} line {first} is not JSON{more}; {WHAT_TO_DO}", path)
        return  # an empty file: its command says whether that will do
    if isinstance(value, dict) and (sum(key in value for key in RECORD_KEYS) >= 2 or (chats and "messages" in value)):
        return
    shape = f"keys {', '.join(list(value)[:6])}" if isinstance(value, dict) else f"a JSON {type(value).__name__}"
    raise RawTrajectories(
        f"{path} holds JSON lines of another shape ({shape}), not records: convert it first "
        f"(`aceforge convert --format auto {path} -o {path.stem}.parquet`)",
        path,
        shape,
    )


_NOTHING = object()


def _first_value(path: Path) -> tuple[int, int, Any]:
    """(the first non-blank line's number, non-blank lines looked at, the first of them that parses or _NOTHING):
    a line that does not parse before a JSON one is a bad row for its command to report (validate lists it,
    verify quarantines it)."""
    first, seen = 0, 0
    with path.open("rb") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            first, seen = first or number, seen + 1
            try:
                return first, seen, orjson.loads(line)
            except orjson.JSONDecodeError:
                if seen == SCAN_LINES:
                    break
    return first, seen, _NOTHING
