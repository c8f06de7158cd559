"""Reading and writing AgentRecords: Parquet (streaming, atomic) and JSONL.

Writers buffer rows and flush one row group at a time, so memory stays flat
however many records pass through. A writer writes to a temporary file in the
target's directory and renames it into place on close: a killed run never
leaves a half-written Parquet file under the final name.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from schemas.arrow_schema import (
    QUARANTINE_SCHEMA,
    RECORD_SCHEMA,
    STATISTICS_COLUMNS,
    conform_record_batch,
    json_text,
    record_to_row,
    row_to_record,
)
from schemas.record import AgentRecord, load_record
from schemas.record_files import check_record_file, open_record_parquet
from schemas.versions import SchemaError

DEFAULT_ROW_GROUP = 2048
# A row group is also cut when its Arrow data reaches this size, so a format with
# big records (web pages, ~300 KB each) does not hold 2048 of them at once.
DEFAULT_ROW_GROUP_BYTES = 128 * 2**20
# Rows are turned into Arrow every BATCH_ROWS rows: Arrow holds them compactly, and
# the garbage collector does not rescan thousands of buffered dicts on every pass.
BATCH_ROWS = 64


class ParquetRowWriter:
    """Writes dict rows of a fixed schema to Parquet, atomically, in row groups."""

    def __init__(
        self,
        path: str | os.PathLike,
        schema: pa.Schema,
        row_group_size: int = DEFAULT_ROW_GROUP,
        row_group_bytes: int = DEFAULT_ROW_GROUP_BYTES,
        statistics: bool | list[str] = True,
    ):
        self.path = Path(path)
        self.schema = schema
        self.row_group_size = row_group_size
        self.row_group_bytes = row_group_bytes
        self._tmp = _temp_beside(self.path)
        self._writer = pq.ParquetWriter(self._tmp, schema, compression="zstd", write_statistics=statistics)
        self._buffer: list[dict[str, Any]] = []
        self._batches: list[pa.RecordBatch] = []  # the row group being filled
        self._batched_rows = 0
        self._batched_bytes = 0
        self.rows = 0

    def write(self, row: dict[str, Any]) -> None:
        self._buffer.append(row)
        if len(self._buffer) >= min(BATCH_ROWS, self.row_group_size - self._batched_rows):
            self._to_arrow()
            if self._batched_rows >= self.row_group_size or self._batched_bytes >= self.row_group_bytes:
                self._flush()

    def write_batch(self, batch: pa.RecordBatch) -> None:
        """Rows already in Arrow (built by a worker process, say), written after the rows before them."""
        self._to_arrow()
        self._batches.append(batch)
        self._batched_rows += batch.num_rows
        self._batched_bytes += batch.nbytes
        if self._batched_rows >= self.row_group_size or self._batched_bytes >= self.row_group_bytes:
            self._flush()

    def _to_arrow(self) -> None:
        if self._buffer:
            batch = pa.RecordBatch.from_pylist(self._buffer, schema=self.schema)
            self._batches.append(batch)
            self._batched_rows += batch.num_rows
            self._batched_bytes += batch.nbytes
            self._buffer = []

    def _flush(self) -> None:
        self._to_arrow()
        if self._batches:
            self._writer.write_table(pa.Table.from_batches(self._batches, schema=self.schema))
            self.rows += self._batched_rows
            self._batches, self._batched_rows, self._batched_bytes = [], 0, 0

    def close(self) -> Path:
        self.finish()
        return self.commit()

    def finish(self) -> None:
        """The buffered rows and the file's footer written, still under the temporary name (``commit`` renames
        it); on any failure (a full disk fails here as often as in ``write``) the temporary file is removed."""
        try:
            self._flush()
            self._writer.close()
        except BaseException:
            self.abort()
            raise

    def commit(self) -> Path:
        """The finished file renamed into place."""
        os.replace(self._tmp, self.path)
        return self.path

    def abort(self) -> None:
        """Remove the temporary file, whatever closing the writer says (on a full disk it fails too)."""
        try:
            self._writer.close()
        except Exception:  # the error that brought us here is the one to report
            pass
        finally:
            self._tmp.unlink(missing_ok=True)

    def __enter__(self) -> ParquetRowWriter:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


class RecordWriter(ParquetRowWriter):
    def __init__(self, path: str | os.PathLike, row_group_size: int = DEFAULT_ROW_GROUP):
        super().__init__(path, RECORD_SCHEMA, row_group_size, statistics=STATISTICS_COLUMNS)

    def write_record(self, record: AgentRecord) -> None:
        self.write(record_to_row(record))


class QuarantineWriter(ParquetRowWriter):
    EXCERPT_CHARS = 2000

    def __init__(self, path: str | os.PathLike):
        super().__init__(path, QUARANTINE_SCHEMA)

    def write_row(self, source: str, index: int, error: str, raw: Any) -> None:
        self.write({"source": source, "index": index, "error": error, "raw_excerpt": excerpt(raw, self.EXCERPT_CHARS)})


class LazyQuarantine:
    """A QuarantineWriter opened only when the first unreadable row arrives (no file when every row reads)."""

    def __init__(self, path: Path):
        self.path, self.writer, self.rows = path, None, 0

    def write(self, source: str, index: int, error: str, raw: Any) -> None:
        if self.writer is None:
            self.writer = QuarantineWriter(self.path)
        self.writer.write_row(source, index, error, raw)
        self.rows += 1

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


@contextmanager
def written_together(*opens: Callable[[], ParquetRowWriter]) -> Iterator[list[ParquetRowWriter]]:
    """The writers ``opens`` make, whose files come into place together or not at all (records and their
    quarantine): every file is finished under its temporary name before any is renamed, and on any failure
    (in the block, or finishing one of them on a full disk) every temporary file is removed."""
    writers: list[ParquetRowWriter] = []
    try:
        for open_writer in opens:
            writers.append(open_writer())
        yield writers
        for writer in writers:
            writer.finish()
    except BaseException:
        for writer in writers:
            writer.abort()
        raise
    for writer in writers:
        writer.commit()


def excerpt(raw: Any, limit: int = 2000) -> str:
    if isinstance(raw, bytes):
        text = raw.decode("utf-8", errors="replace")
    elif isinstance(raw, str):
        text = raw
    else:
        try:
            text = json_text(raw)
        except TypeError:
            text = repr(raw)
    return text if len(text) <= limit else text[:limit] + "…"


def write_records(records: Iterable[AgentRecord], path: str | os.PathLike) -> int:
    """Write records to ``.parquet`` or ``.jsonl`` (chosen by suffix); returns the count."""
    path = Path(path)
    if path.suffix == ".jsonl":
        return write_jsonl(records, path)
    with RecordWriter(path) as writer:
        for record in records:
            writer.write_record(record)
    return writer.rows


def iter_parquet_rows(
    path: str | os.PathLike, batch_size: int = 1024, columns: list[str] | None = None
) -> Iterator[dict]:
    for batch in pq.ParquetFile(path).iter_batches(batch_size=batch_size, columns=columns):
        yield from batch.to_pylist()


def iter_record_rows(path: str | os.PathLike, batch_size: int = 1024) -> Iterator[dict]:
    """The rows of a record Parquet file of any version this aceforge reads, as RECORD_SCHEMA rows
    (``row_to_record`` makes each a current record)."""
    for batch in open_record_parquet(path).iter_batches(batch_size=batch_size):
        yield from conform_record_batch(batch).to_pylist()


def read_records(path: str | os.PathLike, batch_size: int = 1024) -> Iterator[AgentRecord]:
    """Stream records from a Parquet or JSONL file of any schema version this aceforge reads, as current records,
    one batch in memory at a time. A SchemaError names the file (and the row, for a row of a newer version)."""
    path = Path(path)
    if path.suffix == ".jsonl":
        check_record_file(path)  # a file of raw trajectories is said to be one, not read as bad records
        yield from read_jsonl(path)
    else:
        yield from _parsed(path, iter_record_rows(path, batch_size), row_to_record)


def _parsed(path: Path, rows: Iterable[Any], parse: Callable[[Any], AgentRecord]) -> Iterator[AgentRecord]:
    for index, row in enumerate(rows):
        try:
            yield parse(row)
        except SchemaError as exc:
            raise type(exc)(f"{path} row {index}: {exc}") from None


def _temp_beside(path: Path) -> Path:
    """A temporary name in ``path``'s directory (created if missing), for a write renamed onto ``path``.

    Temporary files of earlier writers of ``path`` that were killed (their pid no longer runs) go first.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(path, ".tmp")
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def remove_stale_temps(path: Path, suffix: str) -> list[Path]:
    """Remove ``.<name>.<pid><suffix>`` files or folders beside ``path`` whose writing process no longer runs.

    A writer killed with SIGKILL cannot clean up; the next writer of the same target does it for it. Entries
    of a process that still runs (or that this one cannot signal: another user's) are left alone.
    """
    pattern = re.compile(rf"\.{re.escape(path.name)}\.(\d+){re.escape(suffix)}")
    removed = []
    for candidate in path.parent.glob(f".{glob.escape(path.name)}.*{suffix}"):
        match = pattern.fullmatch(candidate.name)
        if match is None or process_runs(int(match[1])):
            continue
        if candidate.is_dir() and not candidate.is_symlink():
            shutil.rmtree(candidate, ignore_errors=True)
        else:
            candidate.unlink(missing_ok=True)
        removed.append(candidate)
    return removed


def process_runs(pid: int) -> bool:
    """Whether process ``pid`` exists (True also when it belongs to another user: not ours to judge)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def atomic_output(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary path beside ``path``, renamed onto it when the block succeeds and removed when it fails.

    A killed or failed writer never leaves a half-written file under the final name.
    """
    path = Path(path)
    tmp = _temp_beside(path)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _write_lines(lines: Iterable[bytes], path: str | os.PathLike) -> int:
    count = 0
    with atomic_output(path) as tmp, open(tmp, "wb") as f:
        for line in lines:
            f.write(line + b"\n")
            count += 1
    return count


def write_jsonl_rows(rows: Iterable[Any], path: str | os.PathLike) -> int:
    """Write JSON-able rows as JSONL, atomically; returns the count."""
    return _write_lines((orjson.dumps(row, option=orjson.OPT_NON_STR_KEYS) for row in rows), path)


def write_jsonl(records: Iterable[AgentRecord], path: str | os.PathLike) -> int:
    return _write_lines((record.model_dump_json().encode() for record in records), path)


def _jsonl_lines(path: str | os.PathLike) -> Iterator[bytes]:
    with open(path, "rb") as f:
        yield from (line for line in f if line.strip())


def record_from_json(line: bytes | str) -> AgentRecord:
    """A record from one JSONL line written by any schema version this aceforge reads (see ``load_record``)."""
    return load_record(orjson.loads(line))


def read_jsonl(path: str | os.PathLike) -> Iterator[AgentRecord]:
    yield from _parsed(Path(path), _jsonl_lines(path), record_from_json)
