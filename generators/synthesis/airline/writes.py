"""Airline write goals: cancel (when a policy rule allows it), add bags, change cabin, correct a passenger, compensate.

Each goal's parameters are the arguments of its write tool. Money and seats
follow environments/airline/: gift cards move at once (a ``state_delta``, part
of the goal's core), certificates are never refunded, and seat counts of
bookable flight dates move with cancellations and cabin changes (so those
flight rows are written).
"""

from __future__ import annotations

from environments.airline.generator import CABINS
from environments.airline.rules import BAG_FEE, nonfree_bags
from generators.synthesis.airline.facts import (
    REASON_TEXT,
    allowed_cancel_reasons,
    cabin_difference,
    change_methods,
    changeable_of,
    compensation_due,
    reservation_goal,
    reservations_of,
    seat_rows,
    shifted_dob,
)
from generators.synthesis.fuzzify import describe_payment, describe_reservation, yours
from generators.synthesis.goals import Goal, GoalSpec, call, called, delta, equals, money, not_called, says
from generators.synthesis.phrasings import phrase


class CancelReservation(GoalSpec):
    kind, outcome = "cancel_reservation", "write"

    def sample(self, world, user_id, rng):
        options = [
            {"reservation_id": rid, "reason": reason}
            for rid in changeable_of(world, user_id)
            for reason in allowed_cancel_reasons(world, world.row("reservations", rid))
        ]
        return rng.choice(options) if options else None

    def build(self, world, params, rng):
        rid, reason = params["reservation_id"], params["reason"]
        res = world.row("reservations", rid)
        uid, methods = res["user_id"], world.row("users", res["user_id"])["payment_methods"]
        refunds: dict[str, float] = {}
        for payment in res["payment_history"]:
            method = methods.get(payment["payment_id"])
            if payment["amount"] > 0 and method is not None and method["source"] != "certificate":
                refunds[payment["payment_id"]] = refunds.get(payment["payment_id"], 0.0) + payment["amount"]
        deltas = [
            delta(f"refund_{mid}", f"users.{uid}.payment_methods.{mid}.balance", amount)
            for mid, amount in sorted(refunds.items())
            if methods[mid]["source"] == "gift_card"
        ]
        total = sum(refunds.values())
        return reservation_goal(
            world,
            self,
            params,
            request=phrase(self.kind, rng, why=REASON_TEXT[reason]),
            summary=f"cancel {{res}} ({reason})",
            known_info={"cancel_reason": REASON_TEXT[reason]},
            reply=f"Reservation {rid} is cancelled; {money(total)} is refunded to the methods that paid it.",
            constraints=[
                equals("status", f"reservations.{rid}.status", "cancelled"),
                *deltas,
                equals("reason", f"reservations.{rid}.cancel_reason", reason),
                *([says("refund", number=total)] if total else []),
                not_called("no_certificate", "send_certificate", user_id=uid),
            ],
            core=1 + len(deltas),  # the refund to a gift card is part of the outcome
            writes=[f"reservations.{rid}", *seat_rows(world, res["flights"])] + ([f"users.{uid}"] if deltas else []),
        )


class AddBags(GoalSpec):
    kind, outcome = "update_reservation_baggages", "write"

    def sample(self, world, user_id, rng):
        rids = changeable_of(world, user_id)
        if not rids:
            return None
        rid = rng.choice(rids)
        res, membership = world.row("reservations", rid), world.row("users", user_id)["membership"]
        total = res["total_baggages"] + rng.randint(1, 2)
        fee = BAG_FEE * (
            nonfree_bags(membership, res["cabin"], len(res["passengers"]), total) - res["nonfree_baggages"]
        )
        methods = change_methods(world, user_id, fee)
        return {"reservation_id": rid, "total_baggages": total, "payment_id": rng.choice(methods)} if methods else None

    def build(self, world, params, rng):
        rid, total, mid = params["reservation_id"], params["total_baggages"], params["payment_id"]
        res = world.row("reservations", rid)
        user = world.row("users", res["user_id"])
        extra = nonfree_bags(user["membership"], res["cabin"], len(res["passengers"]), total)
        fee = BAG_FEE * (extra - res["nonfree_baggages"])
        pay_ref = describe_payment(world, user["user_id"], mid)
        gift = user["payment_methods"][mid]["source"] == "gift_card" and fee > 0
        bags = "bag" if total == 1 else "bags"
        return reservation_goal(
            world,
            self,
            params,
            request=phrase(self.kind, rng, total=str(total), bags=bags, payment=yours(pay_ref.text)),
            summary=f"{total} checked {bags} on {{res}}",
            known_info={"total_bags": str(total), "payment": pay_ref.text},
            reply=f"Reservation {rid} now has {total} checked {bags}; the bag fee is {money(fee)}.",
            constraints=[
                equals("bags", f"reservations.{rid}.total_baggages", total),
                *([delta("fee", f"users.{user['user_id']}.payment_methods.{mid}.balance", -fee)] if gift else []),
                equals("nonfree", f"reservations.{rid}.nonfree_baggages", extra),
                *([says("fee", number=fee)] if fee else []),
            ],
            core=1 + gift,
            writes=[f"reservations.{rid}"] + ([f"users.{user['user_id']}"] if gift else []),
            references=(pay_ref,),
        )


class ChangeCabin(GoalSpec):
    kind, outcome = "update_reservation_cabin", "write"

    def sample(self, world, user_id, rng):
        options = []
        for rid in changeable_of(world, user_id):
            res = world.row("reservations", rid)
            for cabin in CABINS:
                difference = cabin_difference(world, res, cabin) if cabin != res["cabin"] else None
                if difference is not None:
                    options += [(rid, cabin, mid) for mid in change_methods(world, user_id, difference)]
        if not options:
            return None
        rid, cabin, mid = rng.choice(options)
        return {"reservation_id": rid, "cabin": cabin, "payment_id": mid}

    def build(self, world, params, rng):
        rid, cabin, mid = params["reservation_id"], params["cabin"], params["payment_id"]
        res = world.row("reservations", rid)
        uid = res["user_id"]
        difference = cabin_difference(world, res, cabin) or 0.0
        pay_ref = describe_payment(world, uid, mid)
        gift = world.row("users", uid)["payment_methods"][mid]["source"] == "gift_card" and difference != 0
        cabin_text = cabin.replace("_", " ")
        return reservation_goal(
            world,
            self,
            params,
            request=phrase(self.kind, rng, cabin=cabin_text, payment=yours(pay_ref.text)),
            summary=f"move {{res}} to {cabin_text}",
            known_info={"cabin": cabin_text, "payment": pay_ref.text},
            reply=f"Reservation {rid} is now in {cabin_text}; the fare difference is {money(abs(difference))}.",
            constraints=[
                equals("cabin", f"reservations.{rid}.cabin", cabin),
                *([delta("fare", f"users.{uid}.payment_methods.{mid}.balance", -difference)] if gift else []),
                *([says("difference", number=abs(difference))] if difference else []),
                not_called("same_flights", "update_reservation_flights", reservation_id=rid),
            ],
            core=1 + gift,
            writes=[f"reservations.{rid}", *seat_rows(world, res["flights"])] + ([f"users.{uid}"] if gift else []),
            references=(pay_ref,),
        )


class ChangePassengers(GoalSpec):
    kind, outcome = "update_reservation_passengers", "write"

    def sample(self, world, user_id, rng):
        rids = changeable_of(world, user_id)
        if not rids:
            return None
        rid = rng.choice(rids)
        passengers = [dict(p) for p in world.row("reservations", rid)["passengers"]]
        person = rng.choice(passengers)
        person["dob"] = shifted_dob(person["dob"], rng)
        return {"reservation_id": rid, "passengers": passengers}

    def build(self, world, params, rng):
        rid, passengers = params["reservation_id"], params["passengers"]
        old = world.row("reservations", rid)["passengers"]
        changes = [f"{new['first_name']} {new['last_name']}, born {new['dob']}" for new in passengers if new not in old]
        listed = "; ".join(changes) or "the same passengers"
        return reservation_goal(
            world,
            self,
            params,
            request=phrase(self.kind, rng, passengers=listed),
            summary="correct a passenger on {res}",
            known_info={"passenger_details": listed},
            reply=f"The passengers of reservation {rid} are updated: {listed}.",
            constraints=[
                equals("passengers", f"reservations.{rid}.passengers", passengers),
                not_called("same_cabin", "update_reservation_cabin", reservation_id=rid),
            ],
            writes=[f"reservations.{rid}"],
        )


class Compensation(GoalSpec):
    kind, outcome = "send_certificate", "write"

    def sample(self, world, user_id, rng):
        due = [
            rid for rid in reservations_of(world, user_id) if compensation_due(world, world.row("reservations", rid))
        ]
        if not due:
            return None
        rid = rng.choice(due)
        amount = 100.0 * len(world.row("reservations", rid)["passengers"])
        return {"user_id": user_id, "amount": amount, "reservation_id": rid}

    def build(self, world, params, rng):
        uid, amount = params["user_id"], params["amount"]
        rid = params.get("reservation_id")
        ref = describe_reservation(world, rid) if rid else None
        about = f" for the cancelled flight of {ref.text}" if ref else ""
        actions = [call("get_reservation_details", reservation_id=rid)] if rid else []
        return Goal(
            kind=self.kind,
            outcome="write",
            params=params,
            request=phrase(self.kind, rng, res=ref.text) if ref else phrase(f"{self.kind}_without_reservation", rng),
            summary=f"compensation{about}",
            known_info={"reservation": ref.text} if ref else {},
            unknown_info=["how much compensation the policy gives"],
            actions=[*actions, call(self.kind, user_id=uid, amount=amount)],
            reply=f"I have added a travel certificate of {money(amount)} to your profile.",
            constraints=[called("certificate", self.kind, user_id=uid, amount=amount), says("amount", number=amount)],
            writes=[f"users.{uid}"],
            references=[ref] if ref else [],
        )


WRITE_SPECS = [CancelReservation(), AddBags(), ChangeCabin(), ChangePassengers(), Compensation()]
