"""Dagster's complaints that it could not store a log line, held back while aceforge runs its jobs.

When its event log (SQLite, in the data directory) refuses a write, Dagster writes
"Exception while writing logger call to event log: ..." straight to stderr, with the SQL statement
and its parameters: several lines per log call, from every step, and on a full disk every write
fails. The run then fails with the same cause, and ``aceforge run`` says that in one line
(runtime/disk.py), so on a full disk the complaints are dropped; when the run ends any other way,
each is said in its first line. Only this process's stderr is held: step processes of the
multiprocess executor (``--workers`` > 1) write to theirs.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr
from typing import Any, TextIO

from runtime.disk import disk_full

COMPLAINT = "Exception while writing logger call to event log"


class _Holding:
    """A stderr that passes every write through except Dagster's complaints, which it keeps."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.held: list[str] = []

    def write(self, text: str) -> int:
        if text.startswith(COMPLAINT):
            self.held.append(text)
            return len(text)
        return self.stream.write(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding: the real stream's
        return getattr(self.stream, name)


@contextmanager
def storage_complaints_held() -> Iterator[None]:
    """Within: Dagster's complaints are held (see the module docstring); dropped when a full disk ends the block,
    else each said in its first line as the block ends."""
    holding = _Holding(sys.stderr)
    full = False
    try:
        with redirect_stderr(holding):
            yield
    except Exception as exc:
        full = disk_full(exc) is not None
        raise
    finally:
        if not full:
            for complaint in holding.held:
                holding.stream.write(complaint.splitlines()[0] + "\n")
