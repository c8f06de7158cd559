"""Why a user wants what they ask for, and what they prefer: a few plausible motives per goal kind.

A scenario's reason says what the user wants (the goals' requests, never reworded here) and, for most tasks,
why: one motive of one goal ("You found it cheaper elsewhere."), and sometimes a preference that agrees with
the goal's parameters ("You prefer the refund on your gift card, so you can spend it right away."). Both are
second-person sentences the scripted user turns into the first person for its opening, so they never use "you"
as an object ("I" would replace it), and they hold no ids, amounts or dates (a user turn grounds those).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from generators.synthesis.goals import Goal

MOTIVE_CHANCE = 0.8
PREFERENCE_CHANCE = 0.5

_CANCEL_ORDER = {
    "no longer needed": (
        "You found it cheaper elsewhere.",
        "You got the same thing as a present from a friend.",
        "Your plans changed and it would only sit in a drawer.",
    ),
    "ordered by mistake": (
        "You clicked the wrong button while browsing on your phone.",
        "You meant to save it to your wish list, not to buy it.",
    ),
}
_CANCEL_TRIP = {
    "change_of_plan": ("Your conference was moved to another month.", "A family event fell on the same days."),
    "airline_cancelled_flight": ("You cannot wait for a later connection.",),
    "health": ("Your doctor advised against flying for a while.", "You are recovering from an operation."),
    "weather": ("A big storm is forecast at your destination.",),
    "other": ("Something came up at home.",),
}
_CABIN = {
    "business": ("It is a long flight and you have a bad back.", "You need to work on your laptop during the flight."),
    "economy": ("Economy suits this trip better.",),
    "basic_economy": ("You want to keep the cost of this trip down.",),
}
# kind -> motives; a mapping is keyed by a parameter (``_BY_PARAM``).
MOTIVES: dict[str, tuple[str, ...] | dict[str, tuple[str, ...]]] = {
    "cancel_pending_order": _CANCEL_ORDER,
    "return_delivered_order_items": (
        "It arrived scratched.",
        "It is not what the photos showed.",
        "It turned out to be too small for your flat.",
    ),
    "modify_pending_order_address": (
        "You are moving next month.",
        "You will be staying with family when it arrives.",
        "Nobody is at home during the day to take the parcel.",
    ),
    "modify_pending_order_payment": ("Your card is about to expire.", "You want to keep that card for other expenses."),
    "modify_user_address": ("You are moving next month.", "You just moved into a new home."),
    "exchange_delivered_order_items": (
        "It does not suit you as it is.",
        "It is a present and the person would like another version.",
    ),
    "modify_pending_order_items": (
        "You picked the wrong option by accident.",
        "You saw another version you like more.",
    ),
    "refuse_cancel_not_pending": ("You found it cheaper elsewhere.", "Your plans changed."),
    "refuse_return_not_delivered": ("You already bought one in a shop.", "You are tired of waiting for it."),
    "refuse_swap_other_product": ("You saw something you like better.",),
    "refuse_return_refund_elsewhere": ("The original card is closed now.",),
    "refuse_payment_not_covered": ("You want to use up that balance.",),
    "order_status": ("You need it before a trip.",),
    "order_total": ("You are doing your monthly budget.",),
    "tracking_number": ("You want to follow the parcel yourself.",),
    "gift_card_balance": ("You want to buy a present with it.",),
    "cancel_reservation": _CANCEL_TRIP,
    "refuse_cancel_not_allowed": _CANCEL_TRIP,
    "update_reservation_baggages": (
        "You are bringing presents back for your family.",
        "You will be carrying sports equipment.",
    ),
    "update_reservation_cabin": _CABIN,
    "update_reservation_passengers": ("You noticed a typo in the booking.", "The passport details were entered wrong."),
    "send_certificate": ("The cancelled flight ruined a day of your holiday.",),
    "refuse_basic_economy_change": ("A meeting moved by a day.",),
    "refuse_remove_bags": ("You decided to travel light.",),
    "refuse_compensation": ("You lost a day because of it.",),
    "refuse_add_passenger": ("Your partner decided to come along.",),
    "membership_level": ("You want to know which perks you have.",),
    "flight_status": ("You are picking someone up at the airport.",),
    "reservation_paid": ("You are filing an expense report.",),
    "stored_value": ("You want to use it for your next trip.",),
    "cancel_or_return": _CANCEL_ORDER,
    "address_or_tracking": ("You are moving next month.", "You will be away from home when it arrives."),
    "gift_card_if_covers": ("You want to use up that balance.", "You want to keep your card for other expenses."),
    "bag_if_free": ("You are bringing presents back for your family.", "You want to keep the cost of this trip down."),
    "compensation_if_cancelled": (
        "You heard that flights on that route were cancelled.",
        "A friend on the same route had a flight cancelled.",
    ),
}
# How a motive joins the request: a reason said as one ("because", "since"), as people say it.
LINKS = ("You ask because {}", "This is because {}", "You need this since {}", "It matters to you because {}")
_BY_PARAM = {
    "cancel_pending_order": "reason",
    "cancel_or_return": "reason",
    "cancel_reservation": "reason",
    "refuse_cancel_not_allowed": "reason",
    "update_reservation_cabin": "cabin",
}


def _payment(params: dict[str, Any]) -> str:
    return str(params.get("payment_method_id") or params.get("payment_id") or "")


def _refund_preference(params: dict[str, Any]) -> str:
    if "gift_card" in _payment(params):
        return "You prefer the refund on your gift card, so you can spend it right away."
    return "You prefer the money back on the original payment method."


def _charge_preference(params: dict[str, Any]) -> str | None:
    if "gift_card" in _payment(params):
        return "You prefer to use your gift card balance for anything extra."
    if "credit_card" in _payment(params):
        return "You prefer to pay anything extra by credit card, for the points."
    return None


# kind -> (params -> a preference that agrees with them, or None)
PREFERENCES: dict[str, Callable[[dict[str, Any]], str | None]] = {
    "return_delivered_order_items": _refund_preference,
    "exchange_delivered_order_items": _charge_preference,
    "modify_pending_order_items": _charge_preference,
    "update_reservation_baggages": _charge_preference,
    "update_reservation_cabin": _charge_preference,
}


def motives_of(goal: Goal) -> tuple[str, ...]:
    table = MOTIVES.get(goal.kind, ())
    if isinstance(table, dict):
        return table.get(str(goal.params.get(_BY_PARAM[goal.kind])), ())
    return table


def motive_sentences(goals: list[Goal], rng: random.Random) -> list[str]:
    """A motive of one goal (MOTIVE_CHANCE) and a preference of one goal (PREFERENCE_CHANCE), drawn with ``rng``."""
    said: list[str] = []
    with_motives = [goal for goal in goals if motives_of(goal)]
    if with_motives and rng.random() < MOTIVE_CHANCE:
        motive = rng.choice(motives_of(rng.choice(with_motives)))
        said.append(rng.choice(LINKS).format(motive[:1].lower() + motive[1:]))
    preferences = [p for goal in goals if goal.kind in PREFERENCES and (p := PREFERENCES[goal.kind](goal.params))]
    if preferences and rng.random() < PREFERENCE_CHANCE:
        said.append(rng.choice(preferences))
    return said
