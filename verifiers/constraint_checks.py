"""The constraint language: one small check per kind, over outcomes (state, messages, actions).

A constraint is a dict with a ``check`` kind, an optional ``id`` and the
kind's fields. Checks look at outcomes, not at the exact sequence of actions,
so any valid path to the goal is accepted.

State (paths as in verifiers/state_reader.py; the final state is the replayed one):
- ``{"check": "state_equals", "path": "orders.#R1.status", "value": "cancelled"}``
  (numbers compare within ``tolerance``, default 1e-6)
- ``{"check": "state_delta", "path": "users.u1.payment_methods.gc_1.balance", "delta": 54.0, "tolerance": 0.01}``
  (final minus initial)
- ``{"check": "state_unchanged", "path": "users.u2"}``
- ``{"check": "no_write_outside", "scope": ["users.u1", "orders.#R1"]}`` (a path or a list)
- ``{"check": "allow_write", "scope": "orders"}`` (permission only, never scored; see write penalty)

Messages (the agent's MessageActions):
- ``{"check": "message_contains", "text": "refund"}`` (case-insensitive unless ``case_sensitive``; an
  occurrence denied by the words before it, "has not been processed", or hedged, "either processed or
  delivered", "probably processed", does not count: verifiers/claims.py). The environment's ``phrasings`` say
  the same in other words ("on its way" for processed, "the card you paid with" for the original payment
  method). A reason a refusal must give (a constraint of a goal of outcome ``refusal``) is also given by a
  true denial of another of the environment's fact terms ("it has not been delivered yet" for a processed
  order that cannot be returned).
- ``{"check": "message_contains", "number": 54.0, "tolerance": 0.01}`` (finds "$54.00", "54", "fifty-four
  dollars")
- a fact a goal asks for is the goal's rows' (``Outcome.rows``, by constraint id): what a clause says after
  naming another row of their kind, and none of them, does not count ("Order #R2 is cancelled" tells nothing
  of #R1; "#R1 and #R2 are both cancelled" does)
- ``{"check": "message_not_contains", "text": "password"}``

Actions (ApiActions, with their replayed success when there was a replay):
- ``{"check": "action_called", "function": "cancel_pending_order", "args_subset": {"order_id": "#R1"}}``
  (``"succeeded": false`` also counts failed calls)
- ``{"check": "action_not_called", "function": "transfer_to_human_agents"}``
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from verifiers.amount_words import amounts_said
from verifiers.claims import fact_terms_in, hedged, names_at, row_clauses
from verifiers.claims import preceded_by_negation as _denied
from verifiers.state_reader import MISSING, StateReader, changed_rows, split_path, within

_ABILITY = re.compile(r"\b(?:can|cannot|can'?t|could|couldn'?t|won'?t|will|able|unable|allowed)\b")
_NUMBER = re.compile(r"-?\$?\d[\d,]*(?:\.\d+)?")


@dataclass
class Outcome:
    """What the constraints are checked against."""

    final: StateReader | None
    initial: StateReader | None
    messages: list[str]
    calls: list[tuple[str, dict, bool]]  # (function, arguments, succeeded)
    # The environment's other words for a text (verifiers/claims.py ``phrasings``) and its fact terms.
    phrasings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    terms: tuple[str, ...] = ()
    refusal_reasons: frozenset[str] = frozenset()  # ids of the constraints that are reasons a refusal gives
    rows: dict[str, tuple[str, ...]] = field(default_factory=dict)  # constraint id: the ids of its goal's rows
    _changed: list[tuple[str, ...]] | None = field(default=None, repr=False)

    def changed(self) -> list[tuple[str, ...]]:
        if self._changed is None:
            self._changed = changed_rows(self.initial, self.final) if self.final and self.initial else []
        return self._changed


class ConstraintError(ValueError):
    """A constraint that cannot be evaluated as written (unknown kind, missing field)."""


def values_match(expected: Any, actual: Any, tolerance: float = 1e-6) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return math.isclose(expected, actual, abs_tol=tolerance)
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(
            values_match(v, actual[k], tolerance) for k, v in expected.items()
        )
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(values_match(e, a, tolerance) for e, a in zip(expected, actual))
    return expected == actual


def is_subset(subset: Any, actual: Any, tolerance: float = 1e-6) -> bool:
    if isinstance(subset, dict) and isinstance(actual, dict):
        return all(k in actual and is_subset(v, actual[k], tolerance) for k, v in subset.items())
    return values_match(subset, actual, tolerance)


def _field(c: dict, name: str) -> Any:
    if name not in c:
        raise ConstraintError(f"{c.get('check')} needs '{name}'")
    return c[name]


def _state(outcome: Outcome, which: str) -> StateReader:
    reader = outcome.final if which == "final" else outcome.initial
    if reader is None:
        raise ConstraintError("no replayed state to check (the record has no environment)")
    return reader


def state_equals(c: dict, o: Outcome) -> bool:
    actual = _state(o, "final").get(_field(c, "path"))
    return actual is not MISSING and values_match(_field(c, "value"), actual, c.get("tolerance", 1e-6))


def state_delta(c: dict, o: Outcome) -> bool:
    before, after = _state(o, "initial").get(_field(c, "path")), _state(o, "final").get(c["path"])
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (before, after))
    return numbers and math.isclose(after - before, float(_field(c, "delta")), abs_tol=c.get("tolerance", 1e-6))


def state_unchanged(c: dict, o: Outcome) -> bool:
    return _state(o, "initial").get(_field(c, "path")) == _state(o, "final").get(c["path"])


def scopes_of(c: dict) -> list[list[str]]:
    scope = _field(c, "scope")
    return [split_path(s) for s in (scope if isinstance(scope, list) else [scope])]


def no_write_outside(c: dict, o: Outcome) -> bool:
    _state(o, "final")
    scopes = scopes_of(c)
    return all(any(within(row, s) for s in scopes) for row in o.changed())


def message_contains(c: dict, o: Outcome) -> bool:
    rows = o.rows.get(str(c.get("id")), ())
    messages = [said_of(message, rows) for message in o.messages] if rows else o.messages
    if "number" in c:
        wanted, tol = float(c["number"]), c.get("tolerance", 1e-6)
        found = [float(m.replace("$", "").replace(",", "")) for text in messages for m in _NUMBER.findall(text)]
        found += [value for text in messages for value in amounts_said(text)]
        return any(math.isclose(value, wanted, abs_tol=tol) for value in found)
    text = str(_field(c, "text"))
    if any(stated(text, message, bool(c.get("case_sensitive")), o.terms) for message in messages):
        return True
    if any(said_otherwise(message, o.phrasings.get(text.lower(), ()), o.terms) for message in messages):
        return True
    return c.get("id") in o.refusal_reasons and any(denies_another(message, text, o.terms) for message in messages)


def said_of(message: str, rows: tuple[str, ...]) -> str:
    """What ``message`` may say of ``rows``: each clause that names a row of their kind (an order id like theirs)
    but none of them is cut where it names that other row; a message that names no other row is left whole."""
    shapes = {shape for row in rows for _, _, shape in names_at(row)}
    wanted = {row.lower().lstrip("#") for row in rows}
    clauses, cut = list(row_clauses(message)), False
    for i, clause in enumerate(clauses):
        named = [(start, token) for start, token, shape in names_at(clause) if shape in shapes]
        if named and not any(token.lower().lstrip("#") in wanted for _, token in named):
            clauses[i], cut = clause[: named[0][0]], True
    return "; ".join(clauses) if cut else message


def stated(text: str, message: str, case_sensitive: bool = False, terms: tuple[str, ...] = ()) -> bool:
    """``text`` occurs in ``message`` at least once neither denied ("has not been processed" states nothing)
    nor hedged ("either processed or delivered", "probably processed")."""
    haystack, needle = (message, text) if case_sensitive else (message.lower(), text.lower())
    start = haystack.find(needle)
    while start >= 0:
        if not _denied(haystack, start) and not hedged(haystack, start, start + len(needle), terms):
            return True
        start = haystack.find(needle, start + 1)
    return False


def said_otherwise(message: str, patterns: tuple[str, ...], terms: tuple[str, ...] = ()) -> bool:
    """One of the environment's other phrasings of a text occurs in ``message``, neither denied nor hedged."""
    lowered = message.lower()
    return any(
        not _denied(lowered, m.start()) and not hedged(lowered, m.start(), m.end(), terms)
        for pattern in patterns
        for m in re.finditer(pattern, lowered)
    )


def denies_another(message: str, text: str, terms: tuple[str, ...]) -> bool:
    """``message`` denies a fact term other than ``text`` ("not delivered" when the reason is "processed")."""
    if text.lower() not in {t.lower() for t in terms}:
        return False
    lowered = message.lower()
    _, denied = fact_terms_in(lowered, terms)
    # "it can't be cancelled" denies an ability, the refusal itself; the reason is a state ("not delivered yet").
    return any(
        term.lower() != text.lower()
        and term.lower() not in text.lower()
        and any(not _ABILITY.search(lowered[max(0, m.start() - 25) : m.start()]) for m in re.finditer(term, lowered))
        for term in denied
    )


def message_not_contains(c: dict, o: Outcome) -> bool:
    text = str(_field(c, "text")) if "number" not in c else None
    if text is None:
        return not message_contains(c, o)
    folded = [m if c.get("case_sensitive") else m.lower() for m in o.messages]
    return not any((text if c.get("case_sensitive") else text.lower()) in m for m in folded)


def _matching_calls(c: dict, o: Outcome) -> list[tuple[str, dict, bool]]:
    function, subset = _field(c, "function"), c.get("args_subset", {})
    need_success = c.get("succeeded", True)
    return [
        call for call in o.calls if call[0] == function and is_subset(subset, call[1]) and (call[2] or not need_success)
    ]


def action_called(c: dict, o: Outcome) -> bool:
    return bool(_matching_calls(c, o))


def action_not_called(c: dict, o: Outcome) -> bool:
    return not _matching_calls({**c, "succeeded": False}, o)


CHECKS: dict[str, Callable[[dict, Outcome], bool]] = {
    "state_equals": state_equals,
    "state_delta": state_delta,
    "state_unchanged": state_unchanged,
    "no_write_outside": no_write_outside,
    "message_contains": message_contains,
    "message_not_contains": message_not_contains,
    "action_called": action_called,
    "action_not_called": action_not_called,
}
# Kinds that only grant write permission (for the harmful-write penalty) and are not scored.
PERMISSIONS = frozenset({"allow_write"})
STATE_PATH_CHECKS = frozenset({"state_equals", "state_delta"})
