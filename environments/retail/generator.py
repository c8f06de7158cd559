"""A seeded retail database: products with variants, users with payment methods, orders.

`generate_retail_db(users, seed)` is deterministic: the same arguments give the
same database (and state hash) on every run and machine. Tables:

- products: {product_id: {product_id, name, variants: {item_id: {item_id, options, available, price}}}}
- users: {user_id: {user_id, name: {first_name, last_name}, email, address, payment_methods: {id: method}, orders: [order_id]}}
  method: {id, source: gift_card|credit_card|paypal, ...}; gift cards carry a balance, credit cards brand and last_four.
- orders: {order_id: {order_id, user_id, address, items: [{item_id, product_id, name, options, price}],
  status, fulfillments: [{tracking_id, item_ids}], payment_history: [{kind: payment|refund, payment_method_id, amount}]}}
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from environments.names import CITIES, EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES, STREETS
from environments.random_ids import UniqueIds
from environments.retail.catalog import PRODUCT_TYPES

ORDER_STATUS_WEIGHTS = {"pending": 30, "processed": 15, "delivered": 45, "cancelled": 10}
CARD_BRANDS = ("visa", "mastercard", "amex", "discover")


def _products(rng: random.Random, ids: UniqueIds) -> dict[str, Any]:
    products = {}
    for name, ((low, high), options) in PRODUCT_TYPES.items():
        combos = list(itertools.product(*options.values()))
        chosen = rng.sample(combos, k=max(2, (len(combos) * 2) // 3))
        variants = {}
        for combo in chosen:
            item_id = ids.new("", 10)
            variants[item_id] = {
                "item_id": item_id,
                "options": dict(zip(options, combo)),
                "available": rng.random() < 0.8,
                "price": round(rng.uniform(low, high), 2),
            }
        product_id = ids.new("", 10)
        products[product_id] = {"product_id": product_id, "name": name, "variants": variants}
    return products


def _address(rng: random.Random) -> dict[str, str]:
    city, state, zip_prefix = rng.choice(CITIES)
    return {
        "address1": f"{rng.randint(1, 9999)} {rng.choice(STREETS)}",
        "address2": rng.choice(("", f"Apt {rng.randint(1, 400)}", f"Suite {rng.randint(100, 999)}")),
        "city": city,
        "state": state,
        "country": "USA",
        "zip": f"{zip_prefix}{rng.randint(0, 99):02d}",
    }


def _payment_methods(rng: random.Random, ids: UniqueIds) -> dict[str, Any]:
    methods = {}
    for source in rng.sample(("gift_card", "credit_card", "paypal"), k=rng.randint(1, 3)):
        method_id = ids.new(f"{source}_", 7)
        method: dict[str, Any] = {"id": method_id, "source": source}
        if source == "gift_card":
            method["balance"] = float(rng.randint(0, 300))
        elif source == "credit_card":
            method.update(brand=rng.choice(CARD_BRANDS), last_four=f"{rng.randint(0, 9999):04d}")
        methods[method_id] = method
    return methods


def _user(rng: random.Random, ids: UniqueIds, name_zips: set) -> dict[str, Any]:
    while True:
        first, last, address = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES), _address(rng)
        if (first, last, address["zip"]) not in name_zips:  # name + zip identifies a user
            name_zips.add((first, last, address["zip"]))
            break
    user_id = ids.new(f"{first.lower()}_{last.lower()}_", 4)
    return {
        "user_id": user_id,
        "name": {"first_name": first, "last_name": last},
        "email": f"{first.lower()}.{last.lower()}{user_id[-4:]}@{rng.choice(EMAIL_DOMAINS)}",
        "address": address,
        "payment_methods": _payment_methods(rng, ids),
        "orders": [],
    }


def _order(rng: random.Random, ids: UniqueIds, user: dict, catalog: list[tuple[dict, dict]]) -> dict[str, Any]:
    status = rng.choices(list(ORDER_STATUS_WEIGHTS), weights=list(ORDER_STATUS_WEIGHTS.values()))[0]
    items = []
    for product, variant in rng.sample(catalog, k=rng.randint(1, 4)):
        items.append(
            {
                "item_id": variant["item_id"],
                "product_id": product["product_id"],
                "name": product["name"],
                "options": dict(variant["options"]),
                "price": variant["price"],
            }
        )
    total = round(sum(item["price"] for item in items), 2)
    method_id = rng.choice(sorted(user["payment_methods"]))
    history = [{"kind": "payment", "payment_method_id": method_id, "amount": total}]
    order: dict[str, Any] = {
        "order_id": ids.new("#R", 7),
        "user_id": user["user_id"],
        "address": dict(user["address"]),
        "items": items,
        "status": status,
        "fulfillments": [],
        "payment_history": history,
    }
    if status in ("processed", "delivered"):
        order["fulfillments"] = [{"tracking_id": ids.new("TRK", 10), "item_ids": [i["item_id"] for i in items]}]
    if status == "cancelled":
        order["cancel_reason"] = rng.choice(("no longer needed", "ordered by mistake"))
        history.append({"kind": "refund", "payment_method_id": method_id, "amount": total})
    return order


def generate_retail_db(users: int = 500, seed: int = 0) -> dict[str, dict[str, Any]]:
    if users < 1:
        raise ValueError("users must be at least 1")
    rng = random.Random(f"retail:{seed}")
    ids = UniqueIds(rng)
    products = _products(rng, ids)
    catalog = [(p, v) for p in products.values() for v in p["variants"].values()]
    user_rows, orders, name_zips = {}, {}, set()
    for _ in range(users):
        user = _user(rng, ids, name_zips)
        for _ in range(rng.randint(1, 4)):
            order = _order(rng, ids, user, catalog)
            orders[order["order_id"]] = order
            user["orders"].append(order["order_id"])
        user_rows[user["user_id"]] = user
    return {"products": products, "users": user_rows, "orders": orders}
