"""Amounts and counts written in words: "fifty-four dollars and twenty cents", "three bags", "both items".

Number words become digits through text2num's ``alpha2digit`` (a maintained parser of English number words);
what it returns is read only for amounts and counts, never shown or matched as text ("the first one" becomes
"the 1st 1"). Money in words is "N dollars [and M cents]" or "M cents" after the conversion; money in digits is
read as verifiers/claims.py reads it ("$54.20", "USD 54.20", "54.20").
"""

from __future__ import annotations

import re
from functools import lru_cache

from text_to_num import alpha2digit

from verifiers.claims import amounts_in

_DOLLARS = re.compile(
    r"\b(\d[\d,]*(?:\.\d+)?)\s*(?:us\s*)?(?:dollars?|bucks|usd)\b(?:\s*(?:and\s*)?(\d{1,2})\s*cents?\b)?"
)
_CENTS = re.compile(r"(?<![\d.,])\b(\d{1,2})\s*cents?\b")
_INTEGER = re.compile(r"(?<![\d.,$])\b\d+(?:st|nd|rd|th)?\b(?![.,]\d)")
_WORD_COUNTS = {"both": 2, "single": 1, "a pair of": 2, "a couple of": 2}


@lru_cache(maxsize=8192)
def digits(text: str) -> str:
    """``text`` with its number words as digits (lower case)."""
    lowered = text.lower()
    if not re.search(r"[a-z]", lowered):
        return lowered
    try:
        return alpha2digit(lowered, "en", threshold=0)
    except Exception:  # a parser error on odd text leaves the words as they are
        return lowered


def amounts_said(text: str) -> list[float]:
    """Every amount of money ``text`` states, in digits or in words."""
    return list(_amounts_said(text))


@lru_cache(maxsize=8192)  # grounding, confirmations and the constraints read the same messages
def _amounts_said(text: str) -> tuple[float, ...]:
    converted = digits(text)
    found = list(amounts_in(text))
    for dollars, cents in _DOLLARS.findall(converted):
        value = float(dollars.replace(",", "")) + (int(cents) / 100 if cents else 0.0)
        found.append(round(value, 2))
    found += [int(cents) / 100 for cents in _CENTS.findall(_DOLLARS.sub(" ", converted))]
    return tuple(dict.fromkeys(found))


def numbers_said(text: str) -> set[int]:
    """Whole numbers ``text`` states (counts such as "three bags" or "2 items"; "both" is 2; "the 3rd bag" 3)."""
    converted = digits(text)
    found = {int(token.rstrip("stndrh")) for token in _INTEGER.findall(converted)}
    found |= {count for word, count in _WORD_COUNTS.items() if re.search(rf"\b{word}\b", converted)}
    return found
