"""Read values at paths in an environment's state, and find the rows a trajectory changed.

A path is a dotted string ("orders.#R1234567.status",
"users.u1.payment_methods.gc_1.balance") or a list of segments (for keys that
contain dots). Segments walk dict keys, or list indexes when the node is a list.

Tool worlds (``ToolWorld``) are read row by row, never copied whole, so a
check costs the same at 500 and at 50,000 users. Other environments are read
through one ``state()`` copy.
"""

from __future__ import annotations

from typing import Any

from environments.base import ToolEnvironment
from environments.tool_world import ToolWorld

MISSING = object()


def split_path(path: str | list) -> list[str]:
    return [str(part) for part in path] if isinstance(path, (list, tuple)) else str(path).split(".")


def descend(node: Any, parts: list[str]) -> Any:
    for part in parts:
        if isinstance(node, dict):
            node = node.get(part, MISSING)
        elif isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
            node = node[int(part)]
        else:
            return MISSING
        if node is MISSING:
            return MISSING
    return node


class StateReader:
    def __init__(self, env: ToolEnvironment):
        self.env = env
        self._state: dict | None = None

    def full_state(self) -> dict:
        if self._state is None:
            self._state = self.env.state()
        return self._state

    def get(self, path: str | list) -> Any:
        parts = split_path(path)
        if isinstance(self.env, ToolWorld) and len(parts) >= 2:
            row = self.env.find(parts[0], parts[1])
            return MISSING if row is None else descend(row, parts[2:])
        return descend(self.full_state(), parts)


def changed_rows(initial: StateReader, final: StateReader) -> list[tuple[str, ...]]:
    """Rows whose content differs between the two states: (table, key), or (key,) for a non-table value."""
    if isinstance(final.env, ToolWorld):
        touched = {tuple(w) for entry in final.env.action_log if entry["ok"] for w in entry["writes"]}
        return sorted(row for row in touched if initial.get(list(row)) != final.get(list(row)))
    before, after = initial.full_state(), final.full_state()
    rows: list[tuple[str, ...]] = []
    for table in sorted(set(before) | set(after), key=str):
        a, b = before.get(table, MISSING), after.get(table, MISSING)
        if isinstance(a, dict) and isinstance(b, dict):
            rows += [
                (str(table), str(k)) for k in sorted(set(a) | set(b), key=str) if a.get(k, MISSING) != b.get(k, MISSING)
            ]
        elif a != b:
            rows.append((str(table),))
    return rows


def within(row: tuple[str, ...], scope: list[str]) -> bool:
    """A row is within a scope when one is a prefix of the other (row-level granularity)."""
    n = min(len(row), len(scope))
    return list(row[:n]) == scope[:n]
