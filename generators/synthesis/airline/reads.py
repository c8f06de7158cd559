"""Airline identity and read goals: a fact the agent must look up and state (``message_contains``).

The airline identifies users by user id only (policy), so the identity is the id itself.
"""

from __future__ import annotations

import random

from generators.synthesis.airline.facts import leg_entry, reservation_goal, reservations_of
from generators.synthesis.fuzzify import describe_payment, first_unique, yours
from generators.synthesis.goals import Goal, GoalSpec, Identity, World, call, money, says
from generators.synthesis.phrasings import phrase


def identify(world: World, user_id: str, rng: random.Random) -> Identity:
    user = world.row("users", user_id)
    ref = first_unique(world, "user", user_id, [(user_id, {"by": "user_id", "user_id": user_id})])
    return Identity(
        user_id=user_id,
        name=f"{user['name']['first_name']} {user['name']['last_name']}",
        known_info={"user_id": user_id},
        actions=[call("get_user_details", user_id=user_id)],
        references=[ref],
    )


class Membership(GoalSpec):
    kind, outcome = "membership_level", "read"

    def sample(self, world, user_id, rng):
        return {"user_id": user_id}

    def build(self, world, params, rng):
        level = world.row("users", params["user_id"])["membership"]
        return Goal(
            kind=self.kind,
            outcome="read",
            params=params,
            request=phrase(self.kind, rng),
            summary="membership level",
            known_info={},
            unknown_info=[],
            actions=[],
            reply=f"Your membership level is {level}.",
            constraints=[says("level", text=level)],
            reads=[f"users.{params['user_id']}"],
        )


class FlightStatus(GoalSpec):
    kind, outcome = "flight_status", "read"

    def sample(self, world, user_id, rng):
        legs = [leg for rid in reservations_of(world, user_id) for leg in world.row("reservations", rid)["flights"]]
        leg = rng.choice(legs) if legs else None
        return {"flight_number": leg["flight_number"], "date": leg["date"]} if leg else None

    def build(self, world, params, rng):
        number, day = params["flight_number"], params["date"]
        status = leg_entry(world, params)["status"]
        return Goal(
            kind=self.kind,
            outcome="read",
            params=params,
            request=phrase(self.kind, rng, number=number, date=day),
            summary=f"status of flight {number} on {day}",
            known_info={"flight": f"{number} on {day}"},
            unknown_info=[],
            actions=[call("get_flight_details", flight_number=number, date=day)],
            reply=f"Flight {number} on {day} is {status}.",
            constraints=[says("status", text=status)],
            reads=[f"flights.{number}"],
        )


class ReservationPaid(GoalSpec):
    kind, outcome = "reservation_paid", "read"

    def sample(self, world, user_id, rng):
        rids = reservations_of(world, user_id)
        return {"reservation_id": rng.choice(rids)} if rids else None

    def build(self, world, params, rng):
        rid = params["reservation_id"]
        paid = sum(p["amount"] for p in world.row("reservations", rid)["payment_history"] if p["amount"] > 0)
        return reservation_goal(
            world,
            self,
            params,
            request=phrase(self.kind, rng),
            summary="amount paid for {res}",
            reply=f"You paid {money(paid)} for reservation {rid}.",
            constraints=[says("paid", number=paid)],
        )


class StoredValue(GoalSpec):
    """The balance of a gift card or the amount of a travel certificate."""

    kind, outcome = "stored_value", "read"

    def sample(self, world, user_id, rng):
        methods = world.row("users", user_id)["payment_methods"]
        held = sorted(mid for mid, m in methods.items() if m.get("balance", m.get("amount", 0)) > 0)
        return {"user_id": user_id, "payment_id": rng.choice(held)} if held else None

    def build(self, world, params, rng):
        uid, mid = params["user_id"], params["payment_id"]
        method = world.row("users", uid)["payment_methods"][mid]
        value = method.get("balance", method.get("amount"))
        ref = describe_payment(world, uid, mid)
        return Goal(
            kind=self.kind,
            outcome="read",
            params=params,
            request=phrase(self.kind, rng, payment=yours(ref.text)),
            summary="stored value of a payment method",
            known_info={"payment": ref.text},
            unknown_info=[],
            actions=[],
            reply=f"It holds {money(value)}.",
            constraints=[says("value", number=value)],
            reads=[f"users.{uid}"],
            references=[ref],
        )


READ_SPECS = [Membership(), FlightStatus(), ReservationPaid(), StoredValue()]
