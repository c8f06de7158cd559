"""Whether an agent message asked the user to confirm a given write, and whether it described that write.

A **request** is an agent message that asks for a decision ("Shall I proceed?", "Do you confirm?", "OK?", a
question) and proposes changes: it uses the action words of write tools (the environment's ``action_words``:
"cancel", "return", "exchange", "upgrade", "bags", ...). It proposes a write when it uses that tool's words.

What it says of the write must be the write: every row the call acts on, named by its id or by what the tools
showed of it, and the money it moves (verifiers/money.py). Rows by name (the ``Catalogue`` of what tool results
showed): an order by its id or an item it holds; an item by its id or its product's name (and, among items of
one name, an option of its own); the new variant of an exchange by its id or the options that differ from the
item it replaces ("the green one"); a payment method by its id, its kind ("gift card", "PayPal", "credit card"),
its brand or last four digits, or, when it paid the order, as the original payment method; a flight by its
number; a cabin by its name; bags by their number. ``problems`` says what is ``missing`` (not named at all) and
what is ``other`` (another row of the same kind named instead: another item, variant, payment method, cabin or
action): the first is an incomplete confirmation, the second a confirmation of something else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from schemas.steps import TextObservation
from verifiers.amount_words import amounts_said, numbers_said
from verifiers.claims import NOT_JSON, fold, json_value

_ASKS = re.compile(
    r"\?|\b(?:confirm|proceed|go ahead|shall i|should i|would you like|do you want|let me know|"
    r"yes/no|yes or no|ok to|okay to|is that (?:ok|okay|alright|fine|right|correct))\b"
)
# Kinds of payment method and the words a message names them by.
METHOD_WORDS = {
    "gift_card": ("gift card", "gift-card", "giftcard"),
    "credit_card": ("credit card", "card"),
    "paypal": ("paypal", "pay pal"),
    "certificate": ("certificate", "voucher"),
}
ORIGINAL = re.compile(
    r"\boriginal (?:payment )?(?:method|card|form)|\b(?:method|card|account) (?:you|that|which) (?:used|paid)"
    r"|\bsame (?:payment )?method|\b(?:card|method) (?:it|you) paid with|\bwhere (?:it|the money) came from"
)
CABINS = ("basic economy", "economy", "business")
_NOT_ACTIONS = re.compile(r"\be-?mail address\b")  # "your email address" proposes no address change


@dataclass
class Catalogue:
    """What tool results showed, to name rows by: items, variants, payment methods, orders' items and payers."""

    items: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)  # id: (product name, options)
    methods: dict[str, dict[str, Any]] = field(default_factory=dict)  # id: its fields (source, brand, last_four)
    order_items: dict[str, list[str]] = field(default_factory=dict)  # order id: its item ids
    reservation_flights: dict[str, list[str]] = field(default_factory=dict)  # reservation id: its flight numbers
    baggages: dict[str, int] = field(default_factory=dict)  # reservation id: its checked bags
    payers: dict[str, str] = field(default_factory=dict)  # order id: the method that paid it first

    def add(self, value: Any) -> None:
        """Take in one tool result's JSON value."""
        if isinstance(value, list):
            for item in value:
                self.add(item)
            return
        if not isinstance(value, dict):
            return
        if isinstance(value.get("variants"), dict) and isinstance(value.get("name"), str):
            for item_id, variant in value["variants"].items():
                if isinstance(variant, dict):
                    self.items[str(item_id)] = (value["name"], _options(variant.get("options")))
        if isinstance(value.get("order_id"), str) and isinstance(value.get("items"), list):
            ids = []
            for item in value["items"]:
                if isinstance(item, dict) and "item_id" in item:
                    self.items[str(item["item_id"])] = (str(item.get("name", "")), _options(item.get("options")))
                    ids.append(str(item["item_id"]))
            self.order_items[value["order_id"]] = ids
            history = value.get("payment_history")
            if isinstance(history, list) and history and isinstance(history[0], dict):
                payer = history[0].get("payment_method_id") or history[0].get("payment_id")
                if payer:
                    self.payers[value["order_id"]] = str(payer)
        if isinstance(value.get("reservation_id"), str) and isinstance(value.get("flights"), list):
            self.reservation_flights[value["reservation_id"]] = [
                str(f["flight_number"]) for f in value["flights"] if isinstance(f, dict) and "flight_number" in f
            ]
            if isinstance(value.get("total_baggages"), int):
                self.baggages[value["reservation_id"]] = value["total_baggages"]
        methods = value.get("payment_methods")
        if isinstance(methods, dict):
            self.methods.update({str(k): v for k, v in methods.items() if isinstance(v, dict)})
        for item in value.values():
            if isinstance(item, (dict, list)):
                self.add(item)

    def merge(self, other: Catalogue) -> None:
        self.items.update(other.items)
        self.methods.update(other.methods)
        self.order_items.update(other.order_items)
        self.reservation_flights.update(other.reservation_flights)
        for row, payer in other.payers.items():  # what paid first, and the bags before any change: as first read
            self.payers.setdefault(row, payer)
        for row, bags in other.baggages.items():
            self.baggages.setdefault(row, bags)

    def method_kind(self, method_id: str) -> str:
        source = str(self.methods.get(method_id, {}).get("source", ""))
        return source or next((kind for kind in METHOD_WORDS if method_id.startswith(kind)), "")

    def names_method(self, text: str, method_id: str, order_id: str | None = None) -> bool:
        """``text`` names the payment method (see the module docstring)."""
        if method_id.lower() in text:
            return True
        fields = self.methods.get(method_id, {})
        # Last four digits name one card: a card ending in other digits is another card of the same brand.
        fours = {str(m.get("last_four")) for m in self.methods.values() if m.get("last_four")}
        said = {four for four in fours if re.search(rf"\b{four}\b", text)}
        if said and fields.get("last_four"):
            return str(fields["last_four"]) in said
        if fields.get("brand") and re.search(rf"\b{re.escape(str(fields['brand']).lower())}\b", text):
            return True
        if order_id and self.payers.get(order_id) == method_id and ORIGINAL.search(text):
            return True
        kind = self.method_kind(method_id)
        words = METHOD_WORDS.get(kind, ())
        if kind == "credit_card":  # "card" alone is a credit card only where no gift card is named
            return bool(re.search(r"\bcredit card\b", text)) or (
                bool(re.search(r"\bcard\b", text)) and not re.search(r"\bgift[ -]?card\b", text)
            )
        return any(word in text for word in words)

    def names_item(self, text: str, item_id: str, siblings: Iterable[str] = ()) -> bool:
        if item_id in text:
            return True
        name, options = self.items.get(item_id, ("", {}))
        if len(options) >= 2 and all(_says(text, value) for value in options.values()):  # "size 11 black"
            return True
        if not name or fold(name) not in text:
            return False
        same_name = [s for s in siblings if s != item_id and self.items.get(s, ("",))[0] == name]
        return not same_name or any(_says(text, value) for value in _own_options(options, same_name, self))

    def names_variant(self, text: str, new_id: str, old_id: str) -> bool:
        """The new variant of an exchange or change, by id or by the options that differ from the old item."""
        if new_id in text:
            return True
        new, old = self.items.get(new_id, ("", {}))[1], self.items.get(old_id, ("", {}))[1]
        differing = [(key, value) for key, value in new.items() if old.get(key) != value]
        return bool(differing) and all(_says_option(text, key, value) for key, value in differing)


def tool_values(ctx: Any) -> list[tuple[int, Any]]:
    """(step, JSON value) of every tool result that is JSON, parsed once per record (ctx.memo)."""
    if "tool_values" not in ctx.memo:
        values = []
        for index, step in enumerate(ctx.record.trajectory):
            if isinstance(step, TextObservation) and step.source == "tool" and step.content[:1] in "{[":
                value = json_value(step.content)
                if value is not NOT_JSON:
                    values.append((index, value))
        ctx.memo["tool_values"] = values
    return ctx.memo["tool_values"]


def catalogue_of(ctx: Any) -> Catalogue:
    """The names of everything the record's tool results showed (once per record; each distinct result is
    walked once)."""
    if "catalogue" not in ctx.memo:
        catalogue = Catalogue()
        steps = ctx.record.trajectory
        for index, value in tool_values(ctx):
            catalogue.merge(_catalogue_of(steps[index].content, value))
        ctx.memo["catalogue"] = catalogue
    return ctx.memo["catalogue"]


_CATALOGUES: dict[str, Catalogue] = {}


def _catalogue_of(content: str, value: Any) -> Catalogue:
    found = _CATALOGUES.get(content)
    if found is None:
        if len(_CATALOGUES) >= 4096:
            _CATALOGUES.clear()
        found = _CATALOGUES[content] = Catalogue()
        found.add(value)
    return found


def _options(value: Any) -> dict[str, str]:
    return {str(k): fold(str(v)) for k, v in value.items()} if isinstance(value, dict) else {}


def _own_options(options: dict[str, str], others: list[str], catalogue: Catalogue) -> list[str]:
    other_values = {v for other in others for v in catalogue.items.get(other, ("", {}))[1].values()}
    return [value for value in options.values() if value not in other_values]


def _says(text: str, value: str) -> bool:
    return bool(re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text))


def _says_option(text: str, key: str, value: str) -> bool:
    """The option's value, or for a "none" the option's absence ("backlight: none" is "no backlight",
    "no-backlight", "without backlight")."""
    if value not in ("none", "no"):
        return _says(text, value)
    key = re.escape(fold(key))
    return bool(re.search(rf"\b(?:no|without(?: an?| any)?)[ -]{key}\b|\b{key}[: ]+(?:none|no)\b", text))


# Endings an action word takes in a message: "swap" -> "swaps", "swapped"; "cancel" -> "cancellation".
_ENDINGS = r"(?:s|es|ed|d|ing|ion|ions|ation|ations|lation|led|lled|ling|lling|ped|ping|ment|ments)?"


def _uses(text: str, word: str) -> bool:
    return bool(re.search(rf"(?<![\w-]){re.escape(word)}{_ENDINGS}(?![\w-])", text))


@lru_cache(maxsize=8192)  # grounding and consent ask it of the same messages
def asks_for_decision(text: str) -> bool:
    return bool(_ASKS.search(text.lower()))


# Verbs that change anything: a message that uses only these proposes any write (the rows decide which).
GENERIC = ("change", "update", "modify", "switch", "swap", "replace", "move", "adjust", "correct", "fix")


def proposed_tools(text: str, action_words: dict[str, tuple[str, ...]], generic: bool = True) -> set[str]:
    """The write tools whose own action words, or whose name ("update reservation baggages"), ``text`` uses;
    every write when it names none and says "change", "update" and the like (which one, its rows decide), unless
    not ``generic``."""
    return set(_proposed(text, tuple(action_words.items()), generic))


@lru_cache(maxsize=8192)  # the checks ask about the same messages many times (each term, each write)
def _proposed(text: str, action_words: tuple[tuple[str, tuple[str, ...]], ...], generic: bool = True) -> frozenset[str]:
    lowered = _NOT_ACTIONS.sub(" ", fold(text))
    patterns, generic_verbs = _patterns(action_words)
    named = frozenset(tool for tool, pattern in patterns if pattern.search(lowered))
    if named or not generic or not generic_verbs.search(lowered):
        return named
    return frozenset(tool for tool, _ in action_words)


@lru_cache(maxsize=16)
def _patterns(
    action_words: tuple[tuple[str, tuple[str, ...]], ...],
) -> tuple[tuple[tuple[str, re.Pattern], ...], re.Pattern]:
    """One pattern per write tool (its name, or any of its own words with their endings), and one of the generic
    verbs."""

    def words_pattern(words: list[str]) -> str:
        return "|".join(re.escape(fold(word)) for word in sorted(words, key=len, reverse=True))

    patterns = []
    for tool, words in action_words:
        own = [w for w in words if w not in GENERIC]
        alternatives = [rf"(?<!\w){re.escape(fold(tool))}(?!\w)"]
        if own:
            alternatives.append(rf"(?<![\w-])(?:{words_pattern(own)}){_ENDINGS}(?![\w-])")
        patterns.append((tool, re.compile("|".join(alternatives))))
    generic = re.compile(rf"(?<![\w-])(?:{words_pattern(list(GENERIC))}){_ENDINGS}(?![\w-])")
    return tuple(patterns), generic


def problems(
    text: str, function: str, arguments: dict[str, Any], catalogue: Catalogue, moved: list[float]
) -> tuple[list[str], list[str]]:
    """(missing, other): what of the write ``text`` leaves unnamed, and what it names instead (module docstring)."""
    text = fold(text)
    missing: list[str] = []
    other: list[str] = []
    order_id = arguments.get("order_id") if isinstance(arguments.get("order_id"), str) else None
    siblings = catalogue.order_items.get(order_id or "", [])
    for key, value in arguments.items():
        if key == "user_id" or value in (None, "", []):
            continue
        if key in ("order_id", "reservation_id"):
            by_content = (key == "order_id" and any(catalogue.names_item(text, i) for i in siblings)) or any(
                f.lower() in text for f in catalogue.reservation_flights.get(str(value), [])
            )
            if str(value).lower().lstrip("#") not in text and not by_content:
                missing.append(f"{key}={value}")
        elif key == "item_ids":
            for item in value:
                if not catalogue.names_item(text, item, siblings):
                    named_other = any(catalogue.names_item(text, s, siblings) for s in siblings if s not in value)
                    (other if named_other else missing).append(f"item {item}")
        elif key == "new_item_ids":
            for old, new in zip(arguments.get("item_ids") or [], value):
                if not catalogue.names_variant(text, new, old):
                    missing.append(f"new item {new}")
        elif key in ("payment_method_id", "payment_id"):
            if not catalogue.names_method(text, str(value), order_id):
                named_other = any(
                    catalogue.names_method(text, m, order_id)
                    and catalogue.method_kind(m) != catalogue.method_kind(str(value))
                    for m in catalogue.methods
                )
                (other if named_other else missing).append(f"{key}={value}")
        elif key == "flights" and isinstance(value, list):
            numbers = [f.get("flight_number") for f in value if isinstance(f, dict)]
            missing += [f"flight {n}" for n in numbers if isinstance(n, str) and n.lower() not in text]
        elif key == "cabin" and isinstance(value, str):
            said = [c for c in CABINS if _says(text.replace("basic economy", "basic_economy"), c.replace(" ", "_"))]
            if fold(value).replace(" ", "_") not in [c.replace(" ", "_") for c in said]:
                (other if said else missing).append(f"cabin {value}")
        elif key == "total_baggages" and isinstance(value, int) and value not in numbers_said(text):
            # "two more bags" on a reservation that has 2 says 4
            had = catalogue.baggages.get(str(arguments.get("reservation_id")))
            if had is None or value - had not in numbers_said(text):
                missing.append(f"{value} bags")
    said = amounts_said(text)
    missing += [f"{a:.2f}" for a in moved if not any(abs(a - n) < 0.005 for n in said)]
    return missing, other
