"""A seeded airline database: flights by date, users with payment methods, reservations.

`generate_airline_db(users, seed)` is deterministic. Tables:

- meta: {"clock": {"now": "YYYY-MM-DDTHH:MM:SS"}}: the world's current time.
- flights: {flight_number: {flight_number, origin, destination, departure_time, arrival_time,
  dates: {date: {status, seats: {cabin: n} (only when available), prices: {cabin: dollars}}}}}
  status: available | cancelled (future), on time | delayed | flying | landed (today), landed | cancelled (past).
- users: {user_id: {user_id, name, email, dob, address, membership, payment_methods: {id: method}, reservations: [id]}}
  method: {id, source: credit_card (brand, last_four) | gift_card (balance) | certificate (amount)}.
- reservations: {reservation_id: {reservation_id, user_id, origin, destination, trip_type, cabin,
  flights: [{flight_number, date, origin, destination, price}], passengers: [{first_name, last_name, dob}],
  payment_history: [{payment_id, amount}], created_at, total_baggages, nonfree_baggages, insurance, status}}
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Any

from environments.airline.rules import BAG_FEE, INSURANCE_PER_PASSENGER, nonfree_bags
from environments.names import CITIES, EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES, STREETS
from environments.random_ids import UniqueIds

NOW = datetime(2025, 6, 10, 12, 0, 0)
FIRST_DATE, LAST_DATE = date(2025, 6, 3), date(2025, 6, 30)
AIRPORTS = ("SEA", "SFO", "LAX", "DEN", "ORD", "ATL", "JFK", "BOS", "MIA", "DFW", "PHX", "MSP", "PHL", "CLT")
CABINS = ("basic_economy", "economy", "business")
MEMBERSHIPS = ("regular", "silver", "gold")
CARD_BRANDS = ("visa", "mastercard", "amex")


def _dates() -> list[str]:
    return [(FIRST_DATE + timedelta(days=i)).isoformat() for i in range((LAST_DATE - FIRST_DATE).days + 1)]


def _date_status(rng: random.Random, day: str, departure: str) -> str:
    today = NOW.date().isoformat()
    if day < today:
        return "cancelled" if rng.random() < 0.03 else "landed"
    if day == today:
        departed = departure <= NOW.strftime("%H:%M")
        return rng.choice(("flying", "landed")) if departed else rng.choice(("on time", "delayed"))
    return "cancelled" if rng.random() < 0.04 else "available"


def _flights(rng: random.Random) -> dict[str, Any]:
    routes = [(a, b) for a in AIRPORTS for b in AIRPORTS if a != b]
    flights, number = {}, 100
    for origin, destination in sorted(rng.sample(routes, k=len(routes) // 2)):
        for _ in range(rng.randint(1, 2)):
            number += rng.randint(1, 7)
            depart = rng.randint(5, 20) * 60 + rng.choice((0, 15, 30, 45))
            arrive = min(depart + rng.randint(60, 330), 23 * 60 + 55)  # all flights land the same day
            base = rng.randint(60, 400)
            dates = {}
            for day in _dates():
                status = _date_status(rng, day, f"{depart // 60:02d}:{depart % 60:02d}")
                prices = {
                    "basic_economy": base + rng.randint(0, 40),
                    "economy": base + 60 + rng.randint(0, 120),
                    "business": base * 3 + rng.randint(0, 400),
                }
                entry: dict[str, Any] = {"status": status, "prices": prices}
                if status == "available":
                    entry["seats"] = {
                        "basic_economy": rng.randint(0, 20),
                        "economy": rng.randint(0, 40),
                        "business": rng.randint(0, 12),
                    }
                dates[day] = entry
            flights[f"ZA{number}"] = {
                "flight_number": f"ZA{number}",
                "origin": origin,
                "destination": destination,
                "departure_time": f"{depart // 60:02d}:{depart % 60:02d}",
                "arrival_time": f"{arrive // 60:02d}:{arrive % 60:02d}",
                "dates": dates,
            }
    return flights


def _user(rng: random.Random, ids: UniqueIds) -> dict[str, Any]:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    city, state, zip_prefix = rng.choice(CITIES)
    user_id = ids.new(f"{first.lower()}_{last.lower()}_", 4)
    methods: dict[str, Any] = {}
    for source in ["credit_card"] + rng.sample(("credit_card", "gift_card", "certificate"), k=rng.randint(0, 2)):
        method_id = ids.new(f"{source}_", 7)
        method: dict[str, Any] = {"id": method_id, "source": source}
        if source == "credit_card":
            method.update(brand=rng.choice(CARD_BRANDS), last_four=f"{rng.randint(0, 9999):04d}")
        elif source == "gift_card":
            method["balance"] = float(rng.randint(0, 400))
        else:
            method["amount"] = float(rng.choice((100, 150, 200, 250, 500)))
        methods[method_id] = method
    return {
        "user_id": user_id,
        "name": {"first_name": first, "last_name": last},
        "email": f"{first.lower()}.{last.lower()}{user_id[-4:]}@{rng.choice(EMAIL_DOMAINS)}",
        "dob": f"{rng.randint(1950, 2005)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "address": {
            "address1": f"{rng.randint(1, 9999)} {rng.choice(STREETS)}",
            "city": city,
            "state": state,
            "country": "USA",
            "zip": f"{zip_prefix}{rng.randint(0, 99):02d}",
        },
        "membership": rng.choices(MEMBERSHIPS, weights=(6, 3, 1))[0],
        "payment_methods": methods,
        "reservations": [],
    }


def _passengers(rng: random.Random, user: dict) -> list[dict[str, str]]:
    people = [{**user["name"], "dob": user["dob"]}]
    for _ in range(rng.choices((0, 1, 2), weights=(5, 3, 2))[0]):
        people.append(
            {
                "first_name": rng.choice(FIRST_NAMES),
                "last_name": user["name"]["last_name"],
                "dob": f"{rng.randint(1950, 2020)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            }
        )
    return people


def _segment(flight: dict, day: str, cabin: str) -> dict[str, Any]:
    return {
        "flight_number": flight["flight_number"],
        "date": day,
        "origin": flight["origin"],
        "destination": flight["destination"],
        "price": flight["dates"][day]["prices"][cabin],
    }


def _reservation(rng: random.Random, ids: UniqueIds, user: dict, flights: dict, by_route: dict) -> dict[str, Any]:
    outbound = flights[rng.choice(sorted(flights))]
    days = _dates()
    day_index = rng.randrange(len(days) - 2)
    cabin = rng.choices(CABINS, weights=(3, 5, 2))[0]
    legs = [_segment(outbound, days[day_index], cabin)]
    back = by_route.get((outbound["destination"], outbound["origin"]))
    trip_type = "round_trip" if back and rng.random() < 0.5 else "one_way"
    if trip_type == "round_trip":
        legs.append(_segment(flights[rng.choice(back)], days[day_index + rng.randint(1, 2)], cabin))
    passengers = _passengers(rng, user)
    created = min(
        datetime.fromisoformat(legs[0]["date"]) - timedelta(days=rng.randint(1, 20)),
        NOW - timedelta(hours=rng.randint(1, 240)),
    )
    insurance = rng.random() < 0.3
    bags = rng.randint(0, len(passengers) * 2)
    extra = nonfree_bags(user["membership"], cabin, len(passengers), bags)
    total = (
        len(passengers) * (sum(leg["price"] for leg in legs) + INSURANCE_PER_PASSENGER * insurance) + BAG_FEE * extra
    )
    pay_with = rng.choice(sorted(m for m, v in user["payment_methods"].items() if v["source"] != "certificate"))
    return {
        "reservation_id": ids.new("", 6).translate(str.maketrans("0123456789", "ABCDEFGHJK")),
        "user_id": user["user_id"],
        "origin": outbound["origin"],
        "destination": outbound["destination"],
        "trip_type": trip_type,
        "cabin": cabin,
        "flights": legs,
        "passengers": passengers,
        "payment_history": [{"payment_id": pay_with, "amount": float(total)}],
        "created_at": created.isoformat(timespec="seconds"),
        "total_baggages": bags,
        "nonfree_baggages": extra,
        "insurance": insurance,
        "status": "cancelled" if rng.random() < 0.05 else "active",
    }


def generate_airline_db(users: int = 500, seed: int = 0) -> dict[str, dict[str, Any]]:
    if users < 1:
        raise ValueError("users must be at least 1")
    rng = random.Random(f"airline:{seed}")
    ids = UniqueIds(rng)
    flights = _flights(rng)
    by_route: dict[tuple[str, str], list[str]] = {}
    for number, flight in flights.items():
        by_route.setdefault((flight["origin"], flight["destination"]), []).append(number)
    user_rows, reservations = {}, {}
    for _ in range(users):
        user = _user(rng, ids)
        for _ in range(rng.randint(0, 3)):
            reservation = _reservation(rng, ids, user, flights, by_route)
            reservations[reservation["reservation_id"]] = reservation
            user["reservations"].append(reservation["reservation_id"])
        user_rows[user["user_id"]] = user
    return {
        "meta": {"clock": {"now": NOW.isoformat(timespec="seconds")}},
        "flights": flights,
        "users": user_rows,
        "reservations": reservations,
    }
