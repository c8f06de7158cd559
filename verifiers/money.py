"""The money a write moved: read from the rows it changed, through the environment's ``money_keys``.

A number under a money key (``amount``, ``balance``, ``return_refund``, ...) counts when the write
changed it (the difference: a gift card debited by 54.00 moved 54.00) or created it (a new payment
history entry, a new refund field: its value). Replay (verifiers/replay.py) keeps each write's rows as
(before, after); confirmations and grounding read the amounts from here.
"""

from __future__ import annotations

from typing import Any

from verifiers.base import CheckContext

_ABSENT = object()


def _walk(before: Any, after: Any, key: str | None, money_keys: frozenset[str], out: list[float]) -> None:
    if isinstance(after, dict):
        old = before if isinstance(before, dict) else {}
        for name, value in after.items():
            previous = old.get(name, _ABSENT)
            if previous is not value and previous != value:  # unchanged parts move no money: not walked
                _walk(previous, value, name, money_keys, out)
    elif isinstance(after, list):
        old = before if isinstance(before, list) else []
        for index, value in enumerate(after):
            previous = old[index] if index < len(old) else _ABSENT
            if previous is not value and previous != value:
                _walk(previous, value, key, money_keys, out)
    elif key in money_keys and isinstance(after, (int, float)) and not isinstance(after, bool):
        changed = isinstance(before, (int, float)) and before is not _ABSENT
        moved = abs(after - before) if changed else abs(after)
        if round(moved, 2) != 0:
            out.append(round(moved, 2))


def moved_amounts(rows: dict, money_keys: frozenset[str]) -> list[float]:
    """The amounts one write moved, from its rows {row: (before, after)}, each once, in row order."""
    out: list[float] = []
    for before, after in rows.values():
        _walk(_ABSENT if before is None else before, after, None, money_keys, out)
    return list(dict.fromkeys(out))


def amounts_of_last_call(env: Any) -> list[float]:
    """The amounts the environment's last call moved (a tool world logs each call's rows)."""
    log = getattr(env, "action_log", None)
    return moved_amounts(log[-1]["rows"], frozenset(getattr(env, "money_keys", ()))) if log else []


def moved_by_step(ctx: CheckContext) -> dict[int, list[float]]:
    """{step of a write call: the amounts it moved} for every replayed write that changed the state."""
    if "moved_by_step" not in ctx.memo:
        keys = frozenset(getattr(ctx.initial_env, "money_keys", ()))
        ctx.memo["moved_by_step"] = {
            entry["step"]: moved_amounts(entry["rows"], keys) for entry in ctx.write_log if entry.get("rows")
        }
    return ctx.memo["moved_by_step"]
