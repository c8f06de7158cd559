"""What an agent's message states, and what the conversation had shown before it: the material of grounding.

A **claim** is something a reader could check against the record:

- an **amount**: a number written as money ("$227.32", "USD 227.32", "227.32", "$54"); compared within a
  cent, so 227.32 = USD 227.32 = $227.32 = 227.320;
- an **id**: a token with at least four digits or a leading ``#`` ("#W1234567", "credit_card_4421", a
  tracking number); compared case-insensitively as text;
- a **fact term**: one of the environment's categorical values (``fact_terms``: "processed", "gold"),
  unless negated or stated as a rule or a possibility: "not", "n't", "never", "no", "only", "unless",
  "if", "can", "will", ... among the six words before it in the same clause ("only pending orders can be
  cancelled", "it can be cancelled" state no status). A negated term is kept apart, so a check can ask whether it is
  asserted ("it is still pending") or denied ("it has not been processed").

What was **seen** before a step: the text of every earlier user turn and tool result (numbers and ids are
read from it the same way, plus every number inside JSON tool results).
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import orjson

from schemas.steps import MessageAction, TextObservation

CENT = 0.005
_MONEY = re.compile(r"(?:\$|\bUSD\s?)\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*\.\d{2})\b", re.IGNORECASE)
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_ID = re.compile(r"#?[A-Za-z0-9_]*\d[A-Za-z0-9_\-]*")
_NEGATIONS = frozenset({"not", "never", "no", "nor", "neither", "without"})
# Words that make what follows a rule or a possibility, not a statement of fact ("only pending orders can be
# cancelled", "it can be cancelled"): they hide a fact term from grounding, never a reason from a constraint.
_RULE_WORDS = frozenset({"only", "unless", "if", "can", "could", "will", "would", "may", "might", "must"})
_WORD = re.compile(r"[a-z']+")


def amounts_in(text: str) -> list[float]:
    """Numbers written as money in ``text``."""
    return [float((a or b).replace(",", "")) for a, b in _MONEY.findall(text)]


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
    """Id-like tokens: a leading ``#`` or at least four digits (dates, times and plain amounts excluded)."""
    found = []
    for token in _ID.findall(text):
        token = token.strip("-_")
        digits = sum(ch.isdigit() for ch in token)
        if token.startswith("#") and digits or digits >= 4 and not _looks_numeric(token):
            found.append(token)
    return found


def _looks_numeric(token: str) -> bool:
    """A date (2024-05-01), a time or a plain number: a fact of another kind, not an id."""
    return bool(re.fullmatch(r"[\d\-:,.]+", token))


def preceded_by_negation(text: str, start: int, rules: bool = False) -> bool:
    """A denial (or, with ``rules``, a rule word) among the six words before ``start`` in the same clause."""
    clause = re.split(r"[,;:.!?()]", text[max(0, start - 60) : start].lower())[-1]
    before = _WORD.findall(clause)[-6:]
    words = _NEGATIONS | _RULE_WORDS if rules else _NEGATIONS
    return any(word in words or word.endswith("n't") for word in before)


def fact_terms_in(text: str, terms: Iterable[str]) -> tuple[set[str], set[str]]:
    """(asserted, negated) fact terms of ``text``; a longer term hides the shorter ones inside it."""
    asserted: set[str] = set()
    negated: set[str] = set()
    lowered = fold(text)
    taken: list[tuple[int, int]] = []
    for term in sorted({fold(t) for t in terms}, key=len, reverse=True):
        for match in re.finditer(rf"(?<![\w-]){re.escape(term)}(?![\w-])", lowered):
            if any(a <= match.start() < b for a, b in taken):
                continue
            taken.append((match.start(), match.end()))
            (negated if preceded_by_negation(lowered, match.start(), rules=True) else asserted).add(term)
    return asserted, negated


def fold(text: str) -> str:
    """Lower case, underscores as spaces: "basic_economy" as stored is "basic economy" as said."""
    return text.lower().replace("_", " ")


def _json_numbers(value, out: list[float]) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        out.append(float(value))
    elif isinstance(value, dict):
        for item in value.values():
            _json_numbers(item, out)
    elif isinstance(value, list):
        for item in value:
            _json_numbers(item, out)


@dataclass
class Seen:
    """What the conversation had shown up to some step: text (lower-cased) and numbers."""

    text: str = ""
    numbers: list[float] = field(default_factory=list)
    tool_text: str = ""

    def add(self, step: TextObservation) -> None:
        lowered = step.content.lower()
        self.text += "\n" + lowered
        if step.source == "tool":
            self.tool_text += "\n" + lowered
            if step.content[:1] in "{[":
                with contextlib.suppress(orjson.JSONDecodeError):
                    _json_numbers(orjson.loads(step.content), self.numbers)
        self.numbers += numbers_in(step.content)

    def has_number(self, value: float) -> bool:
        return any(math.isclose(value, seen, abs_tol=CENT) for seen in self.numbers)

    def has_text(self, token: str) -> bool:
        return token.lower() in self.text

    def has_term(self, term: str) -> bool:
        return fold(term) in fold(self.text)


def seen_before(trajectory: list) -> list[tuple[int, MessageAction, Seen]]:
    """Every agent message with a copy of what the user and the tools had shown before it."""
    seen, out = Seen(), []
    for index, step in enumerate(trajectory):
        if isinstance(step, TextObservation) and step.source in ("user", "tool"):
            seen.add(step)
        elif isinstance(step, MessageAction):
            out.append((index, step, Seen(seen.text, list(seen.numbers), seen.tool_text)))
    return out
