"""Booking a reservation, plus the seat and payment moves every airline write shares.

A mixin of AirlineWorld (environments/airline/env.py), which provides
`flight_date` and `now`.
"""

from __future__ import annotations

import hashlib

import orjson

from environments.airline.rules import (
    BAG_FEE,
    INSURANCE_PER_PASSENGER,
    check_payment_mix,
    check_route,
    money,
    nonfree_bags,
)
from environments.tool_world import ToolError, params, tool

CABIN = {"type": "string", "enum": ["basic_economy", "economy", "business"]}
FLIGHTS = {
    "type": "array",
    "minItems": 1,
    "items": params({"flight_number": {"type": "string"}, "date": {"type": "string"}}),
}
PASSENGERS = {
    "type": "array",
    "minItems": 1,
    "maxItems": 5,
    "items": params({"first_name": {"type": "string"}, "last_name": {"type": "string"}, "dob": {"type": "string"}}),
}
PAYMENTS = {
    "type": "array",
    "minItems": 1,
    "items": params({"payment_id": {"type": "string"}, "amount": {"type": "number", "exclusiveMinimum": 0}}),
}


class AirlineBookingTools:
    def make_legs(self, flights: list[dict], cabin: str, kept: dict[tuple[str, str], dict] | None = None) -> list[dict]:
        """Reservation legs for the requested flights; legs in `kept` keep their booked price."""
        legs = []
        for wanted in flights:
            key = (wanted["flight_number"], wanted["date"])
            if kept and key in kept:
                legs.append(kept[key])
                continue
            flight, entry = self.flight_date(*key)
            if entry["status"] != "available":
                raise ToolError(f"flight '{key[0]}' on {key[1]} is {entry['status']} and cannot be booked")
            legs.append(
                {
                    "flight_number": key[0],
                    "date": key[1],
                    "origin": flight["origin"],
                    "destination": flight["destination"],
                    "price": entry["prices"][cabin],
                }
            )
        return legs

    def move_seats(self, legs: list[dict], cabin: str, count: int) -> None:
        """Take `count` seats (negative: give them back) on each leg; only bookable dates track seats."""
        for leg in legs:
            entry = self.flight_date(leg["flight_number"], leg["date"])[1]
            if "seats" not in entry:
                continue
            flight = self.edit("flights", leg["flight_number"], "flight")
            seats = flight["dates"][leg["date"]]["seats"]
            if seats[cabin] < count:
                raise ToolError(
                    f"flight '{leg['flight_number']}' on {leg['date']} has {seats[cabin]} free {cabin} seats"
                )
            seats[cabin] -= count

    def pay(self, user_id: str, payment_id: str, amount: float) -> dict:
        """Charge a positive amount to (or refund a negative amount to) a payment method of the user."""
        user = self.row("users", user_id, "user")
        method = user["payment_methods"].get(payment_id)
        if method is None:
            raise ToolError(f"payment method '{payment_id}' is not in the user's profile")
        if method["source"] == "gift_card":
            if amount > method["balance"] + 1e-9:
                raise ToolError(f"gift card '{payment_id}' balance {method['balance']:.2f} does not cover {amount:.2f}")
            card = self.edit("users", user_id, "user")["payment_methods"][payment_id]
            card["balance"] = money(card["balance"] - amount)
        elif method["source"] == "certificate":
            if amount < 0:
                raise ToolError("refunds cannot go to a travel certificate")
            if amount > method["amount"] + 1e-9:
                raise ToolError(f"certificate '{payment_id}' of {method['amount']:.2f} does not cover {amount:.2f}")
            del self.edit("users", user_id, "user")["payment_methods"][payment_id]  # the rest is forfeited
        return {"payment_id": payment_id, "amount": money(amount)}

    def new_id(self, taken, *parts: object) -> str:
        """A deterministic fresh id (a replay creates the same ids): six hex letters/digits, not `taken`."""
        for attempt in range(100):
            digest = hashlib.blake2b(orjson.dumps([attempt, *parts], option=orjson.OPT_SORT_KEYS)).hexdigest()
            if not taken(digest[:6].upper()):
                return digest[:6].upper()
        raise ToolError("could not allocate a new id")

    @tool(
        "Book a reservation for a user. The amounts in payment_methods must add up to the exact total: "
        "fares of every passenger on every flight, insurance if chosen, and fees for bags beyond the free "
        "allowance. Needs the user's explicit confirmation.",
        params(
            {
                "user_id": {"type": "string"},
                "origin": {"type": "string"},
                "destination": {"type": "string"},
                "trip_type": {"type": "string", "enum": ["one_way", "round_trip"]},
                "cabin": CABIN,
                "flights": FLIGHTS,
                "passengers": PASSENGERS,
                "payment_methods": PAYMENTS,
                "total_baggages": {"type": "integer", "minimum": 0},
                "insurance": {"type": "boolean"},
            }
        ),
        access="write",
    )
    def book_reservation(
        self,
        user_id: str,
        origin: str,
        destination: str,
        trip_type: str,
        cabin: str,
        flights: list[dict],
        passengers: list[dict],
        payment_methods: list[dict],
        total_baggages: int,
        insurance: bool,
    ) -> dict:
        user = self.row("users", user_id, "user")
        legs = self.make_legs(flights, cabin)
        check_route(legs, origin, destination, trip_type)
        count = len(passengers)
        extra_bags = nonfree_bags(user["membership"], cabin, count, total_baggages)
        total = money(
            count * sum(leg["price"] for leg in legs)
            + count * INSURANCE_PER_PASSENGER * insurance
            + BAG_FEE * extra_bags
        )
        paid = money(sum(p["amount"] for p in payment_methods))
        if abs(paid - total) > 0.005:
            raise ToolError(f"payments add up to {paid:.2f} but the total is {total:.2f}")
        methods = [
            user["payment_methods"].get(p["payment_id"]) or {"id": p["payment_id"], "source": "unknown"}
            for p in payment_methods
        ]
        check_payment_mix(methods)
        history = [self.pay(user_id, p["payment_id"], p["amount"]) for p in payment_methods]
        self.move_seats(legs, cabin, count)
        reservation_id = self.new_id(
            lambda rid: self.find("reservations", rid) is not None, user_id, flights, passengers, self.now().isoformat()
        )
        reservation = {
            "reservation_id": reservation_id,
            "user_id": user_id,
            "origin": origin,
            "destination": destination,
            "trip_type": trip_type,
            "cabin": cabin,
            "flights": legs,
            "passengers": passengers,
            "payment_history": history,
            "created_at": self.now().isoformat(timespec="seconds"),
            "total_baggages": total_baggages,
            "nonfree_baggages": extra_bags,
            "insurance": insurance,
            "status": "active",
        }
        self.insert("reservations", reservation_id, reservation)
        self.edit("users", user_id, "user")["reservations"].append(reservation_id)
        return reservation
