"""The airline Domain: its goal kinds (reads, writes, refusals), identity, twists, exploration policy."""

from __future__ import annotations

import random

from environments.airline.generator import CABINS
from environments.airline.reservation_actions import CANCEL_REASONS
from environments.tool_world import ToolWorld
from generators.synthesis.airline.conditions import CONDITION_SPECS
from generators.synthesis.airline.facts import shifted_dob
from generators.synthesis.airline.reads import READ_SPECS, identify
from generators.synthesis.airline.refusals import REFUSAL_SPECS, TWISTS
from generators.synthesis.airline.writes import WRITE_SPECS
from generators.synthesis.goals import Domain, World, call


def explore_step(world: World, env: ToolWorld, user_id: str, rng: random.Random) -> dict:
    """One call of the random valid-argument policy, with arguments drawn from the user's current rows."""
    user = env.find("users", user_id)
    arguments = {
        "get_user_details": lambda: {"user_id": user_id},
        "send_certificate": lambda: {"user_id": user_id, "amount": float(rng.choice((50, 100, 150)))},
    }
    if user["reservations"]:
        res = env.find("reservations", rng.choice(user["reservations"]))
        rid, leg = res["reservation_id"], rng.choice(res["flights"])
        method = rng.choice(sorted(user["payment_methods"]))
        passengers = [dict(p) for p in res["passengers"]]
        passengers[0]["dob"] = shifted_dob(passengers[0]["dob"], rng)
        arguments |= {
            "get_reservation_details": lambda: {"reservation_id": rid},
            "get_flight_details": lambda: {"flight_number": leg["flight_number"], "date": leg["date"]},
            "update_reservation_baggages": lambda: {
                "reservation_id": rid,
                "total_baggages": res["total_baggages"] + rng.randint(0, 2),
                "payment_id": method,
            },
            "update_reservation_cabin": lambda: {
                "reservation_id": rid,
                "cabin": rng.choice(CABINS),
                "payment_id": method,
            },
            "update_reservation_passengers": lambda: {"reservation_id": rid, "passengers": passengers},
            "cancel_reservation": lambda: {"reservation_id": rid, "reason": rng.choice(CANCEL_REASONS)},
        }
    name = rng.choice(sorted(arguments))
    return call(name, **arguments[name]())


DOMAIN = Domain(
    name="airline",
    specs={spec.kind: spec for spec in [*READ_SPECS, *WRITE_SPECS, *REFUSAL_SPECS, *CONDITION_SPECS]},
    identify=identify,
    twists=TWISTS,
    write_goals={spec.kind: spec.kind for spec in WRITE_SPECS},
    explore_step=explore_step,
)
