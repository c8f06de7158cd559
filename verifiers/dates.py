"""Dates and times as people write them: "2025-06-04", "June 4", "4th of June 2025", "6/4", "the 4th", "5:30 pm".

A pattern finds where a date or a time is written; python-dateutil's parser (maintained, and fast enough to run
on every message: ~0.15 ms a span, cached) reads what it says. "The 4th" is a date only where no noun follows it
("the 4th bag" is a count). A date is (year or None, month or None, day): a
year or a month left out is unknown, not wrong ("the 4th" matches any date on a 4th). A time is (hour, minute)
on the 24-hour clock. Relative words ("tomorrow") and weekdays alone are not read.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

from dateutil import parser as dateutil_parser

Date = tuple[int | None, int | None, int]
Time = tuple[int, int]

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_ORDINAL = r"\d{1,2}(?:st|nd|rd|th)?"
# Each form starts with a digit, a month's first letter or the "t" of "the"; each time with a digit or the first
# letter of "noon" or "midnight": the lookahead lets the search skip every other position at once (half the cost
# over a JSON row).
_DATE = re.compile(
    r"(?=[\djfmasondt])(?:"
    rf"\b\d{{4}}-\d{{2}}-\d{{2}}(?=T|\b)"
    rf"|\b{_MONTH}\s+{_ORDINAL}\b(?:,?\s+\d{{4}}\b)?"
    rf"|\b(?:the\s+)?{_ORDINAL}\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}}\b)?"
    rf"|\b\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?\b"
    rf"|\bthe\s+\d{{1,2}}(?:st|nd|rd|th)\b(?=\s*(?:$|[,.;!?)]|at\b|of\b|and\b)))",
    re.IGNORECASE,
)
_TIME = re.compile(
    r"(?=[\dnm])(?:(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?(?![\w:])|\b\d{1,2}\s*[ap]\.?m\.?(?!\w)|\b(?:noon|midnight)\b)",
    re.IGNORECASE,
)
# Each form of _DATE holds one of these (a digit beside "-", "/", a word or a space), each digit form of _TIME one of
# the others: a text without any holds no date (no clock time), and the test costs a tenth of the full pattern over a
# tool result (a JSON row), where most have none. _TIME's words are looked for as text: "dn" and "ght" of
# "midnight" (IGNORECASE also matches a dotted or dotless i there, which lower() keeps apart).
_MAY_HOLD_DATE = re.compile(r"\d-\d\d-\d|\d/\d|[a-z.]\s+\d|\d(?:st|nd|rd|th)?\s+[a-z]", re.IGNORECASE)
_MAY_HOLD_CLOCK = re.compile(r"\d(?::\d|\s*[ap])", re.IGNORECASE)
_NO_YEAR, _NO_MONTH = 1900, 1  # dateutil's defaults where the text gives none: read back as unknown
_DEFAULTS = (datetime(_NO_YEAR, _NO_MONTH, 1), datetime(_NO_YEAR + 4, 12, 1))  # a leap year, another month


@lru_cache(maxsize=8192)
def dates_said(text: str) -> tuple[tuple[str, Date], ...]:
    """(span, date) of every date written in ``text``."""
    if not _MAY_HOLD_DATE.search(text):
        return ()
    found = []
    for match in _DATE.finditer(text):
        span = match.group(0)
        if span[:3] == "may":  # "you may 3 ..." is a verb; the month is written "May"
            continue
        date = _parse_date(span)
        if date is not None:
            found.append((span, date))
    return tuple(found)


@lru_cache(maxsize=8192)
def times_said(text: str) -> tuple[tuple[str, Time], ...]:
    """(span, time) of every clock time written in ``text`` (not the time part of a date-time stamp's seconds)."""
    if not _may_hold_time(text):
        return ()
    found = []
    for match in _TIME.finditer(text):
        span = match.group(0)
        lowered = span.lower()
        if lowered in ("noon", "midnight"):
            found.append((span, (12, 0) if lowered == "noon" else (0, 0)))
            continue
        moment = _parse_time(span)
        if moment is not None:
            found.append((span, moment))
    return tuple(found)


def _may_hold_time(text: str) -> bool:
    if _MAY_HOLD_CLOCK.search(text):
        return True
    lowered = text.lower()
    return "noon" in lowered or ("dn" in lowered and "ght" in lowered)


@lru_cache(maxsize=4096)
def _parse_time(span: str) -> Time | None:
    try:
        moment = dateutil_parser.parse(span.replace(".", ""), default=_DEFAULTS[0])
    except (ValueError, OverflowError):
        return None
    return (moment.hour, moment.minute)


_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


@lru_cache(maxsize=4096)  # the same spans ("2025-06-12", "June 4") come back in message after message
def _parse_date(span: str) -> Date | None:
    iso = _ISO.fullmatch(span)
    if iso:  # the commonest form, read without dateutil (its parse is ~0.15 ms, twice per span)
        try:
            day = datetime(*map(int, iso.groups()))
        except ValueError:
            return None
        return (day.year, day.month, day.day)
    cleaned = re.sub(r"^the\s+", "", span, flags=re.IGNORECASE)
    try:
        # Parsed twice with different defaults: a field that changes with the default was not in the text.
        first, second = (dateutil_parser.parse(cleaned, default=default) for default in _DEFAULTS)
    except (ValueError, OverflowError):
        return None
    year = first.year if first.year == second.year else None
    month = first.month if first.month == second.month else None
    return (year, month, first.day)


def same_date(said: Date, shown: Date) -> bool:
    """``said`` could be ``shown``: equal where both are known."""
    return all(a is None or b is None or a == b for a, b in zip(said, shown))
