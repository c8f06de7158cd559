"""The DuckDB catalog of materialized datasets.

One DuckDB file under the data directory (``<ACEFORGE_HOME>/catalog.duckdb``)
holds a ``datasets`` table with one row per dataset version written (name,
version, kind, path, rows, schema version, config hash, parents, details,
created_at, snapshot, content hash), and one view per dataset over its Parquet files:
``<name>`` is the latest version, ``<name>__v<N>`` a given one. So
``SELECT count(*) FROM bookstore_chat`` answers over what was converted.

A version never changes: registering it copies its files to
``catalog-versions/<name>/v<N>/`` beside the catalog (reflinks where the file
system has them; read-only; version_files.py) and records their content hash,
and the views read those copies. Writing the registered path again, in place
or by renaming, leaves the version's rows as they were; a copy changed all the
same (root ignores file modes) fails its hash when read, naming the version.

DuckDB allows one writing process at a time, so every operation opens the
file, does its work and closes it again; a connection refused because
another process holds the lock is retried with backoff for a while.

``Catalog.sql`` runs what a user types, so it is locked down: the file opened
read-only, SELECT (and EXPLAIN) statements only, no file or network access
beyond the registered datasets' own files (DuckDB's enable_external_access off,
with those files allowed), no extension installed or loaded, and the settings
locked so the query cannot turn any of it back on. It reads only the versions it
names, each checked against its content hash first: a query naming no dataset
hashes nothing, and a version's files are readable only once they passed.
DuckDB reads a path with ``*``, ``?`` or ``[`` as a glob, so every path given
to it is escaped to match its own file only.
"""

from __future__ import annotations

import contextlib
import glob
import json
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from data_catalog.version_files import content_hash, glob_escape, make_snapshot, remove_tree, snapshot_files
from runtime.settings import catalog_path
from schemas.record import SCHEMA_VERSION

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
    snapshot VARCHAR,               -- path, in the version's own read-only copy of its files (what its views read)
    content_hash VARCHAR,           -- SHA-256 of that copy, taken when it was made ('' when there was nothing to copy)
    PRIMARY KEY (name, version)
)
"""
# Catalogs made before copies and hashes: the columns are added, and each older version gets its copy and hash.
_MIGRATE = (
    "ALTER TABLE datasets ADD COLUMN IF NOT EXISTS snapshot VARCHAR",
    "ALTER TABLE datasets ADD COLUMN IF NOT EXISTS content_hash VARCHAR",
)
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
    "content_hash",
)
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM datasets"
READ_ONLY_STATEMENTS = ("SELECT", "EXPLAIN")  # DuckDB statement types a catalog query may hold


class QueryRefused(ValueError):
    """A catalog query that would do more than read the catalog's datasets."""


class VersionChanged(ValueError):
    """A catalog version whose files no longer hold what was registered: its rows are not read."""


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
    content_hash: str | None = None

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
    cut: bool = False  # more rows than the query's limit: the first ones only

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
                for statement in _MIGRATE:
                    con.execute(statement)
                self._copy_older_versions(con)
            elif _needs_migration(con):  # a catalog from before copies and hashes: migrate it first
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
        """Record a dataset version, copy its files, and (re)create its views; returns the version.

        Registering what the latest version already is (same path, kind, rows, config hash and content)
        returns that version instead of adding a new one, so rerunning a deterministic job does not inflate
        versions. Raises FileNotFoundError when ``path`` (a file or a glob) names no file.
        """
        check_name(name)
        path = str(Path(path).expanduser().absolute())
        files, base = _files_of(path)
        if not files:
            raise FileNotFoundError(f"{path} names no file: nothing to register as dataset {name!r}")
        made: list[Path] = []  # the copy folder this call makes
        with self._connect() as con, _removed_on_failure(made):
            con.execute("BEGIN TRANSACTION")
            latest = self._latest(con, name)
            same = (path, kind, rows, config_hash)
            if (
                latest
                and (latest.path, latest.kind, latest.rows, latest.config_hash) == same
                and latest.content_hash == content_hash(files, base)
            ):
                entry = latest
            else:
                version = (latest.version + 1) if latest else 1
                root = self.version_root(name, version)
                made.append(root)
                make_snapshot(files, base, root)
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
                    snapshot=str(root / Path(path).relative_to(base)),
                    content_hash=content_hash(snapshot_files(root), root),
                )
                values = {c: getattr(entry, c) for c in _COLUMNS} | {"details": json.dumps(entry.details, default=str)}
                con.execute(
                    f"INSERT INTO datasets ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
                    [values[c] for c in _COLUMNS],
                )
            self._create_views(con, entry, snapshot_files(self.version_root(name, entry.version)), latest=True)
            con.execute("COMMIT")
        return entry

    def version_root(self, name: str, version: int) -> Path:
        """The folder of a version's own copy of its files."""
        return self.path.parent / VERSIONS_DIR / name / f"v{version}"

    def files(self, entry: DatasetVersion) -> list[Path]:
        """The files of a version, checked against the content hash taken when they were copied.

        Raises VersionChanged, naming the version, when they changed since (or were never copied).
        """
        root = self.version_root(entry.name, entry.version)
        if not entry.content_hash:
            raise VersionChanged(
                f"catalog version {entry.view} has no files: {entry.path} was gone before the catalog kept "
                "copies of its versions"
            )
        files = snapshot_files(root)
        found = content_hash(files, root)
        if found != entry.content_hash:
            raise VersionChanged(
                f"catalog version {entry.view} changed after it was registered: the files under {root} no longer "
                f"match its content hash (sha256 {entry.content_hash[:12]}…, now {found[:12]}…); its rows are not read"
            )
        return sorted(files)

    @staticmethod
    def _create_views(con: duckdb.DuckDBPyConnection, entry: DatasetVersion, files: list[Path], latest: bool) -> None:
        """The version's view over ``files`` (each escaped: no glob), and the plain name's when ``latest``.

        By name: over files of different schema versions the view has every column and struct field any of them
        has (null where a file lacks it); by position, the first file's shape would hide the others'."""
        listed = ", ".join(_sql_string(glob_escape(str(f))) for f in sorted(files))
        scan = f"SELECT * FROM read_parquet([{listed}], union_by_name = true)"
        con.execute(f'CREATE OR REPLACE VIEW "{entry.view}" AS {scan}')
        if latest:
            con.execute(f'CREATE OR REPLACE VIEW "{entry.name}" AS {scan}')

    def _copy_older_versions(self, con: duckdb.DuckDBPyConnection) -> None:
        """Give every version registered before copies and hashes its copy (from its hard-linked snapshot, or
        its path) and hash, and point its views at the copy; one with no file left is marked as such."""
        older = [
            _entry(row)
            for row in con.execute(f"{_SELECT} WHERE content_hash IS NULL ORDER BY name, version").fetchall()
        ]
        for entry in older:
            source = entry.snapshot if entry.snapshot and _files_of(entry.snapshot)[0] else entry.path
            files, base = _files_of(source)
            root = self.version_root(entry.name, entry.version)
            snapshot, digest = None, ""
            if files:
                make_snapshot(files, base, root)
                snapshot, digest = str(root / Path(source).relative_to(base)), content_hash(snapshot_files(root), root)
            update = "UPDATE datasets SET snapshot = ?, content_hash = ? WHERE name = ? AND version = ?"
            con.execute(update, [snapshot, digest, entry.name, entry.version])
            if files:
                latest = self._latest(con, entry.name).version == entry.version
                self._create_views(con, entry, snapshot_files(root), latest)

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

    def sql(self, query: str, params: Sequence[Any] | None = None, limit: int | None = None) -> QueryResult:
        """Run read-only statements against the catalog (its table and dataset views); the last one's rows,
        at most ``limit`` of them (``cut`` says when there were more).

        Raises QueryRefused for a statement that is not a SELECT (COPY, ATTACH, EXPORT, INSTALL, SET, ...),
        VersionChanged for a version the query names whose files fail their content hash; reading a file
        that is not a named version's fails in DuckDB with a PermissionException.
        """
        with self._connect(read_only=True) as con:
            statements = con.extract_statements(query)
            refused = [s.type.name for s in statements if s.type.name not in READ_ONLY_STATEMENTS]
            if refused:
                raise QueryRefused(
                    f"catalog sql runs read-only queries (SELECT): {', '.join(dict.fromkeys(refused))} refused"
                )
            datasets = con.sql("SELECT * FROM datasets").to_arrow_table()
        # The query runs in memory, not on the catalog's file: DuckDB lets a connection read the file it has open
        # (and its WAL and temp folder) whatever the settings. It gets the datasets table and the views it names.
        with _in_memory(datasets) as con:
            entries = [_entry(row) for row in con.execute(_SELECT).fetchall()]
            readable = []
            for entry, latest in _named_versions(entries, query):  # only those: a view is made when named
                files = self.files(entry)
                self._create_views(con, entry, files, latest)
                readable += files
            _lock_down(con, readable)
            cursor = None
            for statement in statements:
                cursor = con.execute(statement, params or []) if len(statements) == 1 else con.execute(statement)
            if cursor is None or cursor.description is None:
                return QueryResult(columns=[])
            columns = [d[0] for d in cursor.description]
            if limit is None:
                return QueryResult(columns, cursor.fetchall())
            rows = cursor.fetchmany(limit + 1)
            return QueryResult(columns, rows[:limit], cut=len(rows) > limit)

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
            for leftover in (folder, folder.with_name(folder.name + ".partial")):
                with contextlib.suppress(OSError):  # the failure that brought us here is the one to report
                    remove_tree(leftover)
        raise


def _files_of(path: str) -> tuple[list[Path], Path]:
    """The files ``path`` names (a file, or a glob of them) and the folder their layout is relative to. A file
    whose name holds glob characters (``out[1].parquet``) is that file, not a pattern."""
    if Path(path).is_file() or not glob.has_magic(path):
        return ([Path(path)] if Path(path).is_file() else []), Path(path).parent
    return sorted(Path(p) for p in glob.glob(path, recursive=True) if Path(p).is_file()), _glob_base(path)


def _named_versions(entries: list[DatasetVersion], query: str) -> list[tuple[DatasetVersion, bool]]:
    """(version, whether it is its dataset's latest) for each version a query may read: each whose view name
    is a word of it (a dataset's plain name reads its latest version). Words in strings count too
    (``query_table('os')``): a version named nowhere in the text is not readable by the query, so it needs
    no check."""
    words = set(re.findall(r"[a-z_][a-z0-9_]*", query.lower()))
    latest: dict[str, int] = {}
    for e in entries:
        latest[e.name] = max(e.version, latest.get(e.name, 0))
    named = []
    for e in entries:
        is_latest = latest[e.name] == e.version
        if e.view.lower() in words or (is_latest and e.name.lower() in words):
            named.append((e, is_latest))
    return named


def _needs_migration(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the catalog has versions from before copies and hashes (or not yet the columns for them)."""
    found = "SELECT count(*) FROM information_schema.columns WHERE table_name = 'datasets' AND column_name = ?"
    if con.execute(found, ["content_hash"]).fetchall() == [(0,)]:
        return True
    return con.execute("SELECT count(*) FROM datasets WHERE content_hash IS NULL").fetchall() != [(0,)]


def _entry(row: tuple) -> DatasetVersion:
    values = dict(zip(_COLUMNS, row))
    values["parents"] = list(values["parents"] or [])
    values["details"] = json.loads(values["details"]) if values["details"] else {}
    return DatasetVersion(**values)


@contextmanager
def _in_memory(datasets: Any) -> Iterator[duckdb.DuckDBPyConnection]:
    """An in-memory database holding a copy of the catalog's ``datasets`` table (an Arrow table)."""
    import duckdb

    con = duckdb.connect(":memory:")
    try:
        con.register("catalog_datasets", datasets)
        con.execute("CREATE TABLE datasets AS SELECT * FROM catalog_datasets")
        con.unregister("catalog_datasets")
        yield con
    finally:
        con.close()


def _lock_down(con: duckdb.DuckDBPyConnection, files: list[Path]) -> None:
    """Only ``files`` readable (each as itself and as its escaped pattern, never a folder), nothing writable, no
    extensions, settings locked. DuckDB checks both a pattern and each file it expands to against the list, so
    a listed name that reads as a glob reaches no other file."""
    allowed = {str(f) for f in files} | {glob_escape(str(f)) for f in files}
    con.execute("SET temp_directory = ''")  # no spilling: DuckDB would allow reading its temp folder
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET allowed_paths = ?", [sorted(allowed)])
    con.execute("SET allowed_directories = ?", [[]])
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
