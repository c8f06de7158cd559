"""What the training stages and trainer exports read: AgentRecords, or the plain chat files TRL users have.

A file is one of:

- AgentRecords: Parquet in the record schema, or JSONL of records (what every
  aceforge stage writes);
- chat conversations: JSONL or Parquet rows with ``messages`` (and optionally
  ``tools``), as TRL's SFTTrainer reads them; each row goes through the
  ``openai_chat`` converter on the way in.

Anything else is an ``InputError`` with one line saying what the file is and
what was expected; an empty file is one too unless the caller allows it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from schemas.record import AgentRecord

SUFFIXES = (".parquet", ".jsonl")
CHAT_FORMAT = "openai_chat"
EXPECTED = "a .parquet or .jsonl file of AgentRecords or of chat conversations (messages + tools)"
# Training takes a file whole or not at all; convert is the stage that sets bad rows aside and says why.
SET_ASIDE = (
    "`aceforge convert --format openai_chat {path} -o chats.parquet` keeps the good rows and quarantines the rest"
)


class InputError(ValueError):
    """A file a stage cannot read as records; the message is one line for the user."""


class EmptyInput(InputError):
    """A readable file with no record in it."""


def read_training_input(path: Path, allow_empty: bool = False) -> list[AgentRecord]:
    """Every record of ``path`` (chat rows converted); InputError for anything else or, unless allowed, nothing."""
    from schemas.record_files import check_record_file
    from schemas.versions import SchemaError

    if path.suffix not in SUFFIXES and not path.is_dir():
        raise InputError(f"{path}: expected {EXPECTED}")
    try:
        check_record_file(path, chats=True)  # a folder, an empty or non-Parquet file, other columns: one line
    except SchemaError as exc:  # or a newer aceforge's record file
        raise InputError(str(exc)) from None
    rows = _jsonl_rows(path) if path.suffix == ".jsonl" else _parquet_rows(path)
    if not rows:
        if allow_empty:
            return []
        raise EmptyInput(f"{path} holds no records (--allow-empty accepts that)")
    if _is_chat(rows[0]):
        return _converted(path, rows)
    return _records(path, rows)


def _jsonl_rows(path: Path) -> list[Any]:
    rows = []
    with path.open("rb") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                rows.append(orjson.loads(line))
            except orjson.JSONDecodeError as exc:
                raise InputError(
                    f"{path} line {number} is not JSON ({exc}); expected {EXPECTED}; for chats, "
                    + SET_ASIDE.format(path=path)
                ) from None
    return rows


def _parquet_rows(path: Path) -> list[Any]:
    import pyarrow.parquet as pq

    from schemas.io import iter_parquet_rows, iter_record_rows

    if "messages" in pq.read_schema(path).names:
        return list(iter_parquet_rows(path))
    return list(iter_record_rows(path))  # a record file of this schema version or an earlier one


def _is_chat(row: Any) -> bool:
    return isinstance(row, dict) and "messages" in row and "trajectory" not in row


def _converted(path: Path, rows: list[Any]) -> list[AgentRecord]:
    from data_catalog.sources import FORMATS
    from data_catalog.sources.base import ConvertOptions, describe_error

    converter = FORMATS.get(CHAT_FORMAT)(ConvertOptions(dataset=path.stem))
    records = []
    for number, row in enumerate(rows, 1):
        if not _is_chat(row):
            raise InputError(f"{path} row {number} has no 'messages' list, unlike row 1")
        try:
            records.append(converter.convert(row))
        except Exception as exc:  # a converter's errors are typed, but a bad row must give a line, not a traceback
            why = describe_error(exc)
            raise InputError(
                f"{path} row {number} is not a chat conversation: {why}; " + SET_ASIDE.format(path=path)
            ) from None
    return records


def _records(path: Path, rows: list[Any]) -> list[AgentRecord]:
    from pydantic import ValidationError

    from schemas.arrow_schema import row_to_record
    from schemas.record import load_record

    parse = load_record if path.suffix == ".jsonl" else row_to_record
    records = []
    for number, row in enumerate(rows, 1):
        try:
            records.append(parse(row))
        except (ValidationError, ValueError, TypeError, KeyError) as exc:
            first = exc.errors()[0] if isinstance(exc, ValidationError) else None
            why = f"{'.'.join(map(str, first['loc']))}: {first['msg']}" if first else " ".join(str(exc).split())
            raise InputError(f"{path} row {number} is not an AgentRecord ({why[:200]}); expected {EXPECTED}") from None
    return records
