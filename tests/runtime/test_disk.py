"""Recognizing a full disk or a used-up quota in the forms libraries give it (runtime/disk.py), and its one line."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from runtime.disk import DiskFull, disk_full, size_text, space_watched


def sqlite_full() -> sqlite3.OperationalError:
    """SQLite's own SQLITE_FULL, from a database capped at a few pages."""
    con = sqlite3.connect(":memory:")
    con.execute("PRAGMA max_page_count = 2")
    try:
        con.execute("CREATE TABLE t (x)")
        con.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 100)
    except sqlite3.OperationalError as exc:
        return exc
    finally:
        con.close()
    raise AssertionError("the capped database took every row")


def test_errnos_sqlite_and_texts_are_recognized_through_their_causes():
    full = sqlite_full()
    assert full.sqlite_errorname == "SQLITE_FULL"
    try:  # wrapped, as SQLAlchemy and Dagster wrap it
        raise RuntimeError("(sqlite3.OperationalError) storing the event failed") from full
    except RuntimeError as wrapped:
        assert disk_full(wrapped) == errno.ENOSPC
    assert disk_full(OSError(errno.EDQUOT, "Disk quota exceeded")) == errno.EDQUOT
    assert disk_full(OSError(28, "Error writing bytes to file. Detail: [errno 28] No space left on device")) == 28
    # Dagster keeps only the text of a step's failure; DuckDB's errors have no errno.
    assert disk_full('IOException: Could not write file "x.wal": No space left on device') == errno.ENOSPC
    assert disk_full("OperationalError: (sqlite3.OperationalError) database or disk is full") == errno.ENOSPC
    assert disk_full(OSError(errno.EACCES, "Permission denied")) is None
    assert disk_full("(sqlite3.OperationalError) disk I/O error") is None  # the text alone does not say why
    assert disk_full(None) is None


def test_the_line_names_the_folder_with_least_space_and_what_was_free(tmp_path):
    with pytest.raises(DiskFull) as caught, space_watched({tmp_path: "the output's folder"}, "convert"):
        raise OSError(errno.ENOSPC, "No space left on device")
    line = str(caught.value)
    assert line.startswith(
        f"no space left on device in {tmp_path} (the output's folder): convert needed more than the "
    )
    assert line.endswith(" free there when it started; its temporary files were removed") and "\n" not in line
    with pytest.raises(DiskFull) as caught, space_watched({tmp_path / "not" / "made": "the data directory"}, "the run"):
        raise OSError(errno.EDQUOT, "Disk quota exceeded")
    assert str(caught.value) == (
        f"disk quota exceeded in {tmp_path / 'not' / 'made'} (the data directory): the run needed more than the "
        "quota left; its temporary files were removed"
    )
    with pytest.raises(ValueError), space_watched({Path("/"): "root"}, "x"):  # anything else passes through
        raise ValueError("not a disk")


def test_sizes_read_as_people_write_them():
    assert [size_text(n) for n in (512, 2**20, 3 * 2**30 // 2)] == ["512 B", "1.0 MiB", "1.5 GiB"]
