"""Airline requests the policy refuses, and the twists that turn a write request into one of them.

The agent must not call the write tool (``action_not_called``): cancelling
without a reason the policy accepts, changing the flights of basic economy,
removing bags, compensation for a traveller who does not qualify, adding a
passenger.
"""

from __future__ import annotations

import random

from environments.airline.reservation_actions import CANCEL_REASONS
from generators.synthesis.airline.facts import (
    REASON_TEXT,
    allowed_cancel_reasons,
    changeable_of,
    has_cancelled_leg,
    reservation_goal,
    reservations_of,
)
from generators.synthesis.goals import GoalSpec, World, not_called, says
from generators.synthesis.phrasings import phrase


class CancelNotAllowed(GoalSpec):
    kind, outcome = "refuse_cancel_not_allowed", "refusal"

    def sample(self, world, user_id, rng):
        options = []
        for rid in changeable_of(world, user_id):
            allowed = allowed_cancel_reasons(world, world.row("reservations", rid))
            if "change_of_plan" in allowed or "airline_cancelled_flight" in allowed:
                continue  # some reason would let the agent cancel: not a clean refusal
            options += [(rid, r) for r in CANCEL_REASONS if r not in allowed and r != "airline_cancelled_flight"]
        return dict(zip(("reservation_id", "reason"), rng.choice(options))) if options else None

    def build(self, world, params, rng):
        rid, reason = params["reservation_id"], params["reason"]
        return reservation_goal(
            world,
            self,
            params,
            request=phrase(self.kind, rng, why=REASON_TEXT[reason]),
            summary="cancel {res}",
            known_info={"cancel_reason": REASON_TEXT[reason]},
            reply="This reservation was booked more than 24 hours ago and the policy does not cover that reason, "
            "so I cannot cancel it.",
            constraints=[
                not_called("no_cancel", "cancel_reservation", reservation_id=rid),
                says("why", text="24 hours"),
            ],
            core=2,
        )


class BasicEconomyChange(GoalSpec):
    kind, outcome = "refuse_basic_economy_change", "refusal"

    def sample(self, world, user_id, rng):
        basic = [r for r in changeable_of(world, user_id) if world.row("reservations", r)["cabin"] == "basic_economy"]
        return {"reservation_id": rng.choice(basic)} if basic else None

    def build(self, world, params, rng):
        rid = params["reservation_id"]
        return reservation_goal(
            world,
            self,
            params,
            request=phrase(self.kind, rng),
            summary="change the flights of {res}",
            reply="Your reservation is in basic economy, whose flights cannot be changed.",
            constraints=[
                not_called("no_change", "update_reservation_flights", reservation_id=rid),
                says("cabin", text="basic economy"),
            ],
            core=2,
        )


class RemoveBags(GoalSpec):
    kind, outcome = "refuse_remove_bags", "refusal"

    def sample(self, world, user_id, rng):
        rids = [r for r in changeable_of(world, user_id) if world.row("reservations", r)["total_baggages"] > 0]
        return {"reservation_id": rng.choice(rids)} if rids else None

    def build(self, world, params, rng):
        rid = params["reservation_id"]
        bags = world.row("reservations", rid)["total_baggages"]
        return reservation_goal(
            world,
            self,
            params,
            request=phrase(self.kind, rng, now=str(bags), wanted=str(bags - 1)),
            summary="remove a bag from {res}",
            reply="Checked bags can only be added, so I cannot remove one.",
            constraints=[
                not_called("no_bag_change", "update_reservation_baggages", reservation_id=rid),
                says("why", text="only be added"),
            ],
            core=2,
        )


class CompensationNotDue(GoalSpec):
    """A regular member, uninsured and not in business: no compensation whatever happened."""

    kind, outcome = "refuse_compensation", "refusal"

    def sample(self, world, user_id, rng):
        if world.row("users", user_id)["membership"] != "regular":
            return None
        rids = [
            rid
            for rid in reservations_of(world, user_id)
            if (res := world.row("reservations", rid))["cabin"] != "business" and not res["insurance"]
        ]
        return {"reservation_id": rng.choice(rids)} if rids else None

    def build(self, world, params, rng):
        res = world.row("reservations", params["reservation_id"])
        trouble = "a cancelled flight" if has_cancelled_leg(world, res) else "the trouble with your trip"
        return reservation_goal(
            world,
            self,
            params,
            request=phrase(self.kind, rng, trouble=trouble),
            summary="compensation for {res}",
            reply="Compensation is only for silver or gold members; you are a regular member and this trip is not "
            "insured and not in business, so I cannot offer one.",
            constraints=[
                not_called("no_certificate", "send_certificate", user_id=res["user_id"]),
                says("why", text="regular"),
            ],
            core=2,
        )


class AddPassenger(GoalSpec):
    kind, outcome = "refuse_add_passenger", "refusal"

    def sample(self, world, user_id, rng):
        rids = changeable_of(world, user_id)
        return {"reservation_id": rng.choice(rids)} if rids else None

    def build(self, world, params, rng):
        rid = params["reservation_id"]
        return reservation_goal(
            world,
            self,
            params,
            request=phrase(self.kind, rng),
            summary="add a passenger to {res}",
            reply="The number of passengers of a reservation cannot change, so I cannot add one.",
            constraints=[
                not_called("no_passenger_change", "update_reservation_passengers", reservation_id=rid),
                says("why", text="number of passengers"),
            ],
            core=2,
        )


# ---- twists: (world, a write goal's params, rng) -> (refusal kind, its params) or None -----------
def cancel_twist(world: World, params: dict, rng: random.Random) -> tuple[str, dict] | None:
    """An insured cancellation becomes a refusal when the reason is a change of plans instead of health or weather."""
    allowed = allowed_cancel_reasons(world, world.row("reservations", params["reservation_id"]))
    if "change_of_plan" in allowed or "airline_cancelled_flight" in allowed:
        return None
    return CancelNotAllowed.kind, {"reservation_id": params["reservation_id"], "reason": "change_of_plan"}


def bags_twist(world: World, params: dict, rng: random.Random) -> tuple[str, dict] | None:
    """Adding bags becomes removing one (when there is one to remove)."""
    if world.row("reservations", params["reservation_id"])["total_baggages"] == 0:
        return None
    return RemoveBags.kind, {"reservation_id": params["reservation_id"]}


def passenger_twist(world: World, params: dict, rng: random.Random) -> tuple[str, dict]:
    """Correcting a passenger becomes adding one."""
    return AddPassenger.kind, {"reservation_id": params["reservation_id"]}


REFUSAL_SPECS = [CancelNotAllowed(), BasicEconomyChange(), RemoveBags(), CompensationNotDue(), AddPassenger()]
TWISTS = {
    "cancel_reservation": cancel_twist,
    "update_reservation_baggages": bags_twist,
    "update_reservation_passengers": passenger_twist,
}
