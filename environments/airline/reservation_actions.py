"""Changing and cancelling reservations, and compensation certificates.

A mixin of AirlineWorld (environments/airline/env.py); seat and payment moves
come from AirlineBookingTools (environments/airline/booking.py).
"""

from __future__ import annotations

from environments.airline.booking import CABIN, FLIGHTS, PASSENGERS
from environments.airline.rules import BAG_FEE, FLOWN, check_route, money, nonfree_bags
from environments.tool_world import ToolError, params, tool

ID = {"type": "string"}
CANCEL_REASONS = ["change_of_plan", "airline_cancelled_flight", "health", "weather", "other"]
MAX_CERTIFICATE = 500


class AirlineReservationTools:
    def _changeable(self, reservation_id: str) -> dict:
        """A staged copy of an active reservation none of whose flights has flown."""
        reservation = self.row("reservations", reservation_id, "reservation")
        if reservation["status"] != "active":
            raise ToolError(f"reservation '{reservation_id}' is {reservation['status']}")
        for leg in reservation["flights"]:
            if self.flight_date(leg["flight_number"], leg["date"])[1]["status"] in FLOWN:
                raise ToolError(
                    f"flight '{leg['flight_number']}' on {leg['date']} has already flown; transfer to a human agent"
                )
        return self.edit("reservations", reservation_id, "reservation")

    def _settle(self, reservation: dict, payment_id: str, amount: float) -> None:
        method = self.row("users", reservation["user_id"], "user")["payment_methods"].get(payment_id)
        if method is None:
            raise ToolError(f"payment method '{payment_id}' is not in the user's profile")
        if method["source"] not in ("credit_card", "gift_card"):
            raise ToolError("changes are paid or refunded with a credit card or a gift card")
        if money(amount) != 0:
            reservation["payment_history"].append(self.pay(reservation["user_id"], payment_id, amount))

    @tool(
        "Change the flights of a reservation (not basic economy); origin, destination, trip type and cabin stay. "
        "Flights kept from the reservation keep their price; the fare difference for all passengers is paid from "
        "or refunded to payment_id. Needs the user's explicit confirmation.",
        params({"reservation_id": ID, "flights": FLIGHTS, "payment_id": ID}),
        access="write",
    )
    def update_reservation_flights(self, reservation_id: str, flights: list[dict], payment_id: str) -> dict:
        reservation = self._changeable(reservation_id)
        cabin, count = reservation["cabin"], len(reservation["passengers"])
        if cabin == "basic_economy":
            raise ToolError("basic economy reservations cannot change flights")
        old = {(leg["flight_number"], leg["date"]): leg for leg in reservation["flights"]}
        legs = self.make_legs(flights, cabin, kept=old)
        check_route(legs, reservation["origin"], reservation["destination"], reservation["trip_type"])
        kept = {(leg["flight_number"], leg["date"]) for leg in legs}
        self.move_seats([leg for key, leg in old.items() if key not in kept], cabin, -count)
        self.move_seats([leg for leg in legs if (leg["flight_number"], leg["date"]) not in old], cabin, count)
        difference = count * (sum(leg["price"] for leg in legs) - sum(leg["price"] for leg in old.values()))
        self._settle(reservation, payment_id, difference)
        reservation["flights"] = legs
        return reservation

    @tool(
        "Change the cabin of every flight in a reservation at today's prices; the fare difference for all "
        "passengers is paid from or refunded to payment_id. Needs the user's explicit confirmation.",
        params({"reservation_id": ID, "cabin": CABIN, "payment_id": ID}),
        access="write",
    )
    def update_reservation_cabin(self, reservation_id: str, cabin: str, payment_id: str) -> dict:
        reservation = self._changeable(reservation_id)
        if reservation["cabin"] == cabin:
            raise ToolError(f"reservation '{reservation_id}' is already in {cabin}")
        count = len(reservation["passengers"])
        legs = self.make_legs(reservation["flights"], cabin)
        self.move_seats(reservation["flights"], reservation["cabin"], -count)
        self.move_seats(legs, cabin, count)
        difference = count * (sum(leg["price"] for leg in legs) - sum(leg["price"] for leg in reservation["flights"]))
        self._settle(reservation, payment_id, difference)
        reservation.update(cabin=cabin, flights=legs)
        return reservation

    @tool(
        "Replace the passengers of a reservation; their number cannot change. Needs the user's explicit confirmation.",
        params({"reservation_id": ID, "passengers": PASSENGERS}),
        access="write",
    )
    def update_reservation_passengers(self, reservation_id: str, passengers: list[dict]) -> dict:
        reservation = self._changeable(reservation_id)
        if len(passengers) != len(reservation["passengers"]):
            raise ToolError(f"the number of passengers cannot change (it is {len(reservation['passengers'])})")
        reservation["passengers"] = passengers
        return reservation

    @tool(
        "Set the total number of checked bags (it can only grow); bags beyond the free allowance cost a fee "
        "paid with payment_id. Needs the user's explicit confirmation.",
        params({"reservation_id": ID, "total_baggages": {"type": "integer", "minimum": 0}, "payment_id": ID}),
        access="write",
    )
    def update_reservation_baggages(self, reservation_id: str, total_baggages: int, payment_id: str) -> dict:
        reservation = self._changeable(reservation_id)
        if total_baggages < reservation["total_baggages"]:
            raise ToolError(f"checked bags cannot be removed (the reservation has {reservation['total_baggages']})")
        membership = self.row("users", reservation["user_id"], "user")["membership"]
        extra = nonfree_bags(membership, reservation["cabin"], len(reservation["passengers"]), total_baggages)
        self._settle(reservation, payment_id, BAG_FEE * (extra - reservation["nonfree_baggages"]))
        reservation.update(total_baggages=total_baggages, nonfree_baggages=extra)
        return reservation

    @tool(
        "Cancel a whole reservation when the policy allows it; payments are refunded to their methods "
        "(gift cards at once, cards in 5-7 business days; certificates are not refunded).",
        params({"reservation_id": ID, "reason": {"type": "string", "enum": CANCEL_REASONS}}),
        access="write",
    )
    def cancel_reservation(self, reservation_id: str, reason: str) -> dict:
        reservation = self._changeable(reservation_id)
        statuses = [self.flight_date(leg["flight_number"], leg["date"])[1]["status"] for leg in reservation["flights"]]
        if reason == "airline_cancelled_flight" and "cancelled" not in statuses:
            raise ToolError("no flight of this reservation was cancelled by the airline")
        allowed = (
            self.booked_within_24h(reservation)
            or reason == "airline_cancelled_flight"
            or reservation["cabin"] == "business"
            or (reservation["insurance"] and reason in ("health", "weather"))
        )
        if not allowed:
            raise ToolError(
                "cancellation not allowed: booked over 24 hours ago, not business, "
                "and no airline cancellation or insured reason"
            )
        user = self.row("users", reservation["user_id"], "user")
        for payment in [p for p in reservation["payment_history"] if p["amount"] > 0]:
            method = user["payment_methods"].get(payment["payment_id"])
            if method is not None and method["source"] != "certificate":
                reservation["payment_history"].append(
                    self.pay(reservation["user_id"], payment["payment_id"], -payment["amount"])
                )
        self.move_seats(reservation["flights"], reservation["cabin"], -len(reservation["passengers"]))
        reservation.update(status="cancelled", cancel_reason=reason)
        return reservation

    @tool(
        f"Give a user a travel certificate of the given amount (at most {MAX_CERTIFICATE}) as compensation.",
        params({"user_id": ID, "amount": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_CERTIFICATE}}),
        access="write",
    )
    def send_certificate(self, user_id: str, amount: float) -> str:
        user = self.edit("users", user_id, "user")
        number = self.new_id(lambda n: f"certificate_{n}" in user["payment_methods"], user_id, amount)
        method_id = f"certificate_{number}"
        user["payment_methods"][method_id] = {"id": method_id, "source": "certificate", "amount": money(amount)}
        return f"Certificate {method_id} of {money(amount):.2f} added to user {user_id}"
