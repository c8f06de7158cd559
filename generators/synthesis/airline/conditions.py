"""Airline conditional goals: the membership, cabin and flight statuses decide what the user wants done.

Each samples both branches' parameters, resolves the condition from the rows and builds the branch that
holds (generators/synthesis/conditions.py says what the user is told). Both branches read what the
condition depends on (the reservation, and its flights where their status decides).
"""

from __future__ import annotations

from environments.airline.rules import BAG_FEE, nonfree_bags
from generators.synthesis.airline.facts import (
    change_methods,
    changeable_of,
    has_cancelled_leg,
    leg_entry,
    reservation_goal,
    reservations_of,
)
from generators.synthesis.airline.writes import AddBags, Compensation
from generators.synthesis.conditions import conditional_goal
from generators.synthesis.fuzzify import describe_payment
from generators.synthesis.goals import GoalSpec, call, money, not_called, says
from generators.synthesis.phrasings import phrase


class _Kept(GoalSpec):
    """The branch where nothing is changed: the agent checks, writes nothing and says why."""

    kind, outcome = "bags_kept", "read"


def kept(world, rid: str, reply: str, constraints: list[dict], core: int = 1):
    """The goal of the branch that changes nothing on reservation ``rid``: read it, write nothing, say ``reply``."""
    return reservation_goal(
        world, _Kept(), {"reservation_id": rid}, request="", summary="", reply=reply, constraints=constraints, core=core
    )


class BagIfFree(GoalSpec):
    """One more checked bag, only if the membership and cabin allowance makes it free."""

    kind, outcome, conditional = "bag_if_free", "write", True

    def sample(self, world, user_id, rng):
        rids = changeable_of(world, user_id)
        methods = change_methods(world, user_id, 0.0)
        if not rids or not methods:
            return None
        return {"reservation_id": rng.choice(rids), "payment_id": rng.choice(methods)}

    def build(self, world, params, rng):
        rid, mid = params["reservation_id"], params["payment_id"]
        res = world.row("reservations", rid)
        user = world.row("users", res["user_id"])
        total = res["total_baggages"] + 1
        holds = nonfree_bags(user["membership"], res["cabin"], len(res["passengers"]), total) == res["nonfree_baggages"]
        if holds:
            taken = AddBags().build(world, {"reservation_id": rid, "total_baggages": total, "payment_id": mid}, rng)
        else:
            bags = res["total_baggages"]
            taken = kept(
                world,
                rid,
                f"Another checked bag on reservation {rid} would cost {money(BAG_FEE)}, so I have left it at "
                f"{bags} checked bag{'s' if bags != 1 else ''}.",
                [
                    not_called("bags_kept", "update_reservation_baggages", reservation_id=rid),
                    says("fee", number=BAG_FEE),
                ],
                core=2,
            )
        pay_ref = describe_payment(world, user["user_id"], mid)
        trip = taken.known_info["reservation"]
        return conditional_goal(
            self,
            taken,
            params,
            row=f"reservations.{rid}",
            condition="one more checked bag is free",
            holds=holds,
            request=phrase(self.kind, rng, res=trip),
            summary=f"one more checked bag on {trip} only if it is free",
            known_info={"payment": pay_ref.text},
            references=[pay_ref],
        )


class CompensationIfCancelled(GoalSpec):
    """If a flight of the trip was cancelled, the compensation the user is due; otherwise the first flight's status."""

    kind, outcome, conditional = "compensation_if_cancelled", "write", True

    def sample(self, world, user_id, rng):
        member = world.row("users", user_id)["membership"]
        rids = []
        for rid in reservations_of(world, user_id):
            res = world.row("reservations", rid)
            qualifies = member in ("silver", "gold") or res["insurance"] or res["cabin"] == "business"
            if res["status"] == "active" and qualifies:
                rids.append(rid)
        if not rids:
            return None
        rid = rng.choice(rids)
        amount = 100.0 * len(world.row("reservations", rid)["passengers"])
        return {"user_id": user_id, "amount": amount, "reservation_id": rid}

    def build(self, world, params, rng):
        rid = params["reservation_id"]
        res = world.row("reservations", rid)
        legs = [
            call("get_flight_details", flight_number=leg["flight_number"], date=leg["date"]) for leg in res["flights"]
        ]
        holds = has_cancelled_leg(world, res)
        if holds:
            taken = Compensation().build(world, params, rng)
            # The condition is read from the flights before the certificate is sent.
            taken.actions = [*taken.actions[:-1], *legs, taken.actions[-1]]
            taken.reads = [f"flights.{leg['flight_number']}" for leg in res["flights"]]
        else:
            first = res["flights"][0]
            status = leg_entry(world, first)["status"]
            taken = kept(
                world,
                rid,
                f"No flight of reservation {rid} was cancelled; flight {first['flight_number']} on "
                f"{first['date']} is {status}.",
                [
                    says("status", text=status),
                    not_called("no_certificate", "send_certificate", user_id=params["user_id"]),
                ],
            )
            taken.actions += legs
            taken.reads = [f"reservations.{rid}", *(f"flights.{leg['flight_number']}" for leg in res["flights"])]
        trip = taken.known_info["reservation"]
        return conditional_goal(
            self,
            taken,
            params,
            row=f"reservations.{rid}",
            condition="a flight of the trip was cancelled",
            holds=holds,
            request=phrase(self.kind, rng, res=trip),
            summary=f"compensation if a flight of {trip} was cancelled, else its first flight's status",
            known_info={},
        )


CONDITION_SPECS = [BagIfFree(), CompensationIfCancelled()]
