"""Statements: what the agent tells the user beyond ids, amounts and status words, checked against what the
tools showed and what the writes did.

- **dates and times** in any common form (verifiers/dates.py) were shown before (a date without its year or
  month matches any shown date it could be); said in a clause with one flight number, they are that flight's
  (``misstated_date``, ``misstated_time``; ``ungrounded_date``, ``ungrounded_time`` when shown nowhere);
- **legs**: "outbound", "return" (and their synonyms) said with a flight or a date of a round trip read before
  name the leg it is on (``misstated_leg``);
- **counts**: "3 items", "two bags", "both passengers" are counts the tools or the writes showed, and in a clause
  about a write the count of that write (``misstated_count``);
- **items**: a product said with options ("the 18l green Backpack") is an item or variant that was shown, and
  what the user receives from an exchange or change is its new item (``misstated_item``);
- **payment methods**: the method said to have paid a row is one that paid it; the method money is said to go
  to or come from is one the writes moved money with (``misstated_payment``); "free", "no extra cost" when a
  write charged the user (``misstated_free``);
- **hedges**: a fact a tool showed, said as a guess ("either processed or delivered", "probably delivered")
  (``hedged_fact``);
- **reasons**: a cause no tool or rule supports (an outage, a system error, insurance the booking does not
  have or lacks, a flight "already departed" that has not) (``invented_reason``);
- **done**: an action the agent says it did ("I've opened a refund review", "I updated your profile address",
  "I'm transferring you") is a write, or a transfer, that succeeded (``claimed_undone``);
- **goals**: each refusal the task asks for is said ("I cannot ...", "that is not possible") (``refusal_unsaid``).

Score: 1 / (1 + problems). Evidence: ``problems``, up to MAX_EVIDENCE of {step, kind, value}.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from schemas.record import VerifierResult
from schemas.steps import ApiAction, MessageAction, TextObservation
from verifiers.amount_words import digits
from verifiers.base import CheckContext, RecordVerifier
from verifiers.claims import (
    BRACKET,
    CLAUSE_COMMA,
    NEGATIONS,
    WORD,
    clauses_around_brackets,
    fold,
    hedged,
    preceded_by_negation,
    row_clauses,
    unbracketed,
)
from verifiers.confirmations import Catalogue, catalogue_of, proposed_tools, tool_values
from verifiers.dates import Date, Time, dates_said, same_date, times_said

MAX_EVIDENCE = 10
TRANSFER_TOOL = "transfer_to_human_agents"
_SENTENCE = re.compile(r"[;\n]|(?<=[.!?])\s+")
_CLAUSE = re.compile(rf"[;\n]|:(?=\s)|{CLAUSE_COMMA}|(?<=[.!?])\s+|\s+(?:and|but)\s+(?=(?:i|you|your|it|the|we)\b)")
_FLIGHT = re.compile(r"\b[A-Z]{2}\d{2,4}\b")
_OUTBOUND = re.compile(r"\b(?:outbound|outgoing|departing|going|first leg|way there|there)\b", re.I)
_RETURN = re.compile(
    r"\b(?:return(?:ing)? (?:flight|leg|trip)|inbound|coming back|way back|second leg|back home)\b", re.I
)
_COUNTED = {
    "items": r"items?|products?|articles?",
    "bags": r"(?:checked |checked-in )?(?:bags?|baggages?|suitcases?|pieces of luggage)",
    "paid bags": r"(?:paid|extra|chargeable|non-?free) (?:checked )?(?:bags?|baggages?|suitcases?)",
    "passengers": r"passengers?|travell?ers?|people|persons",
    "flights": r"flights?|legs?|segments?",
}
_PAID = re.compile(r"\b(?:paid|payed|was charged|were charged|charged it)\b(?![^.]{0,12}\bmore\b)", re.I)
_BACK = re.compile(
    r"\b(?:refund\w*|credited|back (?:to|on|onto|in)|goes (?:back )?to|go (?:back )?to|sent to|returned to)\b", re.I
)
_TAKEN = re.compile(
    r"\b(?:charg\w*|debit\w*|deduct\w*|pay (?:from|with|by|using|via)|come[s]? (?:out )?of|taken from)\b", re.I
)
_FREE = re.compile(
    r"\b(?:(?:is|are|be|it'?s|for) free\b(?! \w)|free of charge|no (?:extra |additional )?(?:cost|charge|fee)s?|at no (?:extra |additional )?"
    r"(?:cost|charge)|nothing extra|(?:won'?t|will not|doesn'?t|does not) cost (?:you )?(?:anything|a (?:thing|"
    r"cent|penny))|costs? (?:you )?nothing|complimentary|without (?:any )?(?:extra |additional )?(?:cost|charge))\b",
    re.I,
)
_ALLOWANCE = re.compile(
    r"\b(?:first|one|1|two|2|three|3)\b[^.]{0,20}\bbags?\b|\bbags?\b[^.]{0,20}\ballowance|\b\d+ free\b|"
    r"\bfree (?:checked )?bags?\b|\ballowance\b",
    re.I,
)
_EXCUSE = re.compile(
    r"\b(?:outage|system (?:is )?(?:down|error|issue|problem|failure)|technical (?:issue|difficult|problem|error)|"
    r"glitch|maintenance|server (?:issue|problem|error|is down)|(?:our|the) system (?:won'?t|doesn'?t|can'?t|cannot|"
    r"does not|is not|isn'?t) (?:let|allow|work|respond|available))",
    re.I,
)
_DEPARTED = re.compile(
    r"\b(?:already (?:departed|left|flown|taken off|took off|in the air)|has (?:departed|taken off|already left)|"
    r"(?:is|are) (?:already )?in the air|already (?:happened|over|done|used))\b",
    re.I,
)
_INSURED = re.compile(r"\b(?:insurance|insured)\b", re.I)
_NO_INSURANCE = re.compile(
    r"\b(?:no|not|without|n'?t|lacks?|none)\b[^.]{0,30}\b(?:insurance|insured)\b|\b(?:uninsured|insurance"
    r"[^.]{0,20}\b(?:not|wasn'?t|isn'?t)\b)",
    re.I,
)
# "I've cancelled", "I have gone ahead and opened", "has now been updated", "is now cancelled", "I'm transferring you"
_DONE = re.compile(
    r"\b(?:i'?ve|i have|i'?ve now|we'?ve|we have|i just|i've just|i already|i)\s+(?:also\s+|just\s+|now\s+|already\s+"
    r"|successfully\s+|gone ahead and\s+|went ahead and\s+)*(?P<mine>\w*[^\We]ed|sent|made|put|set up|issued|opened|filed)\b"
    r"|\b(?:has|have) (?:now |just |successfully )+been (?P<passive>\w*[^\We]ed|sent|made|put|issued)\b"
    r"|\b(?:is|are) now (?P<now>\w*[^\We]ed)\b",
    re.I,
)
_READ_VERBS = frozenset(
    [
        "checked",
        "looked",
        "found",
        "verified",
        "confirmed",
        "reviewed",
        "pulled",
        "noted",
        "located",
        "searched",
        "listed",
        "compared",
        "calculated",
        "asked",
        "understood",
        "received",
        "seen",
        "noticed",
        "retrieved",
        "fetched",
        "read",
        "opened_up",
        "double-checked",
    ]
)
_TRANSFER_CLAIM = re.compile(
    r"\b(?:i'?m|i am|i'?ve|i have|i will|i'?ll|now) (?:now )?(?:transferr\w*|connect\w*|hand\w* you)\b|"
    r"\btransferred to a human\b",
    re.I,
)
_REFUSES = re.compile(
    r"\bno (?:\w+ ){0,2}(?:i|we) can (?:give|offer|do|provide|make)\b|\bnothing (?:i|we) can\b|"
    r"\b(?:doesn'?t|don'?t|does not|do not|not) (?:qualify|apply)\b|\bnot entitled\b|"
    r"\b(?:can ?not|can'?t|cannot|unable|not able|not possible|isn'?t possible|impossible|not allowed|isn'?t allowed|"
    r"won'?t be able|no way to|not eligible|isn'?t eligible|ineligible|doesn'?t allow|does not allow|don'?t allow|"
    r"not permitted|afraid not|have to decline|must decline|not something i can)\b",
    re.I,
)
_RECEIVE = re.compile(
    r"\b(?:receive|get|getting|new one|new item|replacement|now (?:has|have)|becomes?|instead)\b", re.I
)


@dataclass
class _Shown:
    """What the user and the tools showed up to a step, in the forms the checks compare."""

    dates: list[Date] = field(default_factory=list)
    times: list[Time] = field(default_factory=list)
    flights: dict[str, dict[str, set]] = field(default_factory=dict)  # number: {"dates", "times"}
    legs: dict[tuple[str, str], str] = field(default_factory=dict)  # (flight, ISO date): "outbound" | "return"
    counts: dict[str, set[int]] = field(default_factory=lambda: {kind: set() for kind in _COUNTED})
    row_counts: dict[str, dict[str, set[int]]] = field(default_factory=dict)  # order or reservation: its counts
    payers: dict[str, set[str]] = field(default_factory=dict)  # order or reservation id: methods that paid it
    catalogue: Catalogue = field(default_factory=Catalogue)
    terms_of_rows: set[str] = field(default_factory=set)  # folded field values of every row read
    said_numbers: set[int] = field(default_factory=set)  # small numbers the user said: counts of anything
    insurance: dict[str, bool] = field(default_factory=dict)  # reservation id: whether it has travel insurance
    durations: set[str] = field(default_factory=set)  # "24 hour", "7 day": time limits the policy or a turn named
    # The user turns and tool results taken in, (text, by the user), and how many of them have been read for the
    # dates, the times and the words (time limits, the user's numbers) above: most messages state none of these, and
    # a date or time stated was mostly shown early, so the texts are read when a check asks, as far as it needs.
    texts: list[tuple[str, bool]] = field(default_factory=list)
    read_up_to: dict[str, int] = field(default_factory=lambda: {"dates": 0, "times": 0, "words": 0})

    def add_text(self, text: str, by_user: bool) -> None:
        self.texts.append((text, by_user))

    def shows_date(self, date: Date) -> bool:
        """A text taken in showed a date ``date`` could be."""
        if any(same_date(date, seen) for seen in self.dates):
            return True
        for text, _ in self._unread("dates"):
            said = [seen for _, seen in dates_said(text)]
            self.dates += said
            if any(same_date(date, seen) for seen in said):
                return True
        return False

    def shows_time(self, time: Time) -> bool:
        if time in self.times:
            return True
        for text, _ in self._unread("times"):
            said = [seen for _, seen in times_said(text)]
            self.times += said
            if time in said:
                return True
        return False

    def read_words(self) -> _Shown:
        """Itself, with every text taken in read for time limits and (the user's) numbers."""
        for text, by_user in self._unread("words"):
            if text[:1] not in "{[":  # time limits are said in words, not stored in rows
                self.durations |= _durations(text)
            if by_user:
                self.said_numbers |= _numbers(text)
        return self

    def _unread(self, what: str) -> Iterator[tuple[str, bool]]:
        """The texts not yet read for ``what``, each counted as read when handed out."""
        while self.read_up_to[what] < len(self.texts):
            self.read_up_to[what] += 1
            yield self.texts[self.read_up_to[what] - 1]

    def add_value(self, content: str, value: Any) -> None:
        self.merge(_summary(content, value))

    def merge(self, other: _Shown) -> None:
        """Take in what another _Shown holds (what one tool result showed)."""
        self.dates += other.dates
        self.times += other.times
        for number, entry in other.flights.items():
            mine = self.flights.setdefault(number, {"dates": set(), "times": set()})
            mine["dates"] |= entry["dates"]
            mine["times"] |= entry["times"]
        self.legs.update(other.legs)
        for kind, values in other.counts.items():
            self.counts[kind] |= values
        for row, counts in other.row_counts.items():
            mine = self.row_counts.setdefault(row, {kind: set() for kind in _COUNTED})
            for kind, values in counts.items():
                mine[kind] |= values
        for row, methods in other.payers.items():
            self.payers.setdefault(row, set()).update(methods)
        self.terms_of_rows |= other.terms_of_rows
        self.insurance.update(other.insurance)


_SUMMARIES: dict[str, _Shown] = {}
_MAX_SUMMARIES = 4096


def _summary(content: str, value: Any) -> _Shown:
    """What one tool result shows, walked once per distinct result (the same profile comes back in every rollout
    of a task): read only, merged into a conversation's _Shown."""
    summary = _SUMMARIES.get(content)
    if summary is None:
        if len(_SUMMARIES) >= _MAX_SUMMARIES:
            _SUMMARIES.clear()
        summary = _SUMMARIES[content] = _Shown()
        _walk(value, summary)
    return summary


@lru_cache(maxsize=4096)
def _durations(text: str) -> frozenset[str]:
    """Time limits in ``text``: "24 hours" as "24 hour", "5-7 business days" as "5 day" and "7 day"."""
    converted = re.sub(r"(\d+)\s*-\s*(\d+)", r"\1 days \2", digits(text))
    return frozenset(f"{n} {unit.rstrip('s')}" for n, unit in _DURATION.findall(converted))


@lru_cache(maxsize=8192)  # a user's turn comes back in every rollout of its task
def _numbers(text: str) -> frozenset[int]:
    return frozenset({int(n) for n in re.findall(r"(?<![\d.])\d{1,2}(?![\d.])", digits(text))})


def _walk(value: Any, shown: _Shown) -> None:
    if isinstance(value, list):
        for item in value:
            _walk(item, shown)
        return
    if not isinstance(value, dict):
        return
    number, date = value.get("flight_number"), value.get("date")
    if isinstance(number, str):
        entry = shown.flights.setdefault(number, {"dates": set(), "times": set()})
        if isinstance(date, str):
            entry["dates"].add(date)
        for key, item in value.items():
            if isinstance(item, str) and ("time" in key or key in ("departure", "arrival")):
                entry["times"] |= {time for _, time in times_said(item)}
    flights = value.get("flights")
    if isinstance(flights, list) and value.get("origin") and value.get("destination"):
        outbound = True
        for flight in flights:
            if isinstance(flight, dict) and isinstance(flight.get("flight_number"), str):
                shown.legs[(flight["flight_number"], str(flight.get("date")))] = "outbound" if outbound else "return"
                if flight.get("destination") == value["destination"]:
                    outbound = False
    row_id = value.get("order_id") or value.get("reservation_id")
    own = shown.row_counts.setdefault(row_id, {k: set() for k in _COUNTED}) if isinstance(row_id, str) else None
    for key, kind in (("items", "items"), ("item_ids", "items"), ("passengers", "passengers"), ("flights", "flights")):
        if isinstance(value.get(key), list):
            shown.counts[kind].add(len(value[key]))
            if own is not None:
                own[kind].add(len(value[key]))
    for key, kind in (("total_baggages", "bags"), ("nonfree_baggages", "paid bags")):
        if isinstance(value.get(key), int):
            shown.counts[kind].add(value[key])
            if own is not None:
                own[kind].add(value[key])
    if isinstance(value.get("reservation_id"), str) and isinstance(value.get("insurance"), (bool, str)):
        shown.insurance[value["reservation_id"]] = value["insurance"] in (True, "yes")
    row = value.get("order_id") or value.get("reservation_id")
    history = value.get("payment_history")
    if isinstance(row, str) and isinstance(history, list):
        shown.payers.setdefault(row, set()).update(
            str(entry.get("payment_method_id") or entry.get("payment_id"))
            for entry in history
            if isinstance(entry, dict) and (entry.get("payment_method_id") or entry.get("payment_id"))
        )
    for key, item in value.items():
        if isinstance(item, str) and not key.endswith("_id"):
            shown.terms_of_rows.add(fold(item))
        elif isinstance(item, (dict, list)):
            _walk(item, shown)


@dataclass
class _Writes:
    """What the successful writes did, in the forms the checks compare."""

    tools: set[str] = field(default_factory=set)
    refunded: set[str] = field(default_factory=set)  # payment methods money went back to
    paid_with: set[str] = field(default_factory=set)  # payment methods money was taken from
    charged_by: set[str] = field(default_factory=set)  # the writes that took money from the user
    first: int | None = None  # the step of the first successful write: what comes before is a plan
    counts: dict[str, set[int]] = field(default_factory=lambda: {kind: set() for kind in _COUNTED})
    by_tool: dict[str, dict[str, set[int]]] = field(default_factory=dict)  # tool: its counts
    row_counts: dict[str, dict[str, set[int]]] = field(default_factory=dict)  # the row a write acts on: its counts
    new_items: list[tuple[str, str]] = field(default_factory=list)  # (old item, new item) of exchanges, changes


def _writes(ctx: CheckContext) -> _Writes:
    done = _Writes()
    for entry in ctx.write_log:
        if entry.get("access") != "write" or not entry.get("ok"):
            continue
        tool, arguments = entry["tool"], entry.get("arguments") or {}
        done.tools.add(tool)
        done.first = entry["step"] if done.first is None else done.first
        counts = done.by_tool.setdefault(tool, {kind: set() for kind in _COUNTED})
        for key, kind in (("item_ids", "items"), ("passengers", "passengers"), ("flights", "flights")):
            if isinstance(arguments.get(key), list):
                counts[kind].add(len(arguments[key]))
        if isinstance(arguments.get("total_baggages"), int):
            counts["bags"].add(arguments["total_baggages"])
        done.new_items += list(zip(arguments.get("item_ids") or [], arguments.get("new_item_ids") or []))
        row = arguments.get("order_id") or arguments.get("reservation_id")
        if isinstance(row, str):
            for kind, values in counts.items():
                done.row_counts.setdefault(row, {k: set() for k in _COUNTED})[kind] |= values
        for kind, values in counts.items():
            done.counts[kind] |= values
        for before, after in (entry.get("rows") or {}).values():
            if _money_of(before, after, done):
                done.charged_by.add(tool)
    return done


def _money_of(before: Any, after: Any, done: _Writes) -> bool:
    """Payment methods a write moved money with (added to ``done``), and whether it charged the user: new
    payment entries (kind "payment" or a positive amount), a price difference to pay, a balance that went down."""
    if not isinstance(after, dict):
        return False
    charged = False
    before = before if isinstance(before, dict) else {}
    old = before.get("payment_history") if isinstance(before.get("payment_history"), list) else []
    new = after.get("payment_history") if isinstance(after.get("payment_history"), list) else []
    for entry in new[len(old) :]:
        if not isinstance(entry, dict):
            continue
        method, amount = entry.get("payment_method_id") or entry.get("payment_id"), entry.get("amount")
        paid = entry.get("kind") == "payment" or (
            entry.get("kind") is None and isinstance(amount, (int, float)) and amount > 0
        )
        if method:
            (done.paid_with if paid else done.refunded).add(str(method))
        charged = charged or paid
    difference = after.get("exchange_price_difference")
    if isinstance(after.get("exchange_payment_method_id"), str) and isinstance(difference, (int, float)):
        (done.paid_with if difference > 0 else done.refunded).add(after["exchange_payment_method_id"])
        charged = charged or difference > 0
    if isinstance(after.get("return_payment_method_id"), str):
        done.refunded.add(after["return_payment_method_id"])
    methods_before = before.get("payment_methods") if isinstance(before.get("payment_methods"), dict) else {}
    for mid, method in (after.get("payment_methods") or {}).items():
        was = methods_before.get(mid) or {}
        for key in ("balance", "amount"):
            now, then = (method or {}).get(key), was.get(key)
            if isinstance(now, (int, float)) and now != then:
                lower = isinstance(then, (int, float)) and now < then
                (done.paid_with if lower else done.refunded).add(mid)
                charged = charged or lower
    return charged


class StatementsVerifier(RecordVerifier):
    name = "statements"
    version = "3"
    needs_env = True

    def check(self, ctx: CheckContext) -> VerifierResult:
        env = ctx.initial_env
        terms = tuple(getattr(env, "fact_terms", ()))
        words = dict(getattr(env, "action_words", {}) or {})
        done = _writes(ctx)
        transferred = any(
            isinstance(step, ApiAction) and step.function == TRANSFER_TOOL for step in ctx.record.trajectory
        )
        shown = _Shown(catalogue=catalogue_of(ctx))
        shown.durations |= _durations(getattr(env, "policy", "") or "")
        values = dict(tool_values(ctx))
        products = _products(shown.catalogue)
        problems: list[dict] = []
        messages: list[str] = []
        for index, step in enumerate(ctx.record.trajectory):
            if isinstance(step, TextObservation) and step.source in ("user", "tool"):
                shown.add_text(step.content, step.source == "user")
                if index in values:
                    shown.add_value(step.content, values[index])
            elif isinstance(step, MessageAction):
                messages.append(step.content)
                found: list[tuple[str, Any]] = []
                # Before any write, where money will go is a plan: the consent check compares it with the write.
                reported = done.first is not None and index > done.first
                about = proposed_tools(step.content, words) & done.tools
                for sentence in _SENTENCE.split(step.content):
                    if sentence.strip().endswith("?"):  # a question states nothing
                        continue
                    found += (
                        _dates(sentence, shown)
                        + _legs(sentence, shown)
                        + _counts(sentence, shown, done, words, reported)
                    )
                    found += _items(sentence, shown, done, products) + _payments(sentence, shown, done, reported, about)
                    found += [*_hedges(sentence, terms), *_reasons(sentence, shown)]
                    found += _claims(sentence, done, words, transferred)
                problems += [{"step": index, "kind": kind, "value": value} for kind, value in found]
        problems += [{"step": None, "kind": "refusal_unsaid", "value": g} for g in _unsaid(ctx, messages)]
        reasons = list(dict.fromkeys(p["kind"] for p in problems))
        return self.result(
            not problems,
            score=1.0 / (1 + len(problems)),
            reasons=reasons,
            evidence={"problems": problems[:MAX_EVIDENCE]},
        )


@lru_cache(maxsize=16384)  # dates, legs and payments each split the same sentence
def _clauses(sentence: str) -> tuple[str, ...]:
    return tuple(clause for clause in _CLAUSE.split(sentence) if clause.strip())


@lru_cache(maxsize=16384)
def _date_scopes(sentence: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Where dates and times are said, each with the flights they may be of: each clause outside its brackets
    (its flights), and each part of a bracket (its flights, else the flight named just before the bracket):
    "JCKJHC (ZA373, June 15) and EFKHKH (ZA203 out June 19, ZA618 back June 20)" says June 19 of ZA203 and
    June 20 of ZA618, and June 15 of no flight in particular."""
    scopes: list[tuple[str, tuple[str, ...]]] = []
    for clause in (c for c in clauses_around_brackets(sentence, _CLAUSE) if c.strip()):
        outside = unbracketed(clause)
        scopes.append((outside, tuple(_FLIGHT.findall(outside))))
        for bracket in BRACKET.finditer(clause):
            before = tuple(_FLIGHT.findall(unbracketed(clause[: bracket.start()]))[-1:])
            for part in re.split(rf";|{CLAUSE_COMMA}", bracket.group(1)):
                scopes.append((part, tuple(_FLIGHT.findall(part)) or before))
    return tuple(scopes)


def _dates(sentence: str, shown: _Shown) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for clause, named in _date_scopes(sentence):
        flights = [f for f in dict.fromkeys(named) if f in shown.flights]
        own = shown.flights[flights[0]] if len(flights) == 1 else None
        for span, date in dates_said(clause):
            if preceded_by_negation(clause, clause.find(span)):  # "I can't move it to June 17" states no date
                continue
            if not shown.shows_date(date):
                found.append(("ungrounded_date", span))
            elif own and own["dates"] and not any(same_date(date, _iso(d)) for d in own["dates"]):
                found.append(("misstated_date", f"{flights[0]}: {span}"))
        for span, time in times_said(clause):
            if not shown.shows_time(time):
                found.append(("ungrounded_time", span))
            elif own and own["times"] and time not in own["times"]:
                found.append(("misstated_time", f"{flights[0]}: {span}"))
    return found


def _iso(text: str) -> Date:
    said = dates_said(text)
    return said[0][1] if said else (None, None, 0)


def _legs(sentence: str, shown: _Shown) -> list[tuple[str, Any]]:
    if "return" not in shown.legs.values():
        return []
    found: list[tuple[str, Any]] = []
    for clause in _clauses(sentence):
        outbound, back = bool(_OUTBOUND.search(clause)), bool(_RETURN.search(clause))
        if outbound == back:
            continue
        leg = "outbound" if outbound else "return"
        flights = set(_FLIGHT.findall(clause))
        dates = [date for _, date in dates_said(clause)]
        for (number, day), its_leg in shown.legs.items():
            named = number in flights or any(same_date(date, _iso(day)) for date in dates)
            if (
                named
                and its_leg != leg
                and not any(
                    other == leg and (n in flights or any(same_date(d, _iso(dd)) for d in dates))
                    for (n, dd), other in shown.legs.items()
                )
            ):
                found.append(("misstated_leg", f"{number} {day} is the {its_leg} leg"))
    return found


def _counts(
    sentence: str, shown: _Shown, done: _Writes, words: dict[str, tuple[str, ...]], reported: bool
) -> list[tuple[str, Any]]:
    """A count said of a row named in its clause is that row's (as read, or as a write left it); said of a write
    the clause is about, that write's; otherwise one the tools, the writes or the user showed."""
    found: list[tuple[str, Any]] = []
    for clause in row_clauses(sentence):
        counted = _counted(clause)
        if not counted:
            continue
        rows = [row for row in shown.row_counts if row.lower() in clause.lower()]
        # before any write, "4 bags now" is the row as it is; after one, "now" is what a write left
        talks = _WRITE_TALK.search(clause) or (reported and (_NOW.search(clause) or not _BEFORE.search(clause)))
        about = proposed_tools(clause, words) & set(done.by_tool) if talks else set()
        for kind, count, qualifier in counted:
            if kind == "bags" and qualifier in _PAID_BAGS:  # "2 paid bags" are counted as paid bags
                continue
            if rows:
                own = set().union(
                    *(shown.row_counts[row][kind] | done.row_counts.get(row, {}).get(kind, set()) for row in rows)
                )
            else:
                own = set().union(*(done.by_tool[tool][kind] for tool in about)) if about else set()
            # "two more bags": the difference between the count a write set and one shown before
            own |= {abs(a - b) for a in own for b in shown.counts[kind]} if _MORE.search(clause) else set()
            allowed = own or (shown.counts[kind] | done.counts[kind] | shown.read_words().said_numbers)
            allowance = kind == "bags" and count <= 3 and (not own or _FREE_BAGS.search(clause))
            if count not in allowed and not allowance:
                found.append(("misstated_count", f"{count} {kind}"))
    return found


# What every noun of _COUNTED holds.
_COUNT_NOUN = re.compile(r"item|product|article|bag|suitcase|luggage|passenger|travel|people|person|flight|leg|segment")
_COUNT_PATTERNS = tuple(
    (kind, re.compile(rf"(?<![$\d.,])\b(\d{{1,2}})\s+(?:([a-z-]+)\s+)?(?:{nouns})\b"))
    for kind, nouns in _COUNTED.items()
)


@lru_cache(maxsize=16384)  # most clauses count nothing; the rollouts of a task repeat most messages
def _counted(clause: str) -> tuple[tuple[str, int, str | None], ...]:
    """(kind, count, the word before the noun) of every count ``clause`` says ("2 paid bags": bags, 2, "paid")."""
    if not _COUNT_NOUN.search(clause.lower()):  # no noun of a count: the number words need no reading
        return ()
    converted = digits(clause).replace("both", "2")
    return tuple(
        (kind, int(match.group(1)), match.group(2))
        for kind, pattern in _COUNT_PATTERNS
        for match in pattern.finditer(converted)
    )


_MORE = re.compile(r"\b(?:more|additional|extra|another|new|added|adds?|adding)\b", re.I)
_PAID_BAGS = frozenset({"paid", "extra", "chargeable", "non-free", "nonfree"})
# A clause that talks of what a write does or did ("set to 4 bags", "will be"; "now has" once one is done), not
# of the row as read.
_BEFORE = re.compile(r"\b(?:had|was|were|before|previously|used to|originally|already)\b", re.I)
_WRITE_TALK = re.compile(
    r"\b(?:new|will|i'?ll|going to|set (?:it )?to|becomes?|after|in total|total of|done|added|updated)\b", re.I
)
_NOW = re.compile(r"\bnow\b", re.I)
_FREE_BAGS = re.compile(r"\b(?:free|included|includes|allowance|allowed|complimentary)\b", re.I)
_SEGMENT = re.compile(
    r"->|→|=>|[,;]|\b(?:and|or|for|to|into|instead of|replaced by|replac(?:es|ing)|becomes?|in place of|versus|vs)\b"
)


def _products(catalogue: Catalogue) -> dict[str, list[dict[str, str]]]:
    """{folded product name: the options of each of its items, in item order}: built once per record, asked of
    every sentence (a product's many variants share one name)."""
    products: dict[str, list[dict[str, str]]] = {}
    for name, options in catalogue.items.values():
        if name:
            products.setdefault(fold(name), []).append(options)
    return products


def _items(
    sentence: str, shown: _Shown, done: _Writes, every: dict[str, list[dict[str, str]]]
) -> list[tuple[str, Any]]:
    """``every``: the catalogue's ``_products``."""
    catalogue = shown.catalogue
    lowered = fold(sentence)
    products = {name: variants for name, variants in every.items() if name in lowered}
    if not products:
        return []
    found: list[tuple[str, Any]] = []
    for name, variants in products.items():
        vocabulary = {value for options in variants for value in options.values() if not value.isdigit()}
        for segment in _SEGMENT.split(lowered):
            said = {value for value in vocabulary if _word(segment, value)}
            denies = any(word in NEGATIONS or word.endswith("n't") for word in WORD.findall(segment))
            if len(said) > 1 and not denies and not any(said <= set(options.values()) for options in variants):
                found.append(("misstated_item", f"{name}: {', '.join(sorted(said))}"))
            elif said and _RECEIVE.search(segment):
                swaps = [(old, new) for old, new in done.new_items if fold(catalogue.items.get(new, ("",))[0]) == name]
                allowed = {
                    v
                    for old, new in swaps
                    for item in (old, new)
                    for v in catalogue.items.get(item, ("", {}))[1].values()
                }
                if swaps and not said <= allowed:
                    found.append(("misstated_item", f"{name}: {', '.join(sorted(said - allowed))}"))
    return found


def _word(text: str, value: str) -> bool:
    return bool(re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text))


def _payments(sentence: str, shown: _Shown, done: _Writes, reported: bool, about: set[str]) -> list[tuple[str, Any]]:
    """Payment methods said to pay or get money, and "free" said where money was charged: by the writes the
    message is ``about`` (those it names) when it names any, else by any write ("No charge." in a confirmation of
    a passenger change is true when only a later cabin change charged)."""
    catalogue, lowered = shown.catalogue, fold(sentence)
    charged = bool(about & done.charged_by) if about else bool(done.charged_by)
    rows = [row for row in shown.payers if row.lower() in lowered]
    found: list[tuple[str, Any]] = []
    for clause in _clauses(lowered):
        hint, free = _payment_words(clause)
        names_any = hint or any(m.lower() in clause for m in catalogue.methods)
        named = {m for m in catalogue.methods if catalogue.names_method(clause, m)} if names_any else set()
        if free and charged:
            found.append(("misstated_free", clause.strip()[:80]))
        if not named or len(named) == len(catalogue.methods) > 1:  # no method named, or "card" of a wallet of cards
            continue
        back = any(not preceded_by_negation(clause, m.start()) for m in _BACK.finditer(clause))
        taken = any(not preceded_by_negation(clause, m.start()) for m in _TAKEN.finditer(clause))
        moved = (done.refunded if back else set()) | (done.paid_with if taken else set())
        if (back or taken) and reported and (done.refunded | done.paid_with):
            # a rule or an offer ("a refund can only go to ...", "I can send it to PayPal if ...") reports nothing
            if not named & moved and not _CONDITIONAL.search(clause) and not _ONLY_RULE.search(clause):
                found.append(("misstated_payment", clause.strip()[:80]))
        elif (_PAID.search(clause) or taken) and not _PLAN.search(clause) and rows:
            # what paid a row the sentence names ("GECBAE cost $960.00, charged to your Mastercard") is its payer
            payers = set().union(*(shown.payers[row] for row in rows))
            if payers and not named & (payers | done.paid_with):
                found.append(("misstated_payment", clause.strip()[:80]))
    return found


@lru_cache(maxsize=16384)  # the words are the clause's; the methods and charges they meet are the record's
def _payment_words(clause: str) -> tuple[bool, bool]:
    """Whether ``clause`` has a word that names a payment method, and whether it says "free" of this case (not of
    an allowance, nor under a condition)."""
    free = bool(_FREE.search(clause)) and not _ALLOWANCE.search(clause) and not _CONDITIONAL.search(clause)
    return bool(_METHOD_HINT.search(clause)), free


_CONDITIONAL = re.compile(r"\b(?:if|unless|would|could|whether)\b")
_ONLY_RULE = re.compile(r"\b(?:only|must|policy|allowed)\b|\bcan(?:not|'?t)?\b(?! see\b)")
# Words without which a clause names no payment method (a kind, a brand, "ending in", the original method).
_METHOD_HINT = re.compile(
    r"\b(?:card|gift|paypal|pay pal|certificate|voucher|visa|mastercard|amex|american express|discover|"
    r"ending|original|method|account|\d{4})\b"
)
_PLAN = re.compile(r"\b(?:if|unless|would|could|will|shall|going to|i'?ll|you'?ll)\b")
_RULE = re.compile(
    r"\b(?:only|unless|if|can|could|may|must|cannot|can'?t|allowed|policy|usually|typically|generally|normally)\b"
)


@lru_cache(maxsize=8192)  # a guess is in the words alone; the rollouts of a task repeat most sentences
def _hedges(sentence: str, terms: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    lowered = fold(sentence)
    if not terms or _RULE.search(lowered):
        return ()
    for match in _terms_pattern(terms).finditer(lowered):
        # "not delayed or cancelled" denies both; "delayed or cancelled" guesses
        if hedged(lowered, match.start(), match.end(), terms) and not preceded_by_negation(lowered, match.start()):
            return (("hedged_fact", match.group(0)),)
    return ()


_DURATION = re.compile(
    r"\b(\d{1,3})(?:-|\s+)(?:business\s+|calendar\s+)?(minutes?|hours?|days?|weeks?|months?)\b", re.I
)
# What every unit of _DURATION holds, looked for before the number words are read (no "i": IGNORECASE matches a
# dotted or dotless one, which lower() keeps apart).
_UNIT = re.compile(r"nute|hour|day|week|month")


@lru_cache(maxsize=16)
def _terms_pattern(terms: tuple[str, ...]) -> re.Pattern:
    alternatives = "|".join(re.escape(fold(t)) for t in sorted(terms, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def _reasons(sentence: str, shown: _Shown) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    durations, excuse, departed, insurance = _reason_words(sentence)
    # A time limit said as a rule ("more than 30 days before departure") is the policy's or a tool's, not made up.
    found += [("invented_reason", span) for said, span in durations if said not in shown.read_words().durations]
    if excuse:
        found.append(("invented_reason", excuse))
    if departed and not ({"flying", "landed"} & shown.terms_of_rows):
        found.append(("invented_reason", departed))
    insured = shown.insurance
    if insured and insurance is not None:
        says_none, says_some = insurance
        lowered = sentence.lower()
        named = [rid for rid in insured if rid.lower() in lowered] or (list(insured) if len(insured) == 1 else [])
        for rid in named:
            if (says_none and insured[rid]) or (says_some and not insured[rid]):
                found.append(("invented_reason", f"insurance of {rid}"))
    return found


_HAS_INSURANCE = re.compile(r"\b(?:has|have|with|includes?|bought|purchased) (?:travel )?insurance\b|\bis insured\b")


@lru_cache(maxsize=8192)  # the words of a reason are the sentence's; what they are checked against is the record's
def _reason_words(
    sentence: str,
) -> tuple[tuple[tuple[str, str], ...], str | None, str | None, tuple[bool, bool] | None]:
    """What ``sentence`` gives as reasons: its time limits ("30 day", as said), an excuse, "already departed", and
    whether it says a booking has no insurance or has some (None when it speaks of none, or only of a case: "if")."""
    durations = (
        tuple(
            (f"{match.group(1)} {match.group(2).rstrip('s')}", match.group(0))
            for match in _DURATION.finditer(digits(sentence))
        )
        if _UNIT.search(sentence.lower())
        else ()
    )
    excuse, departed = _EXCUSE.search(sentence), _DEPARTED.search(sentence)
    insurance = None
    if _INSURED.search(sentence) and not re.search(r"\bif\b", sentence, re.I):
        lowered = sentence.lower()
        says_none = bool(_NO_INSURANCE.search(sentence))
        # "only allowed when the booking has insurance" is a rule
        says_some = bool(_HAS_INSURANCE.search(lowered)) and not says_none and not _RULE.search(lowered)
        insurance = (says_none, says_some)
    return durations, excuse and excuse.group(0), departed and departed.group(0), insurance


def _claims(
    sentence: str, done: _Writes, words: dict[str, tuple[str, ...]], transferred: bool
) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    transfer, deed = _said_done(sentence)
    if transfer and not transferred:
        found.append(("claimed_undone", "transfer to a human"))
    if deed is not None:
        verb, clause, mine = deed
        tools = proposed_tools(clause, words)
        unique = {t for t in tools if any(_word(fold(clause), fold(w)) for w in words[t] if _only_of(w, t, words))}
        claimed = unique or tools
        if claimed and not claimed & done.tools:
            found.append(("claimed_undone", f"{verb}: {', '.join(sorted(claimed))}"))
        elif not claimed and mine and (not done.tools or not _GENERIC_DONE.match(verb)):
            # "I've opened a review", "I've escalated it": no write does that ("I've updated it" may be any write)
            found.append(("claimed_undone", verb))
    return found


@lru_cache(maxsize=8192)  # the claim is in the words; which writes were done is the record's
def _said_done(sentence: str) -> tuple[bool, tuple[str, str, bool] | None]:
    """Whether ``sentence`` says the user was transferred, and its first deed that is not a read: (verb, the clause
    that holds it, said of the agent itself: "I've opened")."""
    transfer = bool(_TRANSFER_CLAIM.search(sentence))
    for match in _DONE.finditer(sentence):
        verb = next(group for group in match.groups() if group).lower()
        if verb not in _READ_VERBS:
            return transfer, (verb, _clause_at(sentence, match.start()), bool(match.group("mine")))
    return transfer, None


# A rule said as the reason: "only pending orders can be cancelled", "returns are only for delivered orders".
_ONLY_CAN = re.compile(r"\bonly\b[^.]{0,60}\b(?:can|for)\b", re.I)
_GENERIC_DONE = re.compile(r"(?:chang|updat|modifi|adjust|process|complet|submitt|fix|correct|sort)", re.I)


def _clause_at(sentence: str, position: int) -> str:
    """The clause of ``sentence`` that holds ``position`` (clauses end at ";", ":", ", but" and ", and")."""
    bounds = [0, *(m.end() for m in re.finditer(r"[;:]|,\s*(?:but|and)\b", sentence)), len(sentence) + 1]
    start = max(b for b in bounds if b <= position)
    end = min(b for b in bounds if b > position)
    return sentence[start:end]


def _only_of(word: str, tool: str, words: dict[str, tuple[str, ...]]) -> bool:
    return not any(word in others for name, others in words.items() if name != tool)


def _unsaid(ctx: CheckContext, messages: list[str]) -> list[str]:
    goals = (ctx.record.task.metadata or {}).get("goals")
    if not isinstance(goals, list):
        return []
    refusals = [g.get("kind", "refusal") for g in goals if isinstance(g, dict) and g.get("outcome") == "refusal"]
    if not refusals or any(_REFUSES.search(m) or _ONLY_CAN.search(m) for m in messages):
        return []
    return refusals
