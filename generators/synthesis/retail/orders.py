"""What every retail goal needs: the user's identity, their orders, a goal on one order, money and addresses."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from environments.names import CITIES, STREETS
from generators.synthesis.fuzzify import describe_order, describe_user
from generators.synthesis.goals import Goal, GoalSpec, Identity, Reference, World, call, delta

ADDRESS_FIELDS = ("address1", "address2", "city", "state", "country", "zip")


def identify(world: World, user_id: str, rng: random.Random) -> Identity:
    """Email or name + zip; the lookup verifies the user, the profile lists their orders."""
    user = world.row("users", user_id)
    ref = describe_user(world, user_id, rng)[0]
    query = {k: v for k, v in ref.query.items() if k != "by"}
    lookup = "find_user_id_by_email" if ref.query["by"] == "email" else "find_user_id_by_name_zip"
    return Identity(
        user_id=user_id,
        name=f"{user['name']['first_name']} {user['name']['last_name']}",
        known_info=dict(query),
        actions=[call(lookup, **query), call("get_user_details", user_id=user_id)],
        references=[ref],
    )


def orders_of(world: World, user_id: str, *statuses: str) -> list[str]:
    return [oid for oid in world.row("users", user_id)["orders"] if world.row("orders", oid)["status"] in statuses]


def order_goal(
    world: World,
    spec: GoalSpec,
    params: dict[str, Any],
    rng: random.Random,
    *,
    request: str,
    summary: str,
    reply: str,
    constraints: list[dict],
    known_info: dict[str, str] | None = None,
    unknown_info: Sequence[str] = (),
    references: Sequence[Reference] = (),
    core: int = 1,
    writes: Sequence[str] = (),
    products: Sequence[str] = (),
) -> Goal:
    """A goal about one order (``params["order_id"]``): the order's description replaces ``{order}`` in the
    texts. The gold looks through the user's orders up to the one described (a user names an order by
    what is in it, not by its id), reads the ``products`` whose variants it will choose from, then, for
    a write goal, calls the write tool with ``params``."""
    oid = params["order_id"]
    ref = describe_order(world, oid, rng)
    owned = world.row("users", world.row("orders", oid)["user_id"])["orders"]
    looked_at = owned[: owned.index(oid) + 1] if oid in owned else [oid]
    reads = [call("get_order_details", order_id=o) for o in looked_at]
    reads += [call("get_product_details", product_id=p) for p in dict.fromkeys(products)]
    write = [call(spec.kind, **params)] if spec.outcome == "write" else []
    return Goal(
        kind=spec.kind,
        outcome=spec.outcome,
        params=params,
        request=request.replace("{order}", ref.text),
        summary=summary.replace("{order}", ref.text),
        known_info={"order": ref.text, **(known_info or {})},
        unknown_info=["the order id", *unknown_info],
        actions=[*reads, *write],
        reply=reply,
        constraints=constraints,
        core=core,
        writes=list(writes),
        reads=[] if write else [f"orders.{oid}"],
        references=[ref, *references],
    )


def gift_card_deltas(world: World, user_id: str, moves: dict[str, float], cid: str) -> list[dict]:
    """A balance delta per gift card among ``moves`` ({method id: amount credited}); other methods move no balance."""
    methods = world.row("users", user_id)["payment_methods"]
    return [
        delta(f"{cid}_{mid}", f"users.{user_id}.payment_methods.{mid}.balance", amount)
        for mid, amount in sorted(moves.items())
        if methods[mid]["source"] == "gift_card" and round(amount, 2) != 0
    ]


def new_address(rng: random.Random) -> dict[str, str]:
    city, state, zip_prefix = rng.choice(CITIES)
    return {
        "address1": f"{rng.randint(1, 9999)} {rng.choice(STREETS)}",
        "address2": rng.choice(("", f"Apt {rng.randint(1, 400)}")),
        "city": city,
        "state": state,
        "country": "USA",
        "zip": f"{zip_prefix}{rng.randint(0, 99):02d}",
    }


def address_text(address: dict[str, str]) -> str:
    street = ", ".join(part for part in (address["address1"], address["address2"]) if part)
    return f"{street}, {address['city']}, {address['state']} {address['zip']}, {address['country']}"
