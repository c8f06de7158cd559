"""Reading raw inputs: a JSON document (array or object), JSONL, gzip, or stdin.

An input is read as chunks of about ``CHUNK_BYTES``. JSONL comes as whole
lines, split and parsed where the chunk is converted (in a worker process,
with several): from a plain file a chunk is only the byte span of its lines,
so the reading process neither reads nor sends the data; from gzip or stdin it
is one unparsed block. A whole JSON document is parsed here and split into its
records. ``chunk_items`` turns a chunk into RawItems:
a line that does not parse becomes a RawItem with an error (quarantined
later) and reading goes on; a whole JSON document that does not parse is one
such item. Memory stays flat for big JSONL files. A .gz that breaks off (cut short,
or a corrupt block) gives every chunk read before the break, then raises the
break (``input_chunks`` in convert_chunks.py quarantines it with its reason).

``split(document, source)`` is the format's ``Converter.items``: it turns one
parsed JSON value into the format's raw records. A format that reads text
(``Converter.reads_text``: Aider's markdown chat history) is given a document
that is not JSON, and does not start like JSON, as a ``TextDocument``.
"""

from __future__ import annotations

import gzip
import io
import os
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import IO, Any

import orjson

from data_catalog.sources.base import RawItem

Split = Callable[[Any, str], Iterable[Any]]
CHUNK_BYTES = 1 << 20


@dataclass(frozen=True)
class TextDocument:
    """A whole input that is UTF-8 text and not JSON (a markdown chat log), for the formats that read text."""

    text: str


def as_text(data: bytes) -> TextDocument | None:
    """``data`` as a TextDocument, unless it starts like JSON (then it is broken JSON, and says so) or is not UTF-8."""
    if data.lstrip()[:1] in (b"{", b"["):
        return None
    try:
        return TextDocument(data.decode("utf-8"))
    except UnicodeDecodeError:
        return None


@dataclass
class RawChunk:
    """Consecutive raw input of one source: unparsed JSONL lines (``data``, whole lines), or the parsed
    records of a JSON document (``values``), or the ``error`` that kept a document from parsing."""

    source: str
    data: bytes | None = None
    values: list[Any] | None = None
    error: str | None = None
    raw_text: bytes | None = None
    span: tuple[int, int] | None = None  # (start, end): the bytes of whole JSONL lines in the file ``source``

    @property
    def is_jsonl(self) -> bool:
        return self.data is not None or self.span is not None

    @cached_property
    def lines(self) -> list[bytes]:
        """The JSONL lines of ``data`` (or of ``span``), without their newlines."""
        data = self.data if self.span is None else _read_span(self.source, *self.span)
        if not data:
            return []
        lines = data.split(b"\n")
        return lines[:-1] if not lines[-1] else lines  # data ends with a newline except at the end of a file


def _read_span(path: str, start: int, end: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(start)
        return f.read(end - start)


# A compressed input that ends early (EOFError) or holds a corrupt block (zlib.error); or a failing read.
COMPRESSED_BREAKS = (EOFError, zlib.error)
INPUT_ERRORS = (*COMPRESSED_BREAKS, OSError)


def unreadable_input(path: str, exc: BaseException) -> str:
    """The quarantine reason for the part of input ``path`` that could not be read, and why."""
    if isinstance(exc, EOFError):
        why = "truncated gzip: the compressed file ends before its end marker (truncated download?)"
    elif isinstance(exc, zlib.error):
        why = f"corrupt compressed data ({exc})"
    else:
        why = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return f"unreadable input: {why}; the rest of {path} was not read"


class _UntilBroken(io.RawIOBase):
    """A gzip stream that ends where its data breaks off (cut short, or a corrupt block), keeping all that
    came before. The break is kept in ``error``; ``read_raw_chunks`` raises it once that much is read.

    A BufferedReader straight on gzip drops a whole read's worth of data when the break falls inside it
    (a small file: all of it); here each read asks gzip for one piece, and gzip returns every piece it
    decompressed before the break."""

    def __init__(self, compressed: gzip.GzipFile):
        self.compressed = compressed
        self.error: BaseException | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.error is not None:
            return 0
        try:
            data = self.compressed.read1(len(buffer))
        except INPUT_ERRORS as exc:
            self.error = exc
            return 0
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self.compressed.close()
        super().close()


def _open(path: str) -> IO[bytes]:
    if path == "-":
        return sys.stdin.buffer
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"input not found: {path}")
    with open(p, "rb") as f:
        magic = f.read(2)
    return _UntilBroken(gzip.open(p, "rb")) if magic == b"\x1f\x8b" else open(p, "rb")


def read_raw_items(path: str, split: Split, reads_text: bool = False) -> Iterator[RawItem]:
    """RawItems of one input, in order."""
    index = 0
    for chunk in read_raw_chunks(path, split, reads_text=reads_text):
        for item, _ in chunk_items(chunk, split, index):
            yield item
            index += 1


def read_raw_chunks(
    path: str, split: Split, chunk_bytes: int | None = None, reads_text: bool = False
) -> Iterator[RawChunk]:
    """The chunks of one input (see the module docstring), of about ``chunk_bytes`` (default CHUNK_BYTES);
    ``reads_text``: a document that is text, not JSON, is split as a TextDocument (else it is an error)."""
    chunk_bytes = chunk_bytes or CHUNK_BYTES
    raw = _open(path)
    stream = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)
    broken = raw if isinstance(raw, _UntilBroken) else None
    try:
        plain = isinstance(raw, io.BufferedReader) and path != "-"  # a plain file: spans, read where converted
        yield from _chunks(path, stream, split, chunk_bytes, plain, broken, reads_text)
    finally:
        if path != "-":
            stream.close()
    if broken is not None and broken.error is not None:
        raise broken.error  # after every chunk read before the break (input_chunks quarantines the rest)


def _chunks(
    path: str,
    stream: io.BufferedReader,
    split: Split,
    chunk_bytes: int,
    plain: bool,
    broken: _UntilBroken | None,
    reads_text: bool = False,
) -> Iterator[RawChunk]:
    first = stream.peek(4096).lstrip()[:1]
    if first == b"[":
        yield from _document_chunks(path, stream.read(), split, chunk_bytes, broken)
        return
    first_line, second_line = stream.readline(), stream.readline()
    if not _parses(first_line) and not _parses(second_line):  # a pretty-printed document (or text)
        data = first_line + second_line + stream.read()
        yield from _document_chunks(path, data, split, chunk_bytes, broken, reads_text)
        return
    if plain:
        yield from _spans(path, stream, chunk_bytes)
        return
    head = first_line + second_line
    while block := stream.read(chunk_bytes):
        yield RawChunk(path, data=head + block + stream.readline())  # up to the end of the last line
        head = b""
    if head:
        yield RawChunk(path, data=head)


def _spans(path: str, stream: io.BufferedReader, chunk_bytes: int) -> Iterator[RawChunk]:
    """Chunks of whole lines from the start of the file, by seeking past ``chunk_bytes`` to the next line end."""
    size = os.fstat(stream.fileno()).st_size
    start = 0
    while start < size:
        end = size
        if start + chunk_bytes < size:
            stream.seek(start + chunk_bytes)
            stream.readline()  # the rest of the line the seek landed in
            end = stream.tell()
        yield RawChunk(path, span=(start, end))
        start = end


def _document_chunks(
    path: str,
    data: bytes,
    split: Split,
    chunk_bytes: int,
    broken: _UntilBroken | None = None,
    reads_text: bool = False,
) -> Iterator[RawChunk]:
    try:
        document: Any = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        document = as_text(data) if reads_text and (broken is None or broken.error is None) else None
        if document is None:
            if broken is None or broken.error is None:  # else the break is the reason, and says so
                yield RawChunk(path, error=f"invalid JSON document: {exc}", raw_text=data[:2000])
            return
    values = list(split(document, path))
    # About chunk_bytes of the document per chunk, so a big document still spreads over workers.
    step = max(1, len(values) * chunk_bytes // max(len(data), 1))
    for start in range(0, len(values), step):
        yield RawChunk(path, values=values[start : start + step])


def chunk_items(chunk: RawChunk, split: Split, start: int) -> Iterator[tuple[RawItem, int]]:
    """(RawItem, number of the line it came from in the chunk) for each raw record; indexes count from ``start``."""
    source = chunk.source
    if chunk.error is not None:
        yield RawItem(source, start, error=chunk.error, raw_text=chunk.raw_text), 0
    elif chunk.values is not None:
        for offset, value in enumerate(chunk.values):
            yield RawItem(source, start + offset, value), offset
    else:
        index = start
        for number, line in enumerate(chunk.lines):
            if not line or line.isspace():  # not line.strip(): that copies the line
                continue
            try:
                values = split(orjson.loads(line), source)
            except orjson.JSONDecodeError as exc:
                yield RawItem(source, index, error=f"invalid JSON line: {exc}", raw_text=line), number
                index += 1
                continue
            for value in values:
                yield RawItem(source, index, value), number
                index += 1


def _parses(line: bytes) -> bool:
    try:
        orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    return True
