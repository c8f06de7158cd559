"""Airline fare rules shared by booking and changes: bag allowance, fees, routes, payments."""

from __future__ import annotations

from collections import Counter

from environments.tool_world import ToolError

BAG_FEE = 40.0
INSURANCE_PER_PASSENGER = 25.0
# Free checked bags per passenger, by the booking user's membership and the cabin.
FREE_BAGS = {
    "regular": {"basic_economy": 0, "economy": 1, "business": 2},
    "silver": {"basic_economy": 1, "economy": 1, "business": 2},
    "gold": {"basic_economy": 1, "economy": 2, "business": 3},
}
# At most this many payment methods of each kind in one booking.
PAYMENT_LIMITS = {"certificate": 1, "credit_card": 1, "gift_card": 3}
FLOWN = ("flying", "landed")


def money(value: float) -> float:
    return round(value + 0.0, 2)


def nonfree_bags(membership: str, cabin: str, passengers: int, total_bags: int) -> int:
    return max(0, total_bags - FREE_BAGS[membership][cabin] * passengers)


def check_route(legs: list[dict], origin: str, destination: str, trip_type: str) -> None:
    """Legs must connect, in date order, from origin to destination (and back for a round trip)."""
    for before, after in zip(legs, legs[1:]):
        if before["destination"] != after["origin"]:
            raise ToolError(f"flight {after['flight_number']} does not leave from {before['destination']}")
        if after["date"] < before["date"]:
            raise ToolError("flights must be in date order")
    if legs[0]["origin"] != origin:
        raise ToolError(f"the first flight must leave from {origin}")
    if trip_type == "one_way" and legs[-1]["destination"] != destination:
        raise ToolError(f"the last flight must arrive at {destination}")
    if trip_type == "round_trip":
        if legs[-1]["destination"] != origin:
            raise ToolError(f"a round trip must end at {origin}")
        if destination not in [leg["destination"] for leg in legs[:-1]]:
            raise ToolError(f"a round trip must reach {destination}")


def check_payment_mix(methods: list[dict]) -> None:
    counts = Counter(method["source"] for method in methods)
    for source, limit in PAYMENT_LIMITS.items():
        if counts[source] > limit:
            raise ToolError(f"at most {limit} {source.replace('_', ' ')} payment(s) per reservation")
    ids = [method["id"] for method in methods]
    if len(set(ids)) != len(ids):
        raise ToolError("each payment method may appear only once")
