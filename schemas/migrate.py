"""Rewriting record files of earlier schema versions as the current one: what ``aceforge migrate DIR`` runs.

A file is rewritten only when every one of its records reads (schemas/versions.py says how each version
reads) and as many records are written as it held; the new file goes to a temporary name in the same folder,
gets the original's permissions (and owner, where this process may set it), is synced to disk and renamed over
the original, so a crash leaves either the old file or the new one, never a half-written one. A file that is
already current, that is not a record file, or that cannot be read is left as it was, and the outcome says why.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from schemas.arrow_schema import RECORD_SCHEMA, schema_differences
from schemas.io import atomic_output, read_records, write_jsonl, write_records
from schemas.record_files import parquet_versions
from schemas.versions import SCHEMA_VERSION, SchemaError, unknown_fields_message

RECORD_SUFFIXES = (".parquet", ".jsonl")
MIGRATED, WOULD_MIGRATE, CURRENT, NOT_RECORDS, FAILED = "migrated", "would migrate", "current", "not records", "failed"


@dataclass(frozen=True)
class Outcome:
    path: Path
    action: str  # one of MIGRATED, WOULD_MIGRATE, CURRENT, NOT_RECORDS, FAILED
    detail: str
    versions: tuple[str, ...] = ()
    records: int | None = None


class _NotRecords(Exception):
    """A file that holds no records (another table, chats, a quarantine file): not migrate's to touch."""


def migrate_folder(folder: Path, dry_run: bool = False, skip_dirs: Collection[str] = ()) -> Iterator[Outcome]:
    """Migrate every ``.parquet`` and ``.jsonl`` file under ``folder`` (or ``folder`` itself, a file), in path
    order. Hidden files and folders (writers' temporaries) and folders named in ``skip_dirs`` are not entered."""
    unlisted: list[OSError] = []
    for path in record_files(folder, skip_dirs, unlisted.append):
        yield migrate_file(path, dry_run)
    for error in unlisted:  # a folder this process cannot list: said, not skipped silently
        yield Outcome(Path(error.filename), FAILED, f"cannot list: {error.strerror}")


def record_files(folder: Path, skip_dirs: Collection[str], on_error: Callable[[OSError], None]) -> list[Path]:
    if not folder.is_dir():
        return [folder]
    found = []
    for root, dirs, files in os.walk(folder, onerror=on_error):  # symbolic links to folders are not followed
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in skip_dirs]
        found += [Path(root, f) for f in files if not f.startswith(".") and Path(f).suffix in RECORD_SUFFIXES]
    return sorted(found)


def migrate_file(path: Path, dry_run: bool = False) -> Outcome:
    """Rewrite one record file as the current version (or say what would be done, with ``dry_run``)."""
    if path.is_symlink():  # a rename over the link would replace it with a file
        return Outcome(path, NOT_RECORDS, "a symbolic link: left as it is (migrate the file it points to)")
    try:
        versions, current, rows = _survey(path)
    except _NotRecords as exc:
        return Outcome(path, NOT_RECORDS, str(exc))
    except (ValueError, pa.ArrowException, OSError) as exc:  # SchemaError and JSON errors are ValueErrors
        return Outcome(path, FAILED, f"cannot read: {exc}")
    if current:
        return Outcome(path, CURRENT, f"already {SCHEMA_VERSION}", versions, rows)
    change = f"{', '.join(versions) or '?'} -> {SCHEMA_VERSION}"
    try:
        if dry_run:
            _check_count(sum(1 for _ in read_records(path)), rows, "read")
        else:
            _rewrite(path, rows)
    except (ValueError, TypeError, KeyError, pa.ArrowException, OSError) as exc:  # pydantic's errors are ValueErrors
        return Outcome(path, FAILED, f"{change}: {exc}", versions, rows)
    return Outcome(path, WOULD_MIGRATE if dry_run else MIGRATED, change, versions, rows)


def _survey(path: Path) -> tuple[tuple[str, ...], bool, int]:
    """(the versions the file's records say, whether the file is current, how many records it holds)."""
    if path.suffix == ".jsonl":
        return _survey_jsonl(path)
    file = pq.ParquetFile(path)
    differences = schema_differences(file.schema_arrow)
    if differences.problems():
        raise _NotRecords("not a record file")
    versions = tuple(parquet_versions(file))
    if differences.unknown:
        raise SchemaError(unknown_fields_message(differences.unknown, list(versions)))
    current = file.schema_arrow.equals(RECORD_SCHEMA) and versions in ((), (SCHEMA_VERSION,))
    return versions, current, file.metadata.num_rows


_RECORD_KEYS = frozenset({"id", "schema_version", "source"})  # written by every version's JSONL writer


def _survey_jsonl(path: Path) -> tuple[tuple[str, ...], bool, int]:
    versions, rows = set(), 0
    with path.open("rb") as f:
        for line in f:
            if not line.strip():
                continue
            data = orjson.loads(line)
            if not (isinstance(data, dict) and data.keys() >= _RECORD_KEYS):
                if rows == 0:
                    raise _NotRecords("not a record file (its first line is no record)")
                raise ValueError(f"line {rows + 1} is no record")
            versions.add(str(data["schema_version"]))
            rows += 1
    return tuple(sorted(versions)), versions <= {SCHEMA_VERSION}, rows


def _rewrite(path: Path, rows: int) -> None:
    """Write the file's records as the current version beside it, then rename that over it: only when every
    record read and all ``rows`` were written."""
    before = path.stat()
    with atomic_output(path) as tmp:
        records = read_records(path)
        written = write_jsonl(records, tmp) if path.suffix == ".jsonl" else write_records(records, tmp)
        _check_count(written, rows, "wrote")
        os.chmod(tmp, before.st_mode & 0o7777)
        with suppress(PermissionError):  # another user's file, which this process may not give back: mode kept
            os.chown(tmp, before.st_uid, before.st_gid)
        _fsync(tmp, os.O_RDONLY)
    _fsync(path.parent, os.O_RDONLY | os.O_DIRECTORY)  # the rename itself, on disk


def _check_count(count: int, rows: int, did: str) -> None:
    if count != rows:
        raise ValueError(f"{did} {count} records of the {rows} it holds")


def _fsync(path: Path, flags: int) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
