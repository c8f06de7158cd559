"""Conversion in chunks, in this process or in worker processes (formats with one record per raw item).

The reader cuts each input into chunks of about a megabyte (JSONL lines, or a
document's records). A chunk becomes an Arrow batch of record rows (each from
``Converter.convert_row``, so the chat formats skip the model objects; see
record_rows.py) plus its quarantine rows; with ``workers`` > 1 worker processes do that, and this
process only writes. Results are written in input order, so the output is the
same file whatever the number of workers. Ids repeat across chunks only when
content does, and only the writing process sees the whole run: it drops the
repeats (see convert.Output).

Workers are forked, so they start with this process's imports at once; at most
two chunks per worker are in flight, so memory stays bounded on any input.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from data_catalog.sources.base import Converter, describe_error
from data_catalog.sources.reader import RawChunk, chunk_items, read_raw_chunks
from schemas.arrow_schema import RECORD_SCHEMA, record_to_row
from schemas.io import excerpt


@dataclass
class ChunkResult:
    items: int  # raw items read from the chunk
    batch: pa.RecordBatch | None  # the converted records' rows
    ids: list[str]
    positions: list[tuple[int, int]]  # per record: (item index in the chunk, line of the chunk it came from)
    quarantined: list[tuple[int, str, str]]  # (item index in the chunk, error, raw excerpt)


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


def convert_in_chunks(
    converter: Converter, inputs: list[str], out, workers: int, on_progress: Callable[[int], None] | None
) -> None:
    """Convert every input into ``out`` (a convert.Output), keeping its counts."""
    chunks = (chunk for path in inputs for chunk in read_raw_chunks(str(path), converter.items))
    results = _in_workers(converter, chunks, workers) if workers > 1 else _here(converter, chunks)
    stats = out.stats
    starts: dict[str, int] = {}  # source -> index of the next chunk's first item
    for chunk, result in results:
        start = starts.get(chunk.source, 0)
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


_worker_converter: Converter | None = None  # a worker process's converter


def _start_worker(converter: Converter) -> None:
    global _worker_converter
    _worker_converter = converter


def _convert_in_worker(chunk: RawChunk) -> ChunkResult:
    return convert_chunk(_worker_converter, chunk)


def _in_workers(
    converter: Converter, chunks: Iterable[RawChunk], workers: int
) -> Iterator[tuple[RawChunk, ChunkResult]]:
    """Chunk results in input order from ``workers`` forked processes, two chunks per worker in flight."""
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(converter,)) as pool:
        pending: deque = deque()
        for chunk in chunks:
            pending.append((chunk, pool.submit(_convert_in_worker, chunk)))
            if len(pending) >= 2 * workers:
                done, future = pending.popleft()
                yield done, future.result()
        while pending:
            done, future = pending.popleft()
            yield done, future.result()
