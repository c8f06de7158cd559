"""Identifiers as a user knows them, and the indexed queries that check each description is unambiguous.

A user does not know ids: they know their email (or name and zip), which
items an order had, a product's name and options, "my visa ending in 4242".
Each ``describe_*`` tries descriptions from the vaguest to the most precise
and returns the first that ``resolve`` maps to exactly one row, as a
:class:`Reference` (text, query, key); when none does, it raises
``Rejected("ambiguous_<slot>")``. ``resolve`` only follows indexes (the
snapshot's lookup indexes, a user's own order/reservation list, a product's
variants), never scans a table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from generators.synthesis.goals import Reference, Rejected, World


def user_email(user: dict) -> str:
    return user["email"].lower()


def user_name_zip(user: dict) -> tuple[str, str, str]:
    return (user["name"]["first_name"].lower(), user["name"]["last_name"].lower(), user["address"]["zip"])


def options_text(options: dict[str, str]) -> str:
    return ", ".join(f"{name} {value}" for name, value in options.items())


def item_text(item: dict, with_options: bool) -> str:
    return f"{item['name']} ({options_text(item['options'])})" if with_options else item["name"]


def _matches(item: dict, wanted: dict) -> bool:
    return item["name"] == wanted["name"] and ("options" not in wanted or item["options"] == wanted["options"])


def _has_items(order: dict, wanted: list[dict]) -> bool:
    free = list(order["items"])
    for description in wanted:
        found = next((item for item in free if _matches(item, description)), None)
        if found is None:
            return False
        free.remove(found)
    return True


def _user_rows(world: World, user_id: str, table: str, column: str) -> list[tuple[str, dict]]:
    user = world.row("users", user_id)
    return [] if user is None else [(key, world.row(table, key)) for key in user[column]]


def _payment_matches(method: dict, query: dict) -> bool:
    return all(
        method.get(field) == query[field] for field in ("source", "brand", "last_four", "amount") if field in query
    )


RESOLVERS: dict[str, Callable[[World, dict], list[str]]] = {
    "email": lambda w, q: w.lookup("users", user_email, q["email"].lower()),
    "name_zip": lambda w, q: w.lookup(
        "users", user_name_zip, (q["first_name"].lower(), q["last_name"].lower(), q["zip"])
    ),
    "user_id": lambda w, q: [q["user_id"]] if w.row("users", q["user_id"]) is not None else [],
    "order_items": lambda w, q: [
        key
        for key, order in _user_rows(w, q["user_id"], "orders", "orders")
        if _has_items(order, q["items"]) and q.get("status", order["status"]) == order["status"]
    ],
    "order_item": lambda w, q: sorted(
        {item["item_id"] for item in w.row("orders", q["order_id"])["items"] if _matches(item, q)}
    ),
    "variant": lambda w, q: [
        key
        for key, variant in w.row("products", q["product_id"])["variants"].items()
        if variant["options"] == q["options"]
    ],
    "payment": lambda w, q: [
        key for key, method in w.row("users", q["user_id"])["payment_methods"].items() if _payment_matches(method, q)
    ],
    "trip": lambda w, q: [
        key
        for key, res in _user_rows(w, q["user_id"], "reservations", "reservations")
        if (res["origin"], res["destination"], res["flights"][0]["date"]) == (q["origin"], q["destination"], q["date"])
    ],
    "reservation_id": lambda w, q: [
        key for key, _ in _user_rows(w, q["user_id"], "reservations", "reservations") if key == q["reservation_id"]
    ],
}


def resolve(world: World, query: dict[str, Any]) -> list[str]:
    """The keys of the rows a description's query matches (a unique description matches one)."""
    return RESOLVERS[query["by"]](world, query)


def first_unique(world: World, slot: str, key: str, candidates: Iterable[tuple[str, dict]]) -> Reference:
    """The first (text, query) candidate that resolves to exactly ``key``, else ``Rejected("ambiguous_<slot>")``."""
    for text, query in candidates:
        if resolve(world, query) == [key]:
            return Reference(slot=slot, text=text, query=query, key=key)
    raise Rejected(f"ambiguous_{slot}", f"no description of {key} resolves uniquely")


# ---- the descriptions ---------------------------------------------------------------------
def describe_user(world: World, user_id: str, rng: random.Random) -> list[Reference]:
    """Email, or first name + last name + zip (in random order of preference)."""
    user = world.row("users", user_id)
    first, last, zip_code = user["name"]["first_name"], user["name"]["last_name"], user["address"]["zip"]
    by_email = (user["email"], {"by": "email", "email": user["email"]})
    by_name = (
        f"{first} {last}, zip {zip_code}",
        {"by": "name_zip", "first_name": first, "last_name": last, "zip": zip_code},
    )
    candidates = [by_email, by_name] if rng.random() < 0.5 else [by_name, by_email]
    return [first_unique(world, "user", user_id, candidates)]


def describe_order(world: World, order_id: str, rng: random.Random) -> Reference:
    """ "the order with the Desk Lamp and the Yoga Mat": more items, then their options, then the status."""
    order = world.row("orders", order_id)
    items = list(order["items"])
    rng.shuffle(items)

    def candidates() -> Iterator[tuple[str, dict]]:  # lazily: the first one is nearly always unique
        for with_status in (False, True):
            for count in range(1, len(items) + 1):
                for with_options in (False, True):
                    chosen = items[:count]
                    wanted = [
                        {"name": i["name"], **({"options": i["options"]} if with_options else {})} for i in chosen
                    ]
                    query = {"by": "order_items", "user_id": order["user_id"], "items": wanted}
                    listed = " and the ".join(item_text(i, with_options) for i in chosen)
                    if with_status:
                        query["status"] = order["status"]
                    yield f"the {order['status'] + ' ' if with_status else ''}order with the {listed}", query

    return first_unique(world, "order", order_id, candidates())


def describe_item(world: World, order_id: str, item_id: str) -> Reference:
    item = next(i for i in world.row("orders", order_id)["items"] if i["item_id"] == item_id)
    candidates = [
        (item_text(item, with_options), {"by": "order_item", "order_id": order_id, "name": item["name"], **extra})
        for with_options, extra in ((False, {}), (True, {"options": item["options"]}))
    ]
    return first_unique(world, "item", item_id, candidates)


def describe_variant(world: World, product_id: str, item_id: str) -> Reference:
    """A variant by its full options (a user says what they want, not an id)."""
    product = world.row("products", product_id)
    options = product["variants"][item_id]["options"]
    query = {"by": "variant", "product_id": product_id, "options": options}
    return first_unique(world, "new_item", item_id, [(f"{product['name']} with {options_text(options)}", query)])


def payment_text(method: dict) -> str:
    source = method["source"]
    if source == "credit_card":
        return f"my {method['brand']} card ending in {method['last_four']}"
    if source == "certificate":
        return f"my travel certificate of ${method['amount']:.0f}"
    return {"gift_card": "my gift card", "paypal": "my PayPal account"}.get(source, source)


def yours(text: str) -> str:
    """A user's "my gift card" as the scenario addresses them: "your gift card"."""
    return "your " + text[3:] if text.startswith("my ") else text


def describe_payment(world: World, user_id: str, method_id: str) -> Reference:
    method = world.row("users", user_id)["payment_methods"][method_id]
    base = {"by": "payment", "user_id": user_id, "source": method["source"]}
    detail = {k: method[k] for k in ("brand", "last_four", "amount") if k in method}
    candidates = [(payment_text(method), {**base, **detail})]
    if detail:  # "my gift card" when the user has just one; the precise text otherwise
        candidates.insert(
            0, ({"credit_card": "my credit card", "certificate": "my travel certificate"}[method["source"]], base)
        )
    return first_unique(world, "payment", method_id, candidates)


def describe_reservation(world: World, reservation_id: str) -> Reference:
    """ "the trip from SEA to JFK on 2025-06-12"; users who book several such trips give the reservation id."""
    res = world.row("reservations", reservation_id)
    day = res["flights"][0]["date"]
    trip = {
        "by": "trip",
        "user_id": res["user_id"],
        "origin": res["origin"],
        "destination": res["destination"],
        "date": day,
    }
    by_id = {"by": "reservation_id", "user_id": res["user_id"], "reservation_id": reservation_id}
    candidates = [
        (f"the trip from {res['origin']} to {res['destination']} on {day}", trip),
        (f"reservation {reservation_id}", by_id),
    ]
    return first_unique(world, "reservation", reservation_id, candidates)
