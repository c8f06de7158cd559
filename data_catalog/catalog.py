"""The DuckDB catalog of materialized datasets.

One DuckDB file under the data directory (``<ACEFORGE_HOME>/catalog.duckdb``)
holds a ``datasets`` table with one row per dataset version written (name,
version, kind, path, rows, schema version, config hash, parents, details,
created_at, snapshot), and one view per dataset over its Parquet files:
``<name>`` is the latest version, ``<name>__v<N>`` a given one. So
``SELECT count(*) FROM bookstore_chat`` answers over what was converted.

A version never changes: registering it takes a snapshot of its files under
``catalog-versions/<name>/v<N>/`` beside the catalog (hard links, so no copy
is made; a copy only across filesystems), and the views read the snapshot.
A later write to the same path (writers replace files by renaming) leaves the
snapshot as it was, so ``name__v1`` keeps returning the first run's rows.

DuckDB allows one writing process at a time, so every operation opens the
file, does its work and closes it again; a connection refused because
another process holds the lock is retried with backoff for a while.

``Catalog.sql`` runs what a user types, so it is locked down: the file opened
read-only, SELECT (and EXPLAIN) statements only, no file or network access
beyond the registered datasets' own files (DuckDB's enable_external_access off,
with those files allowed), no extension installed or loaded, and the settings
locked so the query cannot turn any of it back on.
"""

from __future__ import annotations

import filecmp
import glob
import json
import os
import re
import shutil
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemas.record import SCHEMA_VERSION
from schemas.settings import catalog_path

if TYPE_CHECKING:  # imported on connecting: commands that only name datasets (safe_name) start fast
    import duckdb

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_VERSIONED = re.compile(r"__v\d+$")
LOCK_WAIT_S = 60.0

_CREATE = """
CREATE TABLE IF NOT EXISTS datasets (
    name VARCHAR NOT NULL,
    version INTEGER NOT NULL,
    kind VARCHAR NOT NULL,          -- records | quarantine | ...
    path VARCHAR NOT NULL,          -- a Parquet file or a glob of them, absolute
    rows BIGINT NOT NULL,
    schema_version VARCHAR,
    config_hash VARCHAR,
    parents VARCHAR[],              -- 'name@version' of the datasets it was made from
    details VARCHAR,                -- JSON: format, inputs, licence, ...
    created_at TIMESTAMP NOT NULL,  -- UTC
    snapshot VARCHAR,               -- the version's own copy of path's files (hard links), what its views read
    PRIMARY KEY (name, version)
)
"""
# Catalogs made before snapshots: the column is added, their versions read their paths as before.
_MIGRATE = "ALTER TABLE datasets ADD COLUMN IF NOT EXISTS snapshot VARCHAR"
VERSIONS_DIR = "catalog-versions"
_COLUMNS = (
    "name",
    "version",
    "kind",
    "path",
    "rows",
    "schema_version",
    "config_hash",
    "parents",
    "details",
    "created_at",
    "snapshot",
)
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM datasets"
READ_ONLY_STATEMENTS = ("SELECT", "EXPLAIN")  # DuckDB statement types a catalog query may hold


class QueryRefused(ValueError):
    """A catalog query that would do more than read the catalog's datasets."""


@dataclass(frozen=True)
class DatasetVersion:
    name: str
    version: int
    kind: str
    path: str
    rows: int
    schema_version: str | None
    config_hash: str | None
    parents: list[str]
    details: dict[str, Any]
    created_at: datetime
    snapshot: str | None = None

    @property
    def view(self) -> str:
        return versioned_view(self.name, self.version)

    @property
    def data_path(self) -> str:
        """Where this version's rows are, unchanged since it was registered (its snapshot; else its path)."""
        return self.snapshot or self.path


@dataclass
class QueryResult:
    columns: list[str]
    rows: list[tuple] = field(default_factory=list)

    def as_dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row)) for row in self.rows]


def versioned_view(name: str, version: int) -> str:
    return f"{name}__v{version}"


def safe_name(text: str) -> str:
    """A dataset name from free text (a file stem, say): letters, digits and underscores."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_") or "dataset"
    name = _VERSIONED.sub("", name)
    return name if not name[0].isdigit() else f"d_{name}"


def check_name(name: str) -> None:
    if not _NAME.match(name) or _VERSIONED.search(name) or name == "datasets":
        raise ValueError(
            f"invalid dataset name {name!r}: use letters, digits and underscores, "
            "not starting with a digit nor ending in __v<N>"
        )


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class Catalog:
    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else catalog_path()

    @contextmanager
    def _connect(self, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        if read_only and not self.path.exists():
            with self._connect():  # creates the file and its table
                pass
        self.path.parent.mkdir(parents=True, exist_ok=True)
        con = _connect_with_retry(self.path, read_only)
        try:
            if not read_only:
                con.execute(_CREATE)
                con.execute(_MIGRATE)
            elif not _has_snapshots(con):  # a catalog from before snapshots: add the column first
                con.close()
                with self._connect():
                    pass
                con = _connect_with_retry(self.path, read_only)
            yield con
        finally:
            con.close()

    def register_dataset(
        self,
        name: str,
        path: str | Path,
        rows: int,
        *,
        kind: str = "records",
        schema_version: str | None = SCHEMA_VERSION,
        config_hash: str | None = None,
        parents: Sequence[str] = (),
        details: dict[str, Any] | None = None,
    ) -> DatasetVersion:
        """Record a dataset version and (re)create its views; returns the version.

        Registering what the latest version already is (same path, kind, rows
        and config hash) returns that version instead of adding a new one, so
        rerunning a deterministic job does not inflate versions.
        """
        check_name(name)
        path = str(Path(path).expanduser().absolute())
        made: list[Path] = []  # the snapshot folder this call makes
        with self._connect() as con, _removed_on_failure(made):
            con.execute("BEGIN TRANSACTION")
            latest = self._latest(con, name)
            same = (path, kind, rows, config_hash)
            if (
                latest
                and (latest.path, latest.kind, latest.rows, latest.config_hash) == same
                and _same_files(latest.data_path, path)
            ):
                entry = latest
            else:
                version = (latest.version + 1) if latest else 1
                entry = DatasetVersion(
                    name=name,
                    version=version,
                    kind=kind,
                    path=path,
                    rows=int(rows),
                    schema_version=schema_version,
                    config_hash=config_hash,
                    parents=list(parents),
                    details=dict(details or {}),
                    created_at=datetime.now(UTC).replace(tzinfo=None),
                    snapshot=self._snapshot(name, version, path, made),
                )
                con.execute(
                    f"INSERT INTO datasets ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
                    [
                        *(getattr(entry, c) for c in _COLUMNS[:8]),
                        json.dumps(entry.details, default=str),
                        entry.created_at,
                        entry.snapshot,
                    ],
                )
            # By name: over files of different schema versions the view has every column and struct field any of
            # them has (null where a file lacks it); by position, the first file's shape would hide the others'.
            scan = f"SELECT * FROM read_parquet({_sql_string(entry.data_path)}, union_by_name = true)"
            con.execute(f'CREATE OR REPLACE VIEW "{entry.view}" AS {scan}')
            con.execute(f'CREATE OR REPLACE VIEW "{name}" AS {scan}')
            con.execute("COMMIT")
        return entry

    def _snapshot(self, name: str, version: int, path: str, made: list[Path]) -> str | None:
        """Hard links to ``path``'s files (a file or a glob of them) under the catalog's versions folder, in
        the same layout; the snapshot's path (the same glob there), or None when ``path`` names no file yet.
        Its folder is added to ``made``."""
        files, base = _files_of(path)
        if not files:
            return None
        root = self.path.parent / VERSIONS_DIR / name / f"v{version}"
        shutil.rmtree(root, ignore_errors=True)  # left by a registration killed before it committed
        made.append(root)
        for file in files:
            target = root / file.relative_to(base)
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(file, target)
            except OSError:  # another filesystem, or links refused: a copy
                shutil.copy2(file, target)
        return str(root / Path(path).relative_to(base))

    def list_datasets(self, all_versions: bool = False) -> list[DatasetVersion]:
        """The latest version of every dataset (or every version), by name."""
        where = (
            "" if all_versions else "WHERE (name, version) IN (SELECT name, max(version) FROM datasets GROUP BY name)"
        )
        with self._connect(read_only=True) as con:
            rows = con.execute(f"{_SELECT} {where} ORDER BY name, version").fetchall()
        return [_entry(row) for row in rows]

    def get(self, name: str, version: int | None = None) -> DatasetVersion | None:
        with self._connect(read_only=True) as con:
            if version is None:
                return self._latest(con, name)
            row = con.execute(f"{_SELECT} WHERE name = ? AND version = ?", [name, version]).fetchone()
        return _entry(row) if row else None

    def sql(self, query: str, params: Sequence[Any] | None = None) -> QueryResult:
        """Run read-only statements against the catalog (its table and dataset views); the last one's rows.

        Raises QueryRefused for a statement that is not a SELECT (COPY, ATTACH, EXPORT, INSTALL, SET, ...);
        reading a file that is not a registered dataset's fails in DuckDB with a PermissionException.
        """
        with self._connect(read_only=True) as con:
            statements = con.extract_statements(query)
            refused = [s.type.name for s in statements if s.type.name not in READ_ONLY_STATEMENTS]
            if refused:
                raise QueryRefused(
                    f"catalog sql runs read-only queries (SELECT): {', '.join(dict.fromkeys(refused))} refused"
                )
            _lock_down(con)
            cursor = None
            for statement in statements:
                cursor = con.execute(statement, params or []) if len(statements) == 1 else con.execute(statement)
            if cursor is None or cursor.description is None:
                return QueryResult(columns=[])
            return QueryResult(columns=[d[0] for d in cursor.description], rows=cursor.fetchall())

    @staticmethod
    def _latest(con: duckdb.DuckDBPyConnection, name: str) -> DatasetVersion | None:
        row = con.execute(f"{_SELECT} WHERE name = ? ORDER BY version DESC LIMIT 1", [name]).fetchone()
        return _entry(row) if row else None


@contextmanager
def _removed_on_failure(folders: list[Path]) -> Iterator[None]:
    """Within: ``folders`` (filled as the block goes) are removed when the block fails, so a version that was
    not committed (a full disk fails the commit) leaves no snapshot."""
    try:
        yield
    except BaseException:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
        raise


def _files_of(path: str) -> tuple[list[Path], Path]:
    """The files ``path`` names (a file, or a glob of them) and the folder their layout is relative to."""
    if not glob.has_magic(path):
        return ([Path(path)] if Path(path).is_file() else []), Path(path).parent
    return sorted(Path(p) for p in glob.glob(path, recursive=True) if Path(p).is_file()), _glob_base(path)


def _same_files(snapshot: str, path: str) -> bool:
    """Whether ``path`` still names files with the content of ``snapshot``'s (a deterministic rerun rewrites
    them byte for byte: same version; sizes differ at once for almost any other change)."""
    if snapshot == path:
        return True
    (kept, kept_base), (now, now_base) = _files_of(snapshot), _files_of(path)
    if [f.relative_to(kept_base) for f in kept] != [f.relative_to(now_base) for f in now]:
        return False
    return all(filecmp.cmp(a, b, shallow=False) for a, b in zip(kept, now))


def _has_snapshots(con: duckdb.DuckDBPyConnection) -> bool:
    found = "SELECT count(*) FROM information_schema.columns WHERE table_name = 'datasets' AND column_name = 'snapshot'"
    return con.execute(found).fetchone()[0] == 1


def _entry(row: tuple) -> DatasetVersion:
    values = dict(zip(_COLUMNS, row))
    values["parents"] = list(values["parents"] or [])
    values["details"] = json.loads(values["details"]) if values["details"] else {}
    return DatasetVersion(**values)


def _lock_down(con: duckdb.DuckDBPyConnection) -> None:
    """Only the registered datasets' files readable, nothing writable, no extensions, settings locked."""
    files, folders = set(), set()
    registered = "SELECT path FROM datasets UNION SELECT snapshot FROM datasets WHERE snapshot IS NOT NULL"
    for (path,) in con.execute(registered).fetchall():
        if glob.has_magic(path):  # a glob of shards: its folder up to the first wildcard
            folders.add(str(_glob_base(path)).rstrip("/") + "/")
        else:
            files.add(path)
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET allowed_paths = ?", [sorted(files)])
    con.execute("SET allowed_directories = ?", [sorted(folders)])
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


def _glob_base(pattern: str) -> Path:
    """The folder of a glob up to its first wildcard: ``/x/data/**/*.parquet`` -> ``/x/data``."""
    parts = Path(pattern).parts
    return Path(*parts[: next(i for i, part in enumerate(parts) if glob.has_magic(part))])


def _connect_with_retry(path: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    import duckdb

    deadline = time.monotonic() + LOCK_WAIT_S
    delay = 0.05
    while True:
        try:
            return duckdb.connect(str(path), read_only=read_only)
        except duckdb.IOException as exc:
            # Another process holds the single-writer lock: wait for it to close.
            if "lock" not in str(exc).lower() or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 1.0)
