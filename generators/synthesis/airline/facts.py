"""Facts about airline rows that goals are sampled from: changeable reservations, cancellation rules, fares, seats.

They restate what environments/airline enforces (and policy.md says) in the
form sampling needs: "which reasons would let this be cancelled", "which
methods can pay this change".
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from environments.airline.rules import FLOWN
from generators.synthesis.fuzzify import describe_reservation
from generators.synthesis.goals import Goal, GoalSpec, Reference, World, call

REASON_TEXT = {
    "change_of_plan": "a change of plans",
    "airline_cancelled_flight": "the airline cancelled one of its flights",
    "health": "a health problem",
    "weather": "the weather",
    "other": "personal reasons",
}


def reservations_of(world: World, user_id: str) -> list[str]:
    return list(world.row("users", user_id)["reservations"])


def leg_entry(world: World, leg: dict) -> dict:
    return world.row("flights", leg["flight_number"])["dates"][leg["date"]]


def changeable(world: World, rid: str) -> bool:
    """Active, and none of its flights has flown (the precondition of every reservation change)."""
    res = world.row("reservations", rid)
    return res["status"] == "active" and all(leg_entry(world, leg)["status"] not in FLOWN for leg in res["flights"])


def changeable_of(world: World, user_id: str) -> list[str]:
    return [rid for rid in reservations_of(world, user_id) if changeable(world, rid)]


def has_cancelled_leg(world: World, res: dict) -> bool:
    return any(leg_entry(world, leg)["status"] == "cancelled" for leg in res["flights"])


def booked_within_24h(world: World, res: dict) -> bool:
    now = datetime.fromisoformat(world.row("meta", "clock")["now"])
    return now - datetime.fromisoformat(res["created_at"]) <= timedelta(hours=24)


def allowed_cancel_reasons(world: World, res: dict) -> list[str]:
    """The reasons for which the policy lets this reservation be cancelled (empty: it cannot be)."""
    reasons = set()
    if res["cabin"] == "business" or booked_within_24h(world, res):
        reasons |= {"change_of_plan", "health", "weather", "other"}
    if res["insurance"]:
        reasons |= {"health", "weather"}
    if has_cancelled_leg(world, res):
        reasons.add("airline_cancelled_flight")
    return sorted(reasons)


def change_methods(world: World, user_id: str, cost: float) -> list[str]:
    """Credit cards and gift cards that can pay ``cost`` (changes are never paid with certificates)."""
    methods = world.row("users", user_id)["payment_methods"]
    return sorted(
        mid
        for mid, m in methods.items()
        if m["source"] == "credit_card" or (m["source"] == "gift_card" and m["balance"] >= cost)
    )


def seat_rows(world: World, legs: list[dict]) -> list[str]:
    return sorted({f"flights.{leg['flight_number']}" for leg in legs if "seats" in leg_entry(world, leg)})


def cabin_difference(world: World, res: dict, cabin: str) -> float | None:
    """The fare difference for all passengers, or None when a flight cannot take them in ``cabin``."""
    count, new_total = len(res["passengers"]), 0.0
    for leg in res["flights"]:
        entry = leg_entry(world, leg)
        if entry["status"] != "available" or entry["seats"][cabin] < count:
            return None
        new_total += entry["prices"][cabin]
    return count * (new_total - sum(leg["price"] for leg in res["flights"]))


def shifted_dob(dob: str, rng: random.Random) -> str:
    return (datetime.fromisoformat(dob) + timedelta(days=rng.choice((-400, -31, -1, 1, 31, 400)))).date().isoformat()


def compensation_due(world: World, res: dict) -> bool:
    """A flight was cancelled by the airline and the traveller qualifies (silver/gold, insured or business)."""
    member = world.row("users", res["user_id"])["membership"]
    qualifies = member in ("silver", "gold") or res["insurance"] or res["cabin"] == "business"
    return qualifies and has_cancelled_leg(world, res)


def reservation_goal(
    world: World,
    spec: GoalSpec,
    params: dict[str, Any],
    *,
    request: str,
    summary: str,
    reply: str,
    constraints: list[dict],
    known_info: dict[str, str] | None = None,
    references: Sequence[Reference] = (),
    core: int = 1,
    writes: Sequence[str] = (),
) -> Goal:
    """A goal about one reservation (``params["reservation_id"]``): its description replaces ``{res}`` in the
    texts; the gold reads the reservation, then, for a write goal, calls the write tool with ``params``."""
    rid = params["reservation_id"]
    ref = describe_reservation(world, rid)
    write = [call(spec.kind, **params)] if spec.outcome == "write" else []
    return Goal(
        kind=spec.kind,
        outcome=spec.outcome,
        params=params,
        request=request.replace("{res}", ref.text),
        summary=summary.replace("{res}", ref.text),
        known_info={"reservation": ref.text, **(known_info or {})},
        unknown_info=["the reservation id"] if ref.query["by"] != "reservation_id" else [],
        actions=[call("get_reservation_details", reservation_id=rid), *write],
        reply=reply,
        constraints=constraints,
        core=core,
        writes=list(writes),
        reads=[] if write else [f"reservations.{rid}"],
        references=[ref, *references],
    )
