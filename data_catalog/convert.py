"""Convert raw inputs of one format into a Parquet file of AgentRecords plus a quarantine file.

Counts are kept where things happen and checked against each other at the end:
``raw_items`` are the raw items read (counted as they are parsed), ``read`` the
records as the format defines them (one per raw item for most formats; the
trajectories a grouping format forms, counted as it forms them), and every
unit read is either ``converted`` or ``quarantined``: read = converted +
quarantined, or the run raises ``CountMismatch``.

A record whose id was already written is the same content again (ids hash the
raw content, see sources/base.py): it is quarantined as a duplicate, with its
own file and position and the first one's. Quarantine reasons are counted by
kind (particulars such as positions and ids taken out), with a few examples each.

Formats with one record per raw item convert in chunks (convert_chunks.py),
by the stage's executor (this process, worker processes or Ray tasks); grouping formats stream in this one.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

from runtime.executor import Executor
from schemas.stage_config import StageConfig

if TYPE_CHECKING:  # imported where they are used: `aceforge --help` needs ConvertConfig only
    from data_catalog.sources.base import Converter, ConvertOptions, RawItem
    from schemas.io import QuarantineWriter, RecordWriter

EXAMPLES_PER_KIND = 3


class ConvertConfig(StageConfig):
    """``aceforge convert``: how raw inputs of one format become records."""

    option: dict[str, str] = Field(default_factory=dict)
    """Format-specific options, key=value (repeatable; see `aceforge formats`)."""
    dataset: str | None = None
    """Dataset name for the records' source and the catalog (default: the output file's stem)."""
    license: str | None = None
    """Licence of the raw data, stored in each record's source."""
    catalog: bool = True
    """Register the output and its quarantine in the DuckDB catalog of the data directory (--no-catalog: files only)."""

    def convert_options(self) -> ConvertOptions:
        from data_catalog.sources.base import ConvertOptions

        return ConvertOptions(dataset=self.dataset, license=self.license, extra=dict(self.option))


class CountMismatch(RuntimeError):
    """Units read and units written (converted + quarantined) differ: a record was lost or doubled."""


@dataclass
class ConvertStats:
    read: int = 0  # records as the format defines them (see the module docstring)
    raw_items: int = 0  # raw items read (step rows, for a grouping format)
    converted: int = 0
    quarantined: int = 0
    workers: int = 1
    output: str | None = None
    quarantine: str | None = None
    errors: dict[str, int] = field(default_factory=dict)  # error kind -> count
    unreadable: dict[str, str] = field(default_factory=dict)  # input that broke off -> why (also quarantined)
    read_before_break: dict[str, int] = field(default_factory=dict)  # input that broke off -> raw items read first
    examples: dict[str, list[str]] = field(default_factory=dict)  # error kind -> a few "source:index"
    first_errors: dict[str, str] = field(default_factory=dict)  # error kind -> its first message, in full

    def as_dict(self) -> dict:
        return {
            "read": self.read,
            "raw_items": self.raw_items,
            "converted": self.converted,
            "quarantined": self.quarantined,
            "output": self.output,
        }

    def count_error(self, error: str, source: str, index: int) -> None:
        kind = error_kind(error)
        self.errors[kind] = self.errors.get(kind, 0) + 1
        self.first_errors.setdefault(kind, error)
        examples = self.examples.setdefault(kind, [])
        if len(examples) < EXAMPLES_PER_KIND:
            examples.append(f"{source}:{index}")

    def note_break(self, source: str, error: str | None, items_before: int) -> None:
        """When ``error`` is the break of input ``source`` (its last item), how many raw items came before it."""
        if error is not None and error == self.unreadable.get(source):
            self.read_before_break[source] = items_before

    def top_errors(self, n: int) -> list[tuple[str, int]]:
        """The ``n`` most frequent kinds of quarantine reason, most frequent first, with their counts
        (``examples[kind]`` says where a few of them are)."""
        return sorted(self.errors.items(), key=lambda kv: -kv[1])[:n]


# Quoted names ('content', 'robot') say what kind of error it is; quoted values with digits
# (ids, call ids, excerpts) and numbers (positions, counts) are particulars of one record.
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_NAME = re.compile(r"[A-Za-z_][A-Za-z_. -]{0,40}")
_NUMBER = re.compile(r"\d+")


def error_kind(error: str) -> str:
    """An error message with its particulars taken out, so that failures of one kind count together."""
    lines = error.splitlines() or ["unknown"]
    head = lines[0]
    if head.startswith("ValidationError") and len(lines) > 2:  # pydantic: the first failing field and why
        head = f"ValidationError: {lines[1].strip()}: {lines[2].strip().split(' [type=')[0]}"
    head = _QUOTED.sub(lambda m: m[0] if _NAME.fullmatch(m[0][1:-1]) else "'…'", head)
    return _NUMBER.sub("N", head)[:200]


class Output:
    """The record and quarantine writers of one run, with its counts; drops repeated records."""

    def __init__(self, records: RecordWriter, quarantine: QuarantineWriter, stats: ConvertStats):
        self.records, self.quarantine, self.stats = records, quarantine, stats
        self._sources: dict[str, int] = {}
        self._first: dict[str, tuple[int, int]] = {}  # record id -> (source number, index) of its first copy

    def duplicate_reason(self, record_id: str, source: str, index: int) -> str | None:
        """None for a new record; for a repeat, the quarantine reason, naming where its first copy was."""
        number = self._sources.setdefault(source, len(self._sources))
        first = self._first.setdefault(record_id, (number, index))
        if first == (number, index):
            return None
        first_source = next(s for s, n in self._sources.items() if n == first[0])
        where = f"item {first[1]}" if first_source == source else f"item {first[1]} of {first_source}"
        return f"duplicate record {record_id!r}: the same content as {where}"

    def add_quarantined(self, source: str, index: int, error: str, raw: Any) -> None:
        self.quarantine.write_row(source, index, error, raw)
        self.stats.quarantined += 1
        self.stats.count_error(error, source, index)


@contextmanager
def _fewer_gc_passes(threshold: int = 50_000):
    """Conversion allocates many short-lived containers that die by reference counting;
    at the default threshold (700) the cycle collector scans them thousands of times a
    second (measured: alfworld 34 -> 38 MB/s). Collection still runs, just less often."""
    before = gc.get_threshold()
    gc.set_threshold(threshold, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def convert_files(
    fmt: str,
    inputs: list[str],
    output: str | Path,
    quarantine: str | Path | None = None,
    options: ConvertOptions | None = None,
    on_progress: Callable[[int], None] | None = None,
    executor: Executor | None = None,
) -> ConvertStats:
    """Convert ``inputs`` (paths or "-") of format ``fmt`` to ``output`` Parquet.

    Bad records go to ``quarantine`` (default: ``<output stem>.quarantine.parquet``).
    The records' dataset defaults to the output's stem. Both files are renamed into
    place together when the run finishes; a failed run (a full disk) leaves neither,
    nor a temporary file. ``on_progress`` gets the raw items read so far.
    ``executor`` (default: this process) converts the chunks; grouping formats always stream here.
    """
    from data_catalog.convert_chunks import convert_in_chunks
    from data_catalog.sources import get_converter
    from data_catalog.sources.base import ConvertOptions
    from schemas.io import QuarantineWriter, RecordWriter, written_together

    output = Path(output)
    options = options or ConvertOptions()
    converter = get_converter(fmt, replace(options, dataset=options.dataset or output.stem))
    quarantine = Path(quarantine) if quarantine else output.with_name(output.stem + ".quarantine.parquet")
    stats = ConvertStats(output=str(output), quarantine=str(quarantine))
    files = written_together(partial(RecordWriter, output), partial(QuarantineWriter, quarantine))
    with _fewer_gc_passes(), files as (records, qwriter):
        out = Output(records, qwriter, stats)
        if converter.groups_items:
            _convert_stream(converter, inputs, out, on_progress)
        else:
            executor = executor or Executor()
            stats.workers = executor.workers
            convert_in_chunks(converter, inputs, out, on_progress, executor)
    if stats.read != stats.converted + stats.quarantined:
        raise CountMismatch(
            f"{stats.read} read but {stats.converted} converted + {stats.quarantined} quarantined: "
            "the converter lost or repeated records (a bug)"
        )
    return stats


def _convert_stream(
    converter: Converter, inputs: list[str], out: Output, on_progress: Callable[[int], None] | None
) -> None:
    """A grouping format: its records span raw items, so it reads every input in one stream, here."""
    from data_catalog.arrow_imports import arrow_without_pandas
    from data_catalog.sources.base import Quarantined

    arrow_without_pandas()
    stats = out.stats
    rows_accounted = 0
    for result in converter.convert_stream(_counted(inputs, converter, stats, on_progress)):
        rows_accounted += result.raw_items
        if isinstance(result, Quarantined):
            out.add_quarantined(result.source, result.index, result.error, result.raw)
        elif duplicate := out.duplicate_reason(result.record.id, result.source, result.index):
            out.add_quarantined(result.source, result.index, duplicate, result.raw)
        else:
            out.records.write_record(result.record)
            stats.converted += 1
    stats.read = converter.units_formed or 0
    if rows_accounted != stats.raw_items:
        raise CountMismatch(f"{stats.raw_items} raw items read but {rows_accounted} in records and quarantine (a bug)")


def _counted(inputs: list[str], converter: Converter, stats: ConvertStats, on_progress) -> Iterator[RawItem]:
    from data_catalog.convert_chunks import input_chunks
    from data_catalog.sources.reader import chunk_items

    indexes: dict[str, int] = {}
    for chunk in input_chunks(inputs, converter.items, stats.unreadable, converter.reads_text):
        for item, _ in chunk_items(chunk, converter.items, indexes.get(chunk.source, 0)):
            stats.note_break(chunk.source, item.error, item.index)
            indexes[chunk.source] = item.index + 1
            stats.raw_items += 1
            if on_progress is not None:
                on_progress(stats.raw_items)
            yield item
