"""Table state with copy-on-write overlays and an incremental, canonical hash.

A tool-world state is ``{table_name: {row_key: row}}`` (rows are JSON-able
dicts). A :class:`Snapshot` wraps such a state and is never mutated, so many
environments (one per replayed trajectory) can share it; each environment keeps
only the rows it changed in a :class:`TableOverlay`.

The state hash is a multiset hash: every row's digest is
``sha256(canonical JSON of [table, key, row])`` read as a 256-bit integer, a
table's digest is the sum of its rows' digests mod 2**256, and the state hash
is ``canonical_hash`` of ``{table: hex(table digest)}``. It depends only on the
content (never on the order of edits), equal states hash equally, and a changed
row moves it. The snapshot's table sums are computed once (lazily); an
overlay's hash then costs O(rows changed), so hashing stays cheap at 50,000
users.
"""

from __future__ import annotations

import gc
import hashlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import orjson

from environments.base import canonical_hash
from schemas.record import canonical_json

_MOD = 1 << 256
_DELETED = object()  # overlay marker for a removed row


def row_digest(table: str, key: str, row: Any) -> int:
    return int.from_bytes(hashlib.sha256(canonical_json([table, key, row])).digest(), "big")


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """For building a whole database (millions of JSON containers, none in a cycle): with the
    collector on, it scans the growing heap again and again, which costs more than the building."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def copy_row(row: Any) -> Any:
    """A deep copy of a JSON-able value (orjson round trip: several times faster than deepcopy)."""
    return orjson.loads(orjson.dumps(row))


class Snapshot:
    """An immutable state shared by environments; table sums are computed on first use."""

    def __init__(self, tables: dict[str, dict[str, Any]]):
        if not isinstance(tables, dict) or not all(isinstance(t, dict) for t in tables.values()):
            raise ValueError("a tool-world state must be a dict of tables, each a dict of rows keyed by id")
        self.tables = tables
        self._sums: dict[str, int] | None = None
        self._indexes: dict[str, Any] = {}

    def index(self, name: str, build: Callable[[dict[str, dict[str, Any]]], Any]) -> Any:
        """A lookup structure built once per snapshot (e.g. email -> user id); see ToolWorld.lookup."""
        if name not in self._indexes:
            self._indexes[name] = build(self.tables)
        return self._indexes[name]

    def table_sums(self) -> dict[str, int]:
        if self._sums is None:
            self._sums = {
                name: sum(row_digest(name, key, row) for key, row in rows.items()) % _MOD
                for name, rows in self.tables.items()
            }
        return self._sums


# reset(state=d) with the same dict object many times (replaying many trajectories from one
# recorded initial state) reuses one Snapshot and its table sums. The cache holds a strong
# reference to d, so id(d) cannot be recycled while the entry lives.
_SNAPSHOTS: OrderedDict[int, tuple[dict, Snapshot]] = OrderedDict()
_SNAPSHOT_CACHE_SIZE = 8


def as_snapshot(state: dict[str, Any] | Snapshot) -> Snapshot:
    """Wrap a state dict (treated as read-only from now on) in a cached Snapshot."""
    if isinstance(state, Snapshot):
        return state
    hit = _SNAPSHOTS.get(id(state))
    if hit is not None and hit[0] is state:
        _SNAPSHOTS.move_to_end(id(state))
        return hit[1]
    snap = Snapshot(state)
    _SNAPSHOTS[id(state)] = (state, snap)
    if len(_SNAPSHOTS) > _SNAPSHOT_CACHE_SIZE:
        _SNAPSHOTS.popitem(last=False)
    return snap


class TableOverlay:
    """The rows one environment changed on top of a shared Snapshot."""

    def __init__(self, snapshot: Snapshot):
        self.snapshot = snapshot
        self.changed: dict[tuple[str, str], Any] = {}
        self._digests: dict[tuple[str, str], int] = {}  # current digests of changed rows
        self._base_digests: dict[tuple[str, str], int] = {}  # snapshot digests of those rows

    def get(self, table: str, key: str) -> Any | None:
        """The committed row, or None. Callers must not mutate it."""
        row = self.changed.get((table, key), None)
        if row is None:
            return self.snapshot.tables.get(table, {}).get(key)
        return None if row is _DELETED else row

    def put(self, table: str, key: str, row: Any) -> None:
        if table not in self.snapshot.tables:
            raise KeyError(f"unknown table {table!r}")
        self.changed[(table, key)] = row
        self._digests.pop((table, key), None)

    def delete(self, table: str, key: str) -> None:
        self.put(table, key, _DELETED)

    def keys(self, table: str) -> Iterator[str]:
        """Row keys of a table in snapshot order, then rows added by this overlay."""
        base = self.snapshot.tables.get(table, {})
        for key in base:
            if self.changed.get((table, key)) is not _DELETED:
                yield key
        for (name, key), row in self.changed.items():
            if name == table and key not in base and row is not _DELETED:
                yield key

    def changed_keys(self, table: str) -> list[str]:
        return [key for name, key in self.changed if name == table]

    def rows(self, table: str) -> Iterator[tuple[str, Any]]:
        for key in self.keys(table):
            yield key, self.get(table, key)

    def state(self) -> dict[str, dict[str, Any]]:
        """A deep copy of the full current state."""
        merged = {name: dict(rows) for name, rows in self.snapshot.tables.items()}
        for (name, key), row in self.changed.items():
            if row is _DELETED:
                merged[name].pop(key, None)
            else:
                merged[name][key] = row
        with cycle_collector_paused():  # 50,000 users: 4.8 s -> 0.9 s
            return copy_row(merged)

    def _digest_of(self, table: str, key: str, row: Any) -> int:
        return 0 if row is None or row is _DELETED else row_digest(table, key, row)

    def state_hash(self) -> str:
        sums = dict(self.snapshot.table_sums())
        base = self.snapshot.tables
        for (name, key), row in self.changed.items():
            current = self._digests.get((name, key))
            if current is None:
                current = self._digests[(name, key)] = self._digest_of(name, key, row)
            original = self._base_digests.get((name, key))
            if original is None:
                original = self._base_digests[(name, key)] = self._digest_of(name, key, base[name].get(key))
            sums[name] = (sums[name] - original + current) % _MOD
        return canonical_hash({name: format(value, "064x") for name, value in sums.items()})
