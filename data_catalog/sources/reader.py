"""Reading raw inputs: a JSON document (array or object), JSONL, gzip, or stdin.

JSONL is streamed line by line, so memory stays flat for big files; a line
that does not parse becomes a RawItem with an error (quarantined later) and
reading goes on. A whole JSON document that does not parse is one such item.
"""

from __future__ import annotations

import gzip
import io
import sys
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import IO

import orjson

from data_catalog.sources.base import RawItem


def _open(path: str) -> IO[bytes]:
    if path == "-":
        return sys.stdin.buffer
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"input not found: {path}")
    with open(p, "rb") as f:
        magic = f.read(2)
    return gzip.open(p, "rb") if magic == b"\x1f\x8b" else open(p, "rb")


def _first_char(stream: io.BufferedReader) -> bytes:
    head = stream.peek(4096).lstrip()
    return head[:1]


def read_raw_items(path: str, split: Callable[[object], Iterable[object]]) -> Iterator[RawItem]:
    """RawItems of one input; ``split`` turns a whole JSON document into records."""
    raw = _open(path)
    stream = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)
    try:
        first = _first_char(stream)
        if first == b"[":
            yield from _read_document(path, stream.read(), split)
        else:
            yield from _read_lines_or_document(path, stream, split)
    finally:
        if path != "-":
            stream.close()


def _read_document(path: str, data: bytes, split) -> Iterator[RawItem]:
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        yield RawItem(path, 0, error=f"invalid JSON document: {exc}", raw_text=data[:2000])
        return
    for index, value in enumerate(split(document)):
        yield RawItem(path, index, value)


def _read_lines_or_document(path: str, stream: io.BufferedReader, split) -> Iterator[RawItem]:
    """JSONL, unless neither of the first two lines is a whole JSON value: then one pretty-printed document."""
    first_line = stream.readline()
    second_line = stream.readline()
    if not _parses(first_line) and not _parses(second_line):
        yield from _read_document(path, first_line + second_line + stream.read(), split)
        return
    index = 0
    for line in chain((first_line, second_line), stream):
        if not line.strip():
            continue
        try:
            values = split(orjson.loads(line))
        except orjson.JSONDecodeError as exc:
            yield RawItem(path, index, error=f"invalid JSON line: {exc}", raw_text=line)
            index += 1
            continue
        for value in values:
            yield RawItem(path, index, value)
            index += 1


def _parses(line: bytes) -> bool:
    try:
        orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    return True
