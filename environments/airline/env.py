"""The airline tool world: search flights, book, change and cancel reservations, certificates.

What the code enforces (the rest of policy.md is for verifiers to check):

- Bookings: flights exist on the date, are `available` with enough seats in the
  cabin, connect from origin to destination (and back for round trips); 1-5
  passengers; payment methods are the user's own, at most 1 certificate, 1
  credit card and 3 gift cards, balances cover the amounts, and the amounts add
  up to the exact price (fares + insurance + bag fees).
- Changes and cancellations: reservation is active and nothing in it has flown;
  basic economy keeps its flights; origin, destination and trip type stay; the
  passenger count stays; bags can only be added; cancellation only when one of
  the policy's reasons holds (booked within 24 h, an airline-cancelled flight,
  business cabin, insurance with a health or weather reason).
- Money: differences are paid from or refunded to one credit card or gift card
  of the user; gift cards are debited/credited at once; used certificates are
  consumed and never refunded.

The airline has no identity lookup: the user gives their user id (policy).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from environments.airline.booking import AirlineBookingTools
from environments.airline.generator import generate_airline_db
from environments.airline.reservation_actions import AirlineReservationTools
from environments.common_tools import CustomerServiceTools
from environments.tool_world import ToolError, UserDatabaseWorld, params, tool

POLICY = (Path(__file__).parent / "policy.md").read_text()
# What a small learner is shown instead (generators/rollouts/agent_prompt.py, rendering "compact").
COMPACT_POLICY = (Path(__file__).parent / "policy_compact.md").read_text()
DATE = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$", "description": "YYYY-MM-DD"}
AIRPORT = {"type": "string", "description": "IATA code, e.g. SEA"}


class AirlineWorld(AirlineBookingTools, AirlineReservationTools, CustomerServiceTools, UserDatabaseWorld):
    """Airline reservations: flights by date with seats and fares, bookings, changes, refunds."""

    name = "airline"
    policy = POLICY
    compact_policy = COMPACT_POLICY
    # No identity lookup: the user gives their user id (policy), so a call's user id must come from the user.
    account_tools = frozenset({"get_user_details", "get_reservation_details"})
    fact_groups = (
        ("regular", "silver", "gold"),
        ("basic economy", "economy", "business"),
        ("available", "on time", "delayed", "flying", "landed", "cancelled"),
    )
    fact_terms = tuple(term for group in fact_groups for term in group)
    money_keys = frozenset({"amount", "balance"})
    action_words = {
        "book_reservation": ("book", "booking", "reserve"),
        "update_reservation_flights": ("rebook", "change", "switch", "move", "swap", "replace", "flight", "flights"),
        "update_reservation_cabin": ("cabin", "upgrade", "downgrade", "business", "economy", "basic economy"),
        "update_reservation_passengers": (
            "passenger",
            "passengers",
            "name",
            "date of birth",
            "birth",
            "born",
            "birthday",
            "dob",
            "traveler",
        ),
        "update_reservation_baggages": ("bag", "bags", "baggage", "baggages", "luggage", "suitcase", "suitcases"),
        "cancel_reservation": ("cancel", "cancellation", "cancelling", "canceling", "cancelled", "canceled"),
        "send_certificate": ("certificate", "compensation", "voucher", "travel credit"),
    }
    object_words = frozenset({"flight", "flights", "passenger", "passengers", "name", "traveler"})
    phrasings = {
        "24 hours": (
            r"\b24[- ]hours?\b",
            r"\btwenty[- ]four[- ]hours?\b",
            r"\b(?:within|in|more than|over|under|less than) (?:a|one|1) day\b",
            r"\b(?:a|one) day (?:ago|old)\b",
        ),
        "only be added": (
            r"\bcan only (?:be )?add",
            r"\b(?:can ?not|can'?t|never|not|won'?t) (?:be )?(?:remov|tak(?:e|en) (?:away|off)|reduc|lower|decreas)",
            r"\bcan be added but (?:not|never)",
            r"\b(?:removing|removal|reducing)\b[^.]{0,50}\b(?:not (?:possible|allowed|permitted)|isn'?t (?:possible|"
            r"allowed)|can'?t|cannot)",
            r"\b(?:only|just) (?:go up|increase|grow)",
        ),
        "number of passengers": (
            r"\bnumber of (?:passengers|travell?ers|people)",
            r"\bpassenger count\b",
            r"\b(?:add|adding|remove|removing) (?:a |an |another |one more |extra )?(?:passenger|travell?er|person)",
            r"\bhow many (?:passengers|people|travell?ers)",
            r"\b(?:more|fewer|extra) (?:passengers|travell?ers|people)",
            r"\bpassengers? (?:can ?not|can'?t|cannot) be (?:added|removed)",
        ),
        "regular": (
            r"\bnot (?:a )?(?:silver|gold)(?: or (?:silver|gold))?(?: member)?",
            r"\b(?:only|just) (?:for |to )?(?:silver|gold) (?:or|and) (?:silver|gold)",
        ),
        "cancelled": (r"\bcanceled\b",),
    }

    generate_db = staticmethod(generate_airline_db)

    def now(self) -> datetime:
        return datetime.fromisoformat(self.row("meta", "clock", "meta")["now"])

    def flight_date(self, flight_number: str, day: str) -> tuple[dict, dict]:
        flight = self.row("flights", flight_number, "flight")
        entry = flight["dates"].get(day)
        if entry is None:
            raise ToolError(f"flight '{flight_number}' does not fly on {day}")
        return flight, entry

    @tool(
        "Get a user's profile: name, email, date of birth, membership, payment methods and reservation ids.",
        params({"user_id": {"type": "string"}}),
    )
    def get_user_details(self, user_id: str) -> dict:
        return self.row("users", user_id, "user")

    @tool(
        "Get a reservation: route, trip type, cabin, flights with prices, passengers, payments, bags, insurance.",
        params({"reservation_id": {"type": "string"}}),
    )
    def get_reservation_details(self, reservation_id: str) -> dict:
        return self.row("reservations", reservation_id, "reservation")

    @tool(
        "Get a flight's route and times and, for one date, its status, free seats and prices per cabin.",
        params({"flight_number": {"type": "string"}, "date": DATE}),
    )
    def get_flight_details(self, flight_number: str, date: str) -> dict:
        flight, entry = self.flight_date(flight_number, date)
        return {**{k: v for k, v in flight.items() if k != "dates"}, "date": date, **entry}

    @tool("List the airports the airline serves.")
    def list_all_airports(self) -> list[str]:
        return sorted({flight["origin"] for _, flight in self.rows("flights")})

    def _bookable(self, origin: str, day: str) -> list[dict]:
        found = []
        for number, flight in self.rows("flights"):
            entry = flight["dates"].get(day)
            if flight["origin"] == origin and entry and entry["status"] == "available":
                found.append(self.get_flight_details(number, day))
        return found

    @tool(
        "Search bookable direct flights from origin to destination on a date.",
        params({"origin": AIRPORT, "destination": AIRPORT, "date": DATE}),
    )
    def search_direct_flight(self, origin: str, destination: str, date: str) -> list[dict]:
        return [f for f in self._bookable(origin, date) if f["destination"] == destination]

    @tool(
        "Search bookable one-stop connections (same day, at least 1 hour to connect) from origin to destination.",
        params({"origin": AIRPORT, "destination": AIRPORT, "date": DATE}),
    )
    def search_onestop_flight(self, origin: str, destination: str, date: str) -> list[list[dict]]:
        pairs = []
        for first in self._bookable(origin, date):
            if first["destination"] == destination:
                continue
            for second in self._bookable(first["destination"], date):
                layover = _minutes(second["departure_time"]) - _minutes(first["arrival_time"])
                if second["destination"] == destination and layover >= 60:
                    pairs.append([first, second])
        return pairs

    def booked_within_24h(self, reservation: dict) -> bool:
        return self.now() - datetime.fromisoformat(reservation["created_at"]) <= timedelta(hours=24)


def _minutes(clock: str) -> int:
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)
