"""What an agent's message states, and what the conversation had shown before it: the material of grounding.

A **claim** is something a reader could check against the record:

- an **amount**: a number written as money ("$227.32", "USD 227.32", "227.32", "$54"); compared within a
  cent, so 227.32 = USD 227.32 = $227.32 = 227.320;
- an **id**: a token with at least four digits or a leading ``#`` ("#W1234567", "credit_card_4421", a
  tracking number); compared case-insensitively as text;
- a **fact term**: one of the environment's categorical values (``fact_terms``: "processed", "gold"),
  **asserted** ("it is still pending"), **denied** ("it has not been processed", "it cannot be cancelled":
  "not", "n't", "cannot", "never", "no", ... among the six words before it in the same clause) or neither:
  stated as a rule or a possibility ("only", "unless", "if", "can", "will", ... there: "only pending orders
  can be cancelled"), or as a category, coordinated with another term or in a disjunction ("for silver and
  gold members", "insured or business trips": no row is both, and "or" asserts neither side).

- a **date** (YYYY-MM-DD): compared as text.

What was **seen** before a step: the text of every earlier user turn and tool result (numbers and ids are
read from it the same way, plus every number inside JSON tool results).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

import orjson

from schemas.steps import ApiAction, MessageAction, Step, TextObservation

_MONEY = re.compile(r"(?:\$|\bUSD\s?)\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*\.\d{2})\b", re.IGNORECASE)
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_ID = re.compile(r"#?[A-Za-z0-9_]*\d[A-Za-z0-9_\-]*")
_LONG_DIGITS = re.compile(r"\d{8,}")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
NEGATIONS = frozenset({"not", "cannot", "never", "no", "nor", "neither", "without", "none", "nothing"})
# Words that make what follows a rule or a possibility, not a statement of fact ("only pending orders can be
# cancelled", "it can be cancelled"): they hide a fact term from grounding, never a reason from a constraint.
RULE_WORDS = frozenset({"only", "unless", "if", "can", "could", "will", "would", "may", "might", "must"})
WORD = re.compile(r"[a-z']+")
_COORDINATION = re.compile(r"\s*(?:,\s*)?(?:(?:and|or|nor|and/or)\s+)?")
_DISJUNCTION_BEFORE = re.compile(r"\bn?or\s+$")
_DISJUNCTION_AFTER = re.compile(r"\s+n?or\b")
_ANY_ROW_BEFORE = re.compile(r"\b(?:for an?|with an?|on an?|any|all|every|each|only)\s+$")
_ROWS_AFTER = re.compile(
    r"\s+(?:orders|reservations|flights|bookings|items|members|tickets|fares|cabins|days?|hours|travel|travell?ers|"
    r"passengers|class (?:travel|bookings|tickets|passengers|travell?ers)|right away|immediately|at once|instantly)\b"
)
# A status that is also a verb ("flying business") is a status only after a copula or a status word.
_VERB_TERMS = frozenset({"flying"})
_STATUS_BEFORE = re.compile(r"\b(?:is|are|was|were|currently|now|still|status|shows?|showing|listed as)\W+(?:\w+\W+)?$")


def amounts_in(text: str) -> list[float]:
    """Numbers written as money in ``text``."""
    return list(_amounts(text))


@lru_cache(maxsize=4096)  # the grounding checks read each clause of a message several times
def _amounts(text: str) -> tuple[float, ...]:
    return tuple(float((a or b).replace(",", "")) for a, b in _MONEY.findall(text))


def numbers_in(text: str) -> list[float]:
    """Every number in ``text`` (for what was seen: a price is a number, whether or not written as money)."""
    found = []
    for token in _NUMBER.findall(text):
        try:
            found.append(float(token.replace(",", "")))
        except ValueError:
            continue
    return found


def ids_in(text: str) -> list[str]:
    """Id-like tokens: a leading ``#``, at least four digits among letters, or eight digits and more (an item
    id); dates, times and amounts are facts of other kinds (``dates_in``, ``amounts_in``)."""
    return list(_ids(text))


@lru_cache(maxsize=4096)
def _ids(text: str) -> tuple[str, ...]:
    found = []
    for token in _ID.findall(text):
        token = token.strip("-_")
        digits = sum(ch.isdigit() for ch in token)
        if (
            token.startswith("#")
            and digits
            or digits >= 4
            and not _looks_numeric(token)
            or _LONG_DIGITS.fullmatch(token)
        ):
            found.append(token)
    return tuple(found)


def dates_in(text: str) -> list[str]:
    """Calendar dates written as YYYY-MM-DD (flights, dates of birth)."""
    return _DATE.findall(text)


def _looks_numeric(token: str) -> bool:
    """A date (2024-05-01), a time or a plain number: a fact of another kind, not an id."""
    return bool(_NUMERIC.fullmatch(token))


_NUMERIC = re.compile(r"[\d\-:,.]+")


# Words that open a condition ("when we cancelled one of its flights" names a case of a rule, no row's state).
_CONDITIONS = frozenset({"when", "whenever", "once"})


def preceded_by_negation(text: str, start: int, rules: bool = False) -> bool:
    """A denial (or, with ``rules``, a rule word or a condition) among the six words before ``start`` in the
    same clause."""
    clause = re.split(r"[,;:.!?()]", text[max(0, start - 60) : start].lower())[-1]
    before = WORD.findall(clause)[-6:]
    words = NEGATIONS | RULE_WORDS | _CONDITIONS if rules else NEGATIONS
    return any(word in words or word.endswith("n't") for word in before)


# Words that make what follows a guess, not a statement ("it is probably processed", "either processed or").
_HEDGES = re.compile(
    r"\b(?:either|maybe|perhaps|possibly|probably|likely|might|i think|i believe|i guess|not sure|unsure|"
    r"seems?|appears?|should be|could be|may be|may have|might have|presumably|i assume|i suppose)\b"
)
_OR_NEARBY = re.compile(r"\bn?or\b")


def hedged(text: str, start: int, end: int, terms: Iterable[str] = ()) -> bool:
    """What stands at text[start:end] is said as a guess: a hedge word before it in its clause, or, for one of
    ``terms``, "or" joining it to another of them ("processed or delivered", "either delivered or maybe
    processed"; a rule's "or", "the original payment method or a gift card", is no guess)."""
    clause_start = max((text.rfind(mark, 0, start) for mark in ".;:!?\n"), default=-1) + 1
    if _HEDGES.search(text, clause_start, start):
        return True
    patterns = _or_patterns(tuple(terms), fold(text[start:end]))
    if patterns is None:
        return False
    before, after = patterns
    return bool(before.search(fold(text[clause_start:start])) or after.match(fold(text[end : end + 40])))


@lru_cache(maxsize=1024)  # built per term said, from every other term: the same few for a whole run
def _or_patterns(terms: tuple[str, ...], said: str) -> tuple[re.Pattern, re.Pattern] | None:
    """The patterns of ``said`` joined by "or" to another of ``terms`` (before it, after it); None without others."""
    others = "|".join(re.escape(fold(t)) for t in terms if fold(t) != said)
    if not others:
        return None
    before = re.compile(rf"(?:{others})\s*,?\s+or\s+(?:maybe |perhaps |possibly )?$")
    after = re.compile(rf"\s*,?\s+or\s+(?:maybe |perhaps |possibly |else )?(?:{others})\b")
    return before, after


def fact_terms_in(
    text: str, terms: Iterable[str], aliases: dict[str, tuple[str, ...]] | None = None
) -> tuple[set[str], set[str]]:
    """(asserted, denied) fact terms of ``text`` (see the module docstring); a longer term hides the shorter
    ones inside it. ``aliases``: other words that say a term (the environment's phrasings: "on its way" says
    processed), asserted where neither denied nor hedged nor a rule."""
    if not terms:
        return set(), set()
    asserted, denied = _fact_terms(text, tuple(terms), tuple((aliases or {}).items()))
    return set(asserted), set(denied)


# Grounding reads each message whole and again clause by clause, and the rollouts of a task repeat most messages:
# what a text says depends on the text and the environment's words only, so it is read once.
@lru_cache(maxsize=16384)
def _fact_terms(
    text: str, terms: tuple[str, ...], aliases: tuple[tuple[str, tuple[str, ...]], ...]
) -> tuple[frozenset[str], frozenset[str]]:
    asserted: set[str] = set()
    denied: set[str] = set()
    lowered = fold(text)
    for term, patterns in aliases:
        for match in _any_of(patterns).finditer(lowered):
            if not preceded_by_negation(lowered, match.start(), rules=True) and not hedged(
                lowered, match.start(), match.end()
            ):
                asserted.add(term)
    # Longest first: a longer term hides a shorter. Not inside a snake_case value ("airline_cancelled_flight" is a
    # reason, not a status; fold keeps positions, so the text says where underscores were).
    matches = [
        match
        for match in _terms_pattern(tuple(terms)).finditer(lowered)
        if text[match.start() - 1 : match.start()] != "_" and text[match.end() : match.end() + 1] != "_"
    ]
    for index, match in enumerate(matches):
        term = match.group(0)
        if preceded_by_negation(lowered, match.start()):
            denied.add(term)
        elif not preceded_by_negation(lowered, match.start(), rules=True) and not _category(lowered, matches, index):
            asserted.add(term)
    return frozenset(asserted), frozenset(denied)


def mentions_term(text: str, terms: tuple[str, ...], aliases: dict[str, tuple[str, ...]]) -> bool:
    """Whether ``text`` says any of ``terms`` or their aliases at all: the cheap test before reading them."""
    return bool(terms) and _mentions(text, terms, tuple(aliases.values()))


@lru_cache(maxsize=8192)
def _mentions(text: str, terms: tuple[str, ...], aliases: tuple[tuple[str, ...], ...]) -> bool:
    lowered = fold(text)
    return bool(_terms_pattern(terms).search(lowered)) or any(_any_of(p).search(lowered) for p in aliases)


@lru_cache(maxsize=64)
def _any_of(patterns: tuple[str, ...]) -> re.Pattern:
    return re.compile("|".join(f"(?:{pattern})" for pattern in patterns))


def _category(text: str, matches: list[re.Match], index: int) -> bool:
    """The term names a category, not a row's value: it is coordinated with another term ("silver and gold",
    "pending, processed or delivered"), stands next to an "or" ("insured or business"), or qualifies any row of
    a kind ("for a pending order", "only delivered orders", "gold members")."""
    match = matches[index]
    if _DISJUNCTION_BEFORE.search(text, 0, match.start()) or _DISJUNCTION_AFTER.match(text, match.end()):
        return True
    if _ANY_ROW_BEFORE.search(text, 0, match.start()) or _ROWS_AFTER.match(text, match.end()):
        return True
    if match.group(0) in _VERB_TERMS and not _STATUS_BEFORE.search(text, max(0, match.start() - 30), match.start()):
        return True
    neighbours = matches[index - 1 : index] + matches[index + 1 : index + 2]
    return any(
        _COORDINATION.fullmatch(text, min(match.end(), other.end()), max(match.start(), other.start()))
        for other in neighbours
    )


@lru_cache(maxsize=64)
def _terms_pattern(terms: tuple[str, ...]) -> re.Pattern:
    alternatives = "|".join(re.escape(t) for t in sorted({fold(t) for t in terms}, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def fold(text: str) -> str:
    """Lower case, underscores as spaces: "basic_economy" as stored is "basic economy" as said."""
    return text.lower().replace("_", " ")


_NAME = re.compile(r"#?[A-Za-z0-9_]*[A-Z0-9][A-Za-z0-9_]*")


_SHAPE = str.maketrans(string.digits + string.ascii_uppercase + string.ascii_lowercase, "9" * 10 + "A" * 26 + "a" * 26)


def shape(token: str) -> str:
    """What kind of name a token is: "#R1234567" -> "#A9999999", "JGJFJJ" -> "AAAAAA", "ZA441" -> "AA999"."""
    return token.translate(_SHAPE)


@lru_cache(maxsize=16384)  # every check asks for the names of the same clauses, at every step of a conversation
def _shaped_names(text: str) -> tuple[tuple[str, str], ...]:
    """The name-like tokens of ``text``, each with its shape."""
    return tuple((token, shape(token)) for token in _NAME.findall(text))


def names_at(text: str) -> list[tuple[int, str, str]]:
    """(where, token, shape) of each name-like token of ``text``."""
    return [(m.start(), m.group(0), shape(m.group(0))) for m in _NAME.finditer(text)]


# The comma of "Monday, June 23" is inside a date, not between clauses.
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NOT_IN_DATE = "(?:{}|(?!\\s*(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)))".format(
    "".join(f"(?<!(?i:{day}),)" for day in _WEEKDAYS)
)
# A comma between clauses: not inside an amount ("$6,609.00") nor a date.
CLAUSE_COMMA = rf",(?!\d){_NOT_IN_DATE}"
_ROW_CLAUSE = re.compile(rf"[;:\n]|{CLAUSE_COMMA}|(?<=[.!?])\s+|(?<=\))\s+and\s+")
BRACKET = re.compile(r"\(([^()]*)\)")  # an aside, its text as group 1
# Punctuation inside brackets, hidden while a text is split into clauses: a bracket is one aside.
_MASK = str.maketrans({",": "\x00", ";": "\x01", ":": "\x02"})
_UNMASK = str.maketrans({"\x00": ",", "\x01": ";", "\x02": ":"})


def unbracketed(text: str) -> str:
    """``text`` without what its brackets say (an aside: "flight ZA273 (reservation BGCDBF) was cancelled")."""
    return BRACKET.sub(" ", text)


@lru_cache(maxsize=8192)
def row_clauses(text: str) -> tuple[str, ...]:
    """Clauses of a message for what it says of rows: what brackets say is of the row before them ("#R1
    (Headphones, $206.61) and #R2 (Office Chair, $480.34)" is two clauses, one per order)."""
    return clauses_around_brackets(text, _ROW_CLAUSE)


def clauses_around_brackets(text: str, boundary: re.Pattern) -> tuple[str, ...]:
    """``text`` split at ``boundary``, but never inside a bracket: each bracket stays whole in its clause."""
    masked = BRACKET.sub(lambda bracket: bracket.group(0).translate(_MASK), text)
    return tuple(clause.translate(_UNMASK) for clause in boundary.split(masked))


NOT_JSON = object()


@lru_cache(maxsize=4096)  # the same result (a user's profile) comes back in every rollout of a task
def json_value(content: str) -> Any:
    """A tool result's text parsed as JSON (NOT_JSON when it is not), once for every check that reads it (grounding's
    rows, the statements' and the confirmations' values): read only."""
    try:
        return orjson.loads(content)
    except orjson.JSONDecodeError:
        return NOT_JSON


class Row:
    """A tool result that is one JSON object: a row as a tool showed it."""

    def __init__(self, values: dict, content: str) -> None:
        self.values = values
        self.text = fold(content)
        # Named by its ``*_id`` and ``*_number`` fields (an order: its order and user ids; a flight: its number).
        self.identity = tuple(
            sorted((k, v) for k, v in values.items() if k.endswith(("_id", "_number")) and isinstance(v, str))
        )
        self.kind = tuple(k for k, _ in self.identity)
        self.names = {str(v).lower() for v in values.values() if not isinstance(v, (dict, list))}
        self._amounts: set[int] | None = None
        self._fields: dict[str, set[str]] | None = None

    @classmethod
    def parse(cls, content: str) -> Row | None:
        if content[:1] != "{":
            return None
        values = json_value(content)
        return cls(values, content) if isinstance(values, dict) else None

    def named(self, token: str) -> bool:
        return token.lower() in self.names

    def has_amount(self, value: float) -> bool:
        """A number of the row (a JSON number, not a digit string such as a zip code) within a cent of ``value``."""
        if self._amounts is None:
            self._amounts = json_cents(self.values)
        return cents(value) in self._amounts

    def fields(self) -> dict[str, set[str]]:
        """Every key of the row, at any depth, with the folded string values it holds ("status": {"pending"})."""
        if self._fields is None:
            self._fields = {}
            _collect(self.values, None, self._fields)
        return self._fields


def _collect(value: object, key: str | None, out: dict[str, set[str]]) -> None:
    if isinstance(value, dict):
        for name, item in value.items():
            out.setdefault(name, set())
            _collect(item, name, out)
    elif isinstance(value, list):
        for item in value:
            _collect(item, key, out)
    elif isinstance(value, str) and key is not None:
        out[key].add(fold(value))


def json_cents(value: object) -> set[int]:
    """Every JSON number inside ``value`` (not a digit string such as a zip code), in cents. Walked with a stack:
    grounding reads every row each write leaves, and nested generators cost more than the walk."""
    found: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            found.add(cents(item))
    return found


def _nested_rows(value: object) -> Iterator[dict]:
    """Objects inside a row that are rows of their own, named by a ``*_number`` field (the flights of a
    reservation)."""
    for item in value.values() if isinstance(value, dict) else value if isinstance(value, list) else ():
        if isinstance(item, dict) and any(k.endswith("_number") and isinstance(v, str) for k, v in item.items()):
            yield item
        if isinstance(item, (dict, list)):
            yield from _nested_rows(item)


@lru_cache(maxsize=4096)  # the same result (a user's profile) comes back in every rollout of a task
def rows_of(content: str) -> tuple[Row, ...]:
    """The row a tool result is, then the rows inside it: a flight inside a reservation is read with it (its
    number, date and route were shown). Empty when the result is not one JSON object."""
    row = Row.parse(content)
    if row is None:
        return ()
    if "_number" not in content and "\\u" not in content:  # no key names a nested row (no escape could spell one)
        return (row,)
    return (row, *(Row(nested, orjson.dumps(nested).decode()) for nested in _nested_rows(row.values)))


class Seen:
    """What the conversation had shown up to some step: its text, searched as the checks need it."""

    def __init__(self) -> None:
        self._raw: list[str] = []  # as written: a reservation code is upper case
        self._raw_text: str | None = ""
        self._names: dict[str, list[str]] = {}  # names_in of the texts asked since the last step was added
        self.name_shapes: set[str] = set()  # shapes of the names of the rows read ("#A9999999", "AAAAAA")
        self._parts: list[str] = []
        self._rows: list[Row] = []  # every tool result that was one JSON object, in order
        self._text: str | None = ""
        self._folded: str | None = ""
        # What is shown now: user turns and tool results, less any row a later result showed again.
        self._current: list[tuple[tuple | None, str]] = []

    def add(self, step: TextObservation) -> None:
        self._raw.append(step.content)
        self._raw_text = None
        self._names.clear()
        self._parts.append(step.content.lower())
        self._text = self._folded = None
        identity, row = None, None
        if step.source == "tool":
            rows = rows_of(step.content)
            row = rows[0] if rows else None
            if row is not None:
                self._rows += rows
                identity = row.identity
                # A name of digits only (a product id) has the shape of an item id, which names no row.
                self.name_shapes |= {shape(value) for _, value in identity if not value.isdigit()}
            if identity:
                self._current = [part for part in self._current if part[0] != identity]
        self._current.append((identity, row.text if row is not None else fold(step.content)))

    def names_in(self, text: str) -> list[str]:
        """The row names a message uses: id-like tokens (``ids_in``), and tokens shaped like the name of a row
        that was read and shown verbatim before (airline reservations "JGJFJJ" and flights "ZA441" have too few
        digits to look like ids). Each check of a message asks for its clauses' names: read once per text."""
        if text not in self._names:
            shapes = self.name_shapes
            shaped = [t for t, its_shape in _shaped_names(text) if its_shape in shapes] if shapes else []
            if shaped and self._raw_text is None:
                self._raw_text = "\n".join(self._raw)
            shaped = [t for t in shaped if t in self._raw_text]
            self._names[text] = list(dict.fromkeys([*ids_in(text), *shaped]))
        return list(self._names[text])

    def is_row_name(self, token: str) -> bool:
        """Shaped like the name of a row that was read, and shown before (listed in a profile, at least)."""
        return shape(token) in self.name_shapes and self.has_text(token)

    def row_reads(self, token: str) -> list[Row]:
        """Every tool result that is the row of ``token`` (a JSON object with ``token`` among its own values: an
        order's details, not the profile that lists the order), latest first."""
        return [row for row in reversed(self._rows) if row.named(token)]

    def may_hold(self, row: Row, term: str) -> bool:
        """Whether ``row`` has a field that ``term`` is a value of in any row read ("regular" is a membership: a
        reservation has none); True when no read showed the term as a value."""
        fields = {key for read in self._rows for key, values in read.fields().items() if fold(term) in values}
        return not fields or bool(fields & row.fields().keys())

    def other_rows_like(self, rows: list[Row]) -> list[Row]:
        """Reads of other rows of the same kind as ``rows`` (other orders than this order)."""
        kinds = {row.kind for row in rows if row.identity}
        names = {row.identity for row in rows}
        return [row for row in self._rows if row.kind in kinds and row.identity not in names]

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = "\n".join(self._parts)
        return self._text

    def has_number(self, value: float, also: set[int] = frozenset()) -> bool:
        """Shown before (as text: 227.32, 227.320, 1,665.00, 1665.0, 1665), or among ``also`` (cents)."""
        return cents(value) in also or bool(number_pattern(value).search(self.text))

    def has_text(self, token: str) -> bool:
        return token.lower() in self.text

    def has_term(self, term: str, now: bool = False) -> bool:
        """Shown before; with ``now``, by a user turn or a result no later read of the same row superseded
        ("pending" from the order's first read no longer counts once its cancellation showed it cancelled)."""
        if now:
            return any(fold(term) in text for _, text in self._current)
        if self._folded is None:
            self._folded = fold(self.text)
        return fold(term) in self._folded


@lru_cache(maxsize=4096)
def number_pattern(value: float) -> re.Pattern:
    """The ways a number within a cent of ``value`` can be written, as a whole number (not part of another)."""
    whole, fraction = divmod(cents(abs(value)), 100)
    integer = f"(?:{whole}|{whole:,})"
    if fraction:
        decimals = f"\\.{fraction:02d}0*" if fraction % 10 else f"\\.{fraction // 10}0*"
        body = f"{integer}{decimals}"
    else:
        body = f"{integer}(?:\\.0+)?"
    return re.compile(rf"(?<![\d.,]){body}(?![\d]|[.,]\d)")


def cents(value: float) -> int:
    return round(value * 100)


def seen_before(trajectory: list) -> Iterator[tuple[int, Step, Seen]]:
    """Every agent message and tool call with what the user and the tools had shown before it (one live
    ``Seen``, updated as the walk goes on: use it before asking for the next step)."""
    seen = Seen()
    for index, step in enumerate(trajectory):
        if isinstance(step, TextObservation) and step.source in ("user", "tool"):
            seen.add(step)
        elif isinstance(step, (MessageAction, ApiAction)):
            yield index, step, seen
