"""A full disk (or a used-up quota), recognized wherever it surfaces, and said in one line.

A write that runs out of space fails differently in each library: an OSError with errno ENOSPC or
EDQUOT (Python, pyarrow), an error whose text is the C library's "No space left on device" (DuckDB),
SQLite's SQLITE_FULL, or SQLITE_IOERR_SHMSIZE when the shared-memory file of a WAL database cannot
grow (Dagster's run and event storage; its text is only "disk I/O error"), each wrapped by SQLAlchemy
or Dagster, whose step failures keep only the text. ``disk_full`` finds any of them in an exception's
causes or in such a text.

``space_watched`` is where an entry point (``convert``, ``aceforge run``) turns any of them into
``DiskFull``: one line naming the folder, what was free there when the work started (the work needed
more than that) and that its temporary files were removed.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)
# What a message says when only its text is left (the C library's strerror, SQLite's words).
_TEXTS = {
    os.strerror(errno.ENOSPC).lower(): errno.ENOSPC,
    os.strerror(errno.EDQUOT).lower(): errno.EDQUOT,
    "database or disk is full": errno.ENOSPC,
    "sqlite_full": errno.ENOSPC,
    "sqlite_ioerr_shmsize": errno.ENOSPC,
}
# SQLite's extended result codes for a write that found no space (sqlite3 errors carry them as names).
_SQLITE_FULL = ("SQLITE_FULL", "SQLITE_IOERR_SHMSIZE")


class DiskFull(Exception):
    """Work that stopped because its folder's filesystem (or the user's quota there) had no space left."""

    def __init__(self, code: int, folder: Path, role: str, what: str, free_at_start: int):
        self.code, self.folder, self.free_at_start = code, folder, free_at_start
        # The C library's words lead ("no space left on device"), so the text alone still says what it is.
        needed = (
            "the quota left" if code == errno.EDQUOT else f"the {size_text(free_at_start)} free there when it started"
        )
        why = f"{os.strerror(code).lower()} in {folder} ({role}): {what} needed more than {needed}"
        super().__init__(f"{why}; its temporary files were removed")


def disk_full(error: BaseException | str | None) -> int | None:
    """ENOSPC or EDQUOT when ``error`` (an exception, with its causes and contexts, or an error's text)
    says that a write found no space; else None."""
    seen: set[int] = set()
    while isinstance(error, BaseException) and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, DiskFull):
            return error.code
        if isinstance(error, OSError) and error.errno in FULL_ERRNOS:
            return error.errno
        if getattr(error, "sqlite_errorname", None) in _SQLITE_FULL:
            return errno.ENOSPC
        if (code := _text_says(str(error))) is not None:
            return code
        error = error.__cause__ or error.__context__
    return _text_says(error) if isinstance(error, str) else None


def _text_says(text: str) -> int | None:
    lowered = text.lower()
    return next((code for words, code in _TEXTS.items() if words in lowered), None)


def free_bytes(folder: Path) -> int:
    """Bytes free to this user on ``folder``'s filesystem (its nearest existing parent's, when it is not made yet)."""
    folder = Path(folder).absolute()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return shutil.disk_usage(folder).free


def size_text(size: int) -> str:
    """A byte count for people: 512 B, 1.9 MiB, 3.2 GiB."""
    value, unit = float(size), "B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            break
        value /= 1024
    return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"


@contextmanager
def space_watched(folders: dict[Path, str], what: str) -> Iterator[None]:
    """Within: a failure that ``disk_full`` recognizes is raised as one DiskFull. ``folders`` are where the
    work writes, each with what it is to the user ("the output's folder"); the one named is the one with the
    least space free at the start (errors seldom say which file they were writing). ``what`` says who needed
    the space. Writers have removed their temporary files by the time the error arrives here (they clean up
    as it passes through them)."""
    free = {Path(folder).absolute(): (free_bytes(folder), role) for folder, role in folders.items()}
    try:
        yield
    except DiskFull:
        raise
    except Exception as exc:
        code = disk_full(exc)
        if code is None:
            raise
        folder, (space, role) = min(free.items(), key=lambda item: item[1][0])
        raise DiskFull(code, folder, role, what, space) from exc
