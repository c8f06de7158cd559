"""Conversion in chunks, in this process or in worker processes (formats with one record per raw item).

The reader cuts each input into chunks of about a megabyte (JSONL lines, or a
document's records). A chunk becomes an Arrow batch of record rows (each from
``Converter.convert_row``, so the chat formats skip the model objects; see
record_rows.py) plus its quarantine rows. With ``workers`` > 1, this process
and ``workers - 1`` forked ones convert, and this one writes every result, in
input order, so the output is the same file whatever the number of workers.
Ids repeat across chunks only when content does, and only the writing process
sees the whole run: it drops the repeats (see convert.Output).

Forked workers start with this process's imports at once; at most four chunks
per worker are in flight and only a few converted ones wait to be written, so
memory stays bounded on any input.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from data_catalog.sources.base import Converter, describe_error
from data_catalog.sources.reader import INPUT_ERRORS, RawChunk, chunk_items, read_raw_chunks, unreadable_input
from runtime.engine import EngineOptions, engine_session, ordered_map
from schemas.arrow_schema import RECORD_SCHEMA, record_to_row
from schemas.io import excerpt


@dataclass
class ChunkResult:
    items: int  # raw items read from the chunk
    batch: pa.RecordBatch | None  # the converted records' rows
    ids: list[str]
    positions: list[tuple[int, int]]  # per record: (item index in the chunk, line of the chunk it came from)
    quarantined: list[tuple[int, str, str]]  # (item index in the chunk, error, raw excerpt)
    batch_file: str | None = None  # where a worker left the batch (see _in_workers)


class _NoPandas:
    """A meta-path finder that makes ``import pandas`` fail, as if it were not installed."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == "pandas":
            raise ImportError("pandas is not needed here")
        return None


def arrow_without_pandas() -> None:
    """pyarrow's first ``pa.array`` imports pandas (half a second) only to ask whether its input is a
    pandas object, which ours never is. When pandas is not imported yet, that one check is let to find
    it missing; pyarrow still imports pandas when something asks for it (to_pandas, from_pandas re-check)."""
    if "pandas" in sys.modules:
        return
    sys.meta_path.insert(0, _NoPandas)
    try:
        pa.array([], pa.null())
    finally:
        sys.meta_path.remove(_NoPandas)


def convert_chunk(converter: Converter, chunk: RawChunk) -> ChunkResult:
    """A chunk's records as one Arrow batch (through ``Converter.convert_row``) and its quarantine rows."""
    rows: list[dict[str, Any]] = []
    kept: list[tuple[str, int, int, Any]] = []  # per row: (record id, item index, chunk line, raw value)
    quarantined: list[tuple[int, str, str]] = []
    items = 0
    for item, line in chunk_items(chunk, converter.items, 0):
        items += 1
        if item.error is not None:
            quarantined.append((item.index, item.error, excerpt(item.raw_text)))
            continue
        try:
            record_id, row = converter.convert_row(item.value)
        except Exception as exc:  # one bad record must never stop the run
            quarantined.append((item.index, describe_error(exc), excerpt(item.value)))
            continue
        rows.append(row)
        kept.append((record_id, item.index, line, item.value))
    arrow_without_pandas()
    try:
        batch = pa.RecordBatch.from_pylist(rows, schema=RECORD_SCHEMA) if rows else None
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        batch, kept = _record_by_record(converter, kept, quarantined)
    ids = [record_id for record_id, _, _, _ in kept]
    positions = [(index, line) for _, index, line, _ in kept]
    return ChunkResult(items, batch, ids, positions, quarantined)


def _record_by_record(converter: Converter, kept: list, quarantined: list) -> tuple[pa.RecordBatch | None, list]:
    """A chunk whose rows Arrow refused: each record again through the validating model, so the bad
    ones are quarantined with what is wrong with them and the rest are written."""
    rows, good = [], []
    for record_id, index, line, value in kept:
        try:
            row = record_to_row(converter.convert(value))
            pa.RecordBatch.from_pylist([row], schema=RECORD_SCHEMA)
        except Exception as exc:
            quarantined.append((index, describe_error(exc), excerpt(value)))
            continue
        rows.append(row)
        good.append((record_id, index, line, value))
    return (pa.RecordBatch.from_pylist(rows, schema=RECORD_SCHEMA) if rows else None), good


def input_chunks(
    inputs: Iterable[str], split, unreadable: dict[str, str], reads_text: bool = False
) -> Iterator[RawChunk]:
    """Every input's chunks in order. An input that breaks off ends in one error chunk saying why (quarantined
    like any unparsable item, and noted in ``unreadable``), and the next input is read all the same."""
    for path in map(str, inputs):
        try:
            yield from read_raw_chunks(path, split, reads_text=reads_text)
        except INPUT_ERRORS as exc:
            unreadable[path] = unreadable_input(path, exc)
            yield RawChunk(path, error=unreadable[path], raw_text=b"")


def convert_in_chunks(
    converter: Converter,
    inputs: list[str],
    out,
    workers: int,
    on_progress: Callable[[int], None] | None,
    engine: EngineOptions | None = None,
) -> None:
    """Convert every input into ``out`` (a convert.Output), keeping its counts.

    On engine=ray, chunks are converted by Ray tasks (``convert_chunk`` again) and written here in input
    order, so the output, its quarantine and the counts are those of a local run.
    """
    with engine_session(engine) as ray:
        chunks = input_chunks(inputs, converter.items, out.stats.unreadable, converter.reads_text)
        if ray is not None:
            results = zip_chunks(chunks, lambda these: ordered_map(ray, convert_chunk, converter, these))
        elif workers > 1:
            results = _in_workers(converter, chunks, workers)
        else:
            results = _here(converter, chunks)
        with contextlib.closing(results):  # on a failure too: the workers stop and their spool goes, at once
            _write_all(results, out, on_progress)


def zip_chunks(chunks: Iterable[RawChunk], convert) -> Iterator[tuple[RawChunk, ChunkResult]]:
    """(chunk, result) pairs from ``convert``, which maps an iterable of chunks to their results in order;
    the chunks wait here (a bounded queue) until their results come back."""
    waiting: deque[RawChunk] = deque()

    def remembered() -> Iterator[RawChunk]:
        for chunk in chunks:
            waiting.append(chunk)
            yield chunk

    for result in convert(remembered()):
        yield waiting.popleft(), result


def _write_all(results: Iterable[tuple[RawChunk, ChunkResult]], out, on_progress) -> None:
    stats = out.stats
    starts: dict[str, int] = {}  # source -> index of the next chunk's first item
    for chunk, result in results:
        start = starts.get(chunk.source, 0)
        stats.note_break(chunk.source, chunk.error, start)
        _write(chunk, result, start, out)
        starts[chunk.source] = start + result.items
        stats.raw_items += result.items
        if on_progress is not None:
            on_progress(stats.raw_items)
    stats.read = stats.raw_items


def _write(chunk: RawChunk, result: ChunkResult, start: int, out) -> None:
    """The chunk's records, less repeats of earlier ones, then its quarantine rows in input order."""
    keep = []
    rejected = [(start + index, error, raw_excerpt) for index, error, raw_excerpt in result.quarantined]
    for record_id, (index, line) in zip(result.ids, result.positions):
        duplicate = out.duplicate_reason(record_id, chunk.source, start + index)
        keep.append(duplicate is None)
        if duplicate is not None:
            rejected.append((start + index, duplicate, _raw_at(chunk, index, line)))
    if result.batch is not None:
        batch = result.batch if all(keep) else result.batch.filter(pa.array(keep, pa.bool_()))
        out.records.write_batch(batch)
        out.stats.converted += batch.num_rows
    for index, error, raw in sorted(rejected, key=lambda r: r[0]):
        out.add_quarantined(chunk.source, index, error, raw)


def _raw_at(chunk: RawChunk, index: int, line: int) -> Any:
    if chunk.values is not None:
        return chunk.values[index]
    return chunk.lines[line] if chunk.is_jsonl else None


def _here(converter: Converter, chunks: Iterable[RawChunk]) -> Iterator[tuple[RawChunk, ChunkResult]]:
    for chunk in chunks:
        yield chunk, convert_chunk(converter, chunk)


PR_SET_PDEATHSIG = 1  # linux/prctl.h
SPOOL_PREFIX = "aceforge-chunks-"
_worker_converter: Converter | None = None  # a worker process's converter
_worker_spool: str | None = None  # the folder a worker leaves its batches in


def _start_worker(converter: Converter, spool: str) -> None:
    global _worker_converter, _worker_spool
    _worker_converter, _worker_spool = converter, spool


def _start_worker_process(converter: Converter, spool: str, parent: int) -> None:
    """A forked worker's start: bound to its parent's life, then ready to convert."""
    die_with_parent(parent)
    _start_worker(converter, spool)


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this (forked) process when its parent dies, even by SIGKILL (Linux prctl
    PR_SET_PDEATHSIG); a worker would otherwise wait forever on a pipe nobody reads. Elsewhere: a no-op."""
    if sys.platform != "linux":
        return
    import ctypes
    import signal

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request was made: nobody would signal us
        os._exit(1)


def _convert_in_worker(chunk: RawChunk, number: int) -> ChunkResult:
    """A chunk converted in a worker; its batch is left in an Arrow file of the spool, not pickled back."""
    result = convert_chunk(_worker_converter, chunk)
    if result.batch is not None:
        path = os.path.join(_worker_spool, f"{number}.arrow")
        try:
            with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, result.batch.schema) as writer:
                writer.write_batch(result.batch)
        except OSError:  # a full spool (containers often give /dev/shm 64 MB): the batch goes back pickled
            with contextlib.suppress(OSError):
                os.unlink(path)
            return result
        result.batch, result.batch_file = None, path
    return result


def _collect(result: ChunkResult) -> ChunkResult:
    """A worker's result with its batch mapped from the spool (no copy); the file goes at once."""
    if result.batch_file is not None:
        source = pa.memory_map(result.batch_file)
        result.batch = pa.ipc.open_file(source).get_batch(0)  # its buffers keep the mapping alive
        source.close()
        os.unlink(result.batch_file)
        result.batch_file = None
    return result


def _spool_folder() -> str:
    """Memory-backed /dev/shm where there is one, so batches never reach a disk; else the temp folder.

    Spools of killed runs (named after their pid, which no longer runs) are removed first: in /dev/shm
    they would hold memory until the machine restarts.
    """
    from schemas.io import process_runs

    folder = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else tempfile.gettempdir()
    for entry in os.scandir(folder):
        pid = entry.name.removeprefix(SPOOL_PREFIX).split("-")[0]
        if entry.name.startswith(SPOOL_PREFIX) and pid.isdigit() and not process_runs(int(pid)):
            shutil.rmtree(entry.path, ignore_errors=True)
    return folder


def _in_workers(
    converter: Converter, chunks: Iterable[RawChunk], workers: int
) -> Iterator[tuple[RawChunk, ChunkResult]]:
    """Chunk results in input order from ``workers`` processes: this one and ``workers - 1`` forked ones.

    Each forked worker has four chunks in flight; while they are all taken, this process converts the
    next chunk itself rather than wait. Workers hand their batches over as Arrow files in a
    memory-backed spool folder, mapped here without a copy: pickled through the pool's pipes, they
    kept its helper threads busy with the GIL, and the workers waited for work. At 2 workers on two
    cores, against a writer that only waited (bench/ingest.py): markdown 1.44 -> 1.83x, react-os
    1.47 -> 1.73x, codeact 1.72 -> 1.76x (medians of 5).
    """
    context = multiprocessing.get_context("fork")
    in_flight = 4 * (workers - 1)
    with (
        tempfile.TemporaryDirectory(prefix=f"{SPOOL_PREFIX}{os.getpid()}-", dir=_spool_folder()) as spool,
        ProcessPoolExecutor(
            workers - 1, mp_context=context, initializer=_start_worker_process, initargs=(converter, spool, os.getpid())
        ) as pool,
    ):
        pending: deque[tuple[RawChunk, Future | ChunkResult]] = deque()  # in input order
        for number, chunk in enumerate(chunks):
            busy = sum(1 for _, r in pending if isinstance(r, Future) and not r.done())
            if busy < in_flight:
                pending.append((chunk, pool.submit(_convert_in_worker, chunk, number)))
            else:
                pending.append((chunk, convert_chunk(converter, chunk)))
            # Write what is ready at the front; wait for the front only when more than two converted chunks
            # per process pile up behind it (memory stays bounded whatever a slow chunk does).
            while pending and (_ready(pending[0][1]) or len(pending) > in_flight + 2 * workers):
                yield _next(pending)
        while pending:
            yield _next(pending)


def _ready(result: Future | ChunkResult) -> bool:
    return isinstance(result, ChunkResult) or result.done()


def _next(pending: deque) -> tuple[RawChunk, ChunkResult]:
    chunk, result = pending.popleft()
    return chunk, result if isinstance(result, ChunkResult) else _collect(result.result())
