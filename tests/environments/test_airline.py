"""Airline tool world: every tool's success and error paths, fare rules, generator, DB files."""

from __future__ import annotations

import pytest

from environments.airline.env import AirlineWorld
from environments.airline.generator import generate_airline_db
from environments.airline.rules import BAG_FEE, FREE_BAGS
from environments.db_files import load_db, save_db
from tests.environments.tool_calls import refused, succeed


@pytest.fixture
def env() -> AirlineWorld:
    return AirlineWorld(users=500, seed=0)


def _tables(env):
    return env.snapshot().tables


def _status(env, leg):
    return _tables(env)["flights"][leg["flight_number"]]["dates"][leg["date"]]["status"]


def _reservations(env, **match):
    """Active reservations of the seed-0 DB whose flights are all bookable and that match the fields."""
    for reservation in _tables(env)["reservations"].values():
        if (
            reservation["status"] == "active"
            and all(_status(env, leg) == "available" for leg in reservation["flights"])
            and all(reservation[k] == v for k, v in match.items())
        ):
            yield reservation


def _card(env, user_id, source="credit_card"):
    return next(m for m in _tables(env)["users"][user_id]["payment_methods"].values() if m["source"] == source)


def _seats(env, leg, cabin):
    return env.state()["flights"][leg["flight_number"]]["dates"][leg["date"]]["seats"][cabin]


def _bookable(env, cabin="economy", seats=1):
    """A (flight, date) with free seats in the cabin, not on any reservation (so seat counts are clean)."""
    for _number, flight in _tables(env)["flights"].items():
        for day, entry in flight["dates"].items():
            if entry["status"] == "available" and entry["seats"][cabin] >= seats:
                return flight, day


# ---- reads -----------------------------------------------------------------------------
def test_reads_and_searches(env):
    flight, day = _bookable(env)
    details = succeed(env, "get_flight_details", flight_number=flight["flight_number"], date=day)
    assert details["status"] == "available" and details["origin"] == flight["origin"]
    assert details["prices"] == flight["dates"][day]["prices"]
    direct = succeed(env, "search_direct_flight", origin=flight["origin"], destination=flight["destination"], date=day)
    assert flight["flight_number"] in [f["flight_number"] for f in direct]
    assert all(f["status"] == "available" for f in direct)
    assert succeed(env, "list_all_airports")[:3] == ["ATL", "BOS", "CLT"]
    user = next(iter(_tables(env)["users"].values()))
    assert succeed(env, "get_user_details", user_id=user["user_id"])["membership"] == user["membership"]
    reservation_id = next(iter(_tables(env)["reservations"]))
    assert succeed(env, "get_reservation_details", reservation_id=reservation_id)["reservation_id"] == reservation_id
    assert refused(env, "get_flight_details", flight_number="ZA1", date=day) == "flight 'ZA1' not found"
    assert (
        refused(env, "get_flight_details", flight_number=flight["flight_number"], date="2030-01-01")
        == f"flight '{flight['flight_number']}' does not fly on 2030-01-01"
    )
    assert refused(env, "get_flight_details", flight_number=flight["flight_number"], date="tomorrow").startswith(
        "invalid arguments for get_flight_details: argument 'date' is invalid"
    )
    assert refused(env, "get_reservation_details", reservation_id="NOPE") == "reservation 'NOPE' not found"


def test_onestop_search_connects_with_an_hour_to_spare(env):
    found = []
    for origin in ("SEA", "BOS", "ATL", "DEN"):
        for destination in ("MIA", "LAX", "JFK", "ORD"):
            if origin != destination:
                found += succeed(
                    env, "search_onestop_flight", origin=origin, destination=destination, date="2025-06-20"
                )
    assert found
    for first, second in found:
        assert first["destination"] == second["origin"] and first["date"] == second["date"] == "2025-06-20"
        assert second["departure_time"] >= first["arrival_time"]


# ---- booking ---------------------------------------------------------------------------
def _booking(env, user, flight, day, cabin="economy", passengers=1, bags=0, insurance=False, pay=None):
    price = flight["dates"][day]["prices"][cabin]
    extra = max(0, bags - FREE_BAGS[user["membership"]][cabin] * passengers)
    total = passengers * (price + 25 * insurance) + BAG_FEE * extra
    people = [{"first_name": "Ada", "last_name": "Berg", "dob": "1990-01-01"}] * passengers
    return {
        "user_id": user["user_id"],
        "origin": flight["origin"],
        "destination": flight["destination"],
        "trip_type": "one_way",
        "cabin": cabin,
        "flights": [{"flight_number": flight["flight_number"], "date": day}],
        "passengers": people,
        "payment_methods": pay or [{"payment_id": _card(env, user["user_id"])["id"], "amount": total}],
        "total_baggages": bags,
        "insurance": insurance,
    }


def test_book_takes_seats_charges_and_is_replayable(env):
    user = next(u for u in _tables(env)["users"].values() if u["membership"] == "regular")
    flight, day = _bookable(env, seats=2)
    arguments = _booking(env, user, flight, day, passengers=2, bags=3, insurance=True)
    seats = _seats(env, {"flight_number": flight["flight_number"], "date": day}, "economy")
    reservation = succeed(env, "book_reservation", **arguments)
    price = flight["dates"][day]["prices"]["economy"]
    assert reservation["payment_history"][0]["amount"] == 2 * (price + 25) + BAG_FEE * 1  # 2 free bags, 1 paid
    assert reservation["nonfree_baggages"] == 1 and reservation["status"] == "active"
    assert _seats(env, reservation["flights"][0], "economy") == seats - 2
    assert reservation["reservation_id"] in env.state()["users"][user["user_id"]]["reservations"]
    replay = AirlineWorld(users=500, seed=0)
    assert replay.call("book_reservation", arguments).content["reservation_id"] == reservation["reservation_id"]
    assert replay.state_hash() == env.state_hash()


def test_book_refusals(env):
    user = next(
        u
        for u in _tables(env)["users"].values()  # a gift card too small for any fare
        if any(m["source"] == "gift_card" and m["balance"] < 50 for m in u["payment_methods"].values())
    )
    flight, day = _bookable(env)
    good = _booking(env, user, flight, day)
    total = good["payment_methods"][0]["amount"]
    card, gift = _card(env, user["user_id"]), _card(env, user["user_id"], "gift_card")
    assert (
        refused(env, "book_reservation", **{**good, "payment_methods": [{"payment_id": card["id"], "amount": 1}]})
        == f"payments add up to 1.00 but the total is {total:.2f}"
    )
    assert (
        refused(
            env, "book_reservation", **{**good, "payment_methods": [{"payment_id": "credit_card_0", "amount": total}]}
        )
        == "payment method 'credit_card_0' is not in the user's profile"
    )
    split = [{"payment_id": card["id"], "amount": total / 2}, {"payment_id": card["id"], "amount": total / 2}]
    assert (
        refused(env, "book_reservation", **{**good, "payment_methods": split})
        == "at most 1 credit card payment(s) per reservation"
    )
    assert (
        refused(env, "book_reservation", **{**good, "payment_methods": [{"payment_id": gift["id"], "amount": total}]})
        == f"gift card '{gift['id']}' balance {gift['balance']:.2f} does not cover {total:.2f}"
    )
    assert refused(env, "book_reservation", **{**good, "destination": "XXX"}) == "the last flight must arrive at XXX"
    assert refused(env, "book_reservation", **{**good, "passengers": good["passengers"] * 6}).startswith(
        "invalid arguments for book_reservation: argument 'passengers' is invalid"
    )
    landed = next(d for d, e in flight["dates"].items() if e["status"] == "landed")
    assert (
        refused(
            env, "book_reservation", **{**good, "flights": [{"flight_number": flight["flight_number"], "date": landed}]}
        )
        == f"flight '{flight['flight_number']}' on {landed} is landed and cannot be booked"
    )
    full_flight, full_day = next(
        (f, d)
        for f in _tables(env)["flights"].values()
        for d, e in f["dates"].items()
        if e["status"] == "available" and e["seats"]["business"] == 0
    )
    assert (
        refused(env, "book_reservation", **_booking(env, user, full_flight, full_day, cabin="business"))
        == f"flight '{full_flight['flight_number']}' on {full_day} has 0 free business seats"
    )


def test_a_certificate_pays_part_of_a_booking_and_is_used_up(env):
    user = next(
        u
        for u in _tables(env)["users"].values()
        if any(m["source"] == "certificate" for m in u["payment_methods"].values())
    )
    certificate, card = _card(env, user["user_id"], "certificate"), _card(env, user["user_id"])
    flight, day = _bookable(env, cabin="business")
    total = _booking(env, user, flight, day, cabin="business")["payment_methods"][0]["amount"]
    from_certificate = min(certificate["amount"], total)
    payments = [{"payment_id": certificate["id"], "amount": from_certificate}]
    payments += [{"payment_id": card["id"], "amount": total - from_certificate}] if total > from_certificate else []
    reservation = succeed(env, "book_reservation", **_booking(env, user, flight, day, cabin="business", pay=payments))
    assert [p["payment_id"] for p in reservation["payment_history"]] == [p["payment_id"] for p in payments]
    assert certificate["id"] not in env.state()["users"][user["user_id"]]["payment_methods"]
    refund = succeed(env, "cancel_reservation", reservation_id=reservation["reservation_id"], reason="change_of_plan")
    assert certificate["id"] not in [p["payment_id"] for p in refund["payment_history"][len(payments) :]]


# ---- changes ---------------------------------------------------------------------------
def _alternative(env, reservation):
    """Another bookable flight/date on the same one-way route."""
    leg = reservation["flights"][0]
    for number, flight in _tables(env)["flights"].items():
        if (flight["origin"], flight["destination"]) == (leg["origin"], leg["destination"]):
            for day, entry in flight["dates"].items():
                if (
                    entry["status"] == "available"
                    and (number, day) != (leg["flight_number"], leg["date"])
                    and entry["seats"][reservation["cabin"]] >= len(reservation["passengers"])
                ):
                    return flight, day


def test_change_flights_settles_the_fare_difference(env):
    reservation = next(r for r in _reservations(env, trip_type="one_way", cabin="economy") if _alternative(env, r))
    flight, day = _alternative(env, reservation)
    card = _card(env, reservation["user_id"])
    count = len(reservation["passengers"])
    result = succeed(
        env,
        "update_reservation_flights",
        reservation_id=reservation["reservation_id"],
        flights=[{"flight_number": flight["flight_number"], "date": day}],
        payment_id=card["id"],
    )
    new_price = flight["dates"][day]["prices"]["economy"]
    assert result["flights"][0]["price"] == new_price
    difference = round(count * (new_price - reservation["flights"][0]["price"]), 2)
    assert result["payment_history"][-1] == {"payment_id": card["id"], "amount": difference}
    assert (
        _seats(env, reservation["flights"][0], "economy")
        == _tables(env)["flights"][reservation["flights"][0]["flight_number"]]["dates"][
            reservation["flights"][0]["date"]
        ]["seats"]["economy"]
        + count
    )


def test_change_flights_refusals(env):
    basic = next(r for r in _reservations(env, cabin="basic_economy"))
    card = _card(env, basic["user_id"])
    assert (
        refused(
            env,
            "update_reservation_flights",
            reservation_id=basic["reservation_id"],
            flights=[{"flight_number": leg["flight_number"], "date": leg["date"]} for leg in basic["flights"]],
            payment_id=card["id"],
        )
        == "basic economy reservations cannot change flights"
    )
    economy = next(r for r in _reservations(env, cabin="economy", trip_type="one_way"))
    wrong = next(f for f in _tables(env)["flights"].values() if f["origin"] != economy["origin"])
    day = next(d for d, e in wrong["dates"].items() if e["status"] == "available")
    assert (
        refused(
            env,
            "update_reservation_flights",
            reservation_id=economy["reservation_id"],
            flights=[{"flight_number": wrong["flight_number"], "date": day}],
            payment_id=_card(env, economy["user_id"])["id"],
        )
        == f"the first flight must leave from {economy['origin']}"
    )
    flown = next(
        r
        for r in _tables(env)["reservations"].values()
        if r["status"] == "active" and _status(env, r["flights"][0]) == "landed"
    )
    assert (
        refused(
            env, "update_reservation_passengers", reservation_id=flown["reservation_id"], passengers=flown["passengers"]
        )
        == f"flight '{flown['flights'][0]['flight_number']}' on {flown['flights'][0]['date']} has already flown; "
        "transfer to a human agent"
    )


def test_change_cabin_moves_seats_and_money(env):
    reservation = next(
        r
        for r in _reservations(env, cabin="economy")
        if all(
            _tables(env)["flights"][leg["flight_number"]]["dates"][leg["date"]]["seats"]["business"]
            >= len(r["passengers"])
            for leg in r["flights"]
        )
    )
    card = _card(env, reservation["user_id"])
    assert (
        refused(
            env,
            "update_reservation_cabin",
            reservation_id=reservation["reservation_id"],
            cabin="economy",
            payment_id=card["id"],
        )
        == f"reservation '{reservation['reservation_id']}' is already in economy"
    )
    result = succeed(
        env,
        "update_reservation_cabin",
        reservation_id=reservation["reservation_id"],
        cabin="business",
        payment_id=card["id"],
    )
    count = len(reservation["passengers"])
    business = sum(
        _tables(env)["flights"][leg["flight_number"]]["dates"][leg["date"]]["prices"]["business"]
        for leg in reservation["flights"]
    )
    assert result["cabin"] == "business"
    assert result["payment_history"][-1]["amount"] == round(
        count * (business - sum(leg["price"] for leg in reservation["flights"])), 2
    )


def test_passengers_can_change_but_not_their_number(env):
    reservation = next(_reservations(env))
    people = [
        {"first_name": f"P{i}", "last_name": "Test", "dob": "2000-01-01"} for i in range(len(reservation["passengers"]))
    ]
    assert (
        succeed(env, "update_reservation_passengers", reservation_id=reservation["reservation_id"], passengers=people)[
            "passengers"
        ]
        == people
    )
    assert (
        refused(
            env,
            "update_reservation_passengers",
            reservation_id=reservation["reservation_id"],
            passengers=people + people[:1],
        )
        == f"the number of passengers cannot change (it is {len(people)})"
    )


def test_bags_can_be_added_for_a_fee_but_not_removed(env):
    reservation = next(r for r in _reservations(env) if r["total_baggages"] > 0)
    user = _tables(env)["users"][reservation["user_id"]]
    card = _card(env, user["user_id"])
    free = FREE_BAGS[user["membership"]][reservation["cabin"]] * len(reservation["passengers"])
    total = max(reservation["total_baggages"], free) + 2
    result = succeed(
        env,
        "update_reservation_baggages",
        reservation_id=reservation["reservation_id"],
        total_baggages=total,
        payment_id=card["id"],
    )
    assert result["nonfree_baggages"] == total - free
    assert result["payment_history"][-1]["amount"] == BAG_FEE * (total - free - reservation["nonfree_baggages"])
    assert (
        refused(
            env,
            "update_reservation_baggages",
            reservation_id=reservation["reservation_id"],
            total_baggages=total,
            payment_id="credit_card_0",
        )
        == "payment method 'credit_card_0' is not in the user's profile"
    )
    assert (
        refused(
            env,
            "update_reservation_baggages",
            reservation_id=reservation["reservation_id"],
            total_baggages=0,
            payment_id=card["id"],
        )
        == f"checked bags cannot be removed (the reservation has {total})"
    )


# ---- cancellation and compensation -------------------------------------------------------
def test_cancel_business_refunds_and_frees_seats(env):
    reservation = next(_reservations(env, cabin="business"))
    leg = reservation["flights"][0]
    seats = _seats(env, leg, "business")
    result = succeed(env, "cancel_reservation", reservation_id=reservation["reservation_id"], reason="change_of_plan")
    paid = reservation["payment_history"][0]
    assert result["status"] == "cancelled"
    assert result["payment_history"][-1] == {"payment_id": paid["payment_id"], "amount": -paid["amount"]}
    assert _seats(env, leg, "business") == seats + len(reservation["passengers"])
    assert "is cancelled" in refused(
        env, "cancel_reservation", reservation_id=reservation["reservation_id"], reason="change_of_plan"
    )


def test_cancel_refusals(env):
    plain = next(r for r in _reservations(env, cabin="economy", insurance=False) if not env.booked_within_24h(r))
    assert (
        refused(env, "cancel_reservation", reservation_id=plain["reservation_id"], reason="change_of_plan")
        == "cancellation not allowed: booked over 24 hours ago, not business, and no airline cancellation or insured reason"
    )
    assert (
        refused(env, "cancel_reservation", reservation_id=plain["reservation_id"], reason="airline_cancelled_flight")
        == "no flight of this reservation was cancelled by the airline"
    )
    insured = next(r for r in _reservations(env, cabin="economy", insurance=True) if not env.booked_within_24h(r))
    assert (
        succeed(env, "cancel_reservation", reservation_id=insured["reservation_id"], reason="health")["status"]
        == "cancelled"
    )


def test_send_certificate(env):
    user = next(iter(_tables(env)["users"].values()))
    message = succeed(env, "send_certificate", user_id=user["user_id"], amount=100)
    methods = env.state()["users"][user["user_id"]]["payment_methods"]
    new = [m for m in methods.values() if m["id"] not in user["payment_methods"]]
    assert new == [{"id": new[0]["id"], "source": "certificate", "amount": 100.0}]
    assert message == f"Certificate {new[0]['id']} of 100.00 added to user {user['user_id']}"
    assert refused(env, "send_certificate", user_id=user["user_id"], amount=5000).startswith(
        "invalid arguments for send_certificate: argument 'amount' is invalid"
    )
    assert refused(env, "send_certificate", user_id="ghost", amount=50) == "user 'ghost' not found"


# ---- generator and DB files --------------------------------------------------------------
def test_generator_is_deterministic_per_seed():
    assert generate_airline_db(users=40, seed=5) == generate_airline_db(users=40, seed=5)
    assert AirlineWorld(users=40, seed=5).state_hash() == AirlineWorld(users=40, seed=5).state_hash()
    assert AirlineWorld(users=40, seed=5).state_hash() != AirlineWorld(users=40, seed=6).state_hash()


def test_db_round_trip(env, tmp_path):
    reservation = next(_reservations(env, cabin="business"))
    succeed(env, "cancel_reservation", reservation_id=reservation["reservation_id"], reason="other")
    path = save_db(env.state(), tmp_path / "airline.json")
    assert AirlineWorld(state=load_db(path)).state_hash() == env.state_hash()


def test_fifty_thousand_users():
    db = generate_airline_db(users=50_000, seed=0)
    assert len(db["users"]) == 50_000
    assert sum(len(u["reservations"]) for u in db["users"].values()) == len(db["reservations"])
    env = AirlineWorld(state=db)
    user = next(iter(db["users"].values()))
    assert succeed(env, "send_certificate", user_id=user["user_id"], amount=50).startswith("Certificate")
