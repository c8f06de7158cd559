"""Retail item swaps: exchange delivered items, or change pending ones, for other available variants.

The price difference is settled with a payment method the user names; a gift
card must cover what it pays. An exchange only records the request; changing
a pending order's items moves gift-card money at once and freezes the order.
"""

from __future__ import annotations

import random

from generators.synthesis.fuzzify import describe_item, describe_payment, describe_variant, yours
from generators.synthesis.goals import GoalSpec, Rejected, World, equals, money, not_called, says
from generators.synthesis.phrasings import phrase
from generators.synthesis.retail.orders import gift_card_deltas, order_goal, orders_of


def sample_swap(world: World, user_id: str, status: str, rng: random.Random) -> dict | None:
    """One or two items of an order swapped for other available variants, and a method that covers the difference."""
    orders = orders_of(world, user_id, status)
    if not orders:
        return None
    order = world.row("orders", rng.choice(orders))
    swaps = []
    for item in order["items"]:
        variants = world.row("products", item["product_id"])["variants"]
        others = [vid for vid, v in variants.items() if vid != item["item_id"] and v["available"]]
        if others:
            swaps.append((item, rng.choice(sorted(others))))
    if not swaps:
        return None
    chosen = rng.sample(swaps, k=rng.randint(1, min(2, len(swaps))))
    difference = round(sum(_price(world, item, new) - item["price"] for item, new in chosen), 2)
    methods = world.row("users", user_id)["payment_methods"]
    usable = [mid for mid, m in methods.items() if m["source"] != "gift_card" or m["balance"] >= difference]
    if not usable:
        return None
    return {
        "order_id": order["order_id"],
        "item_ids": [item["item_id"] for item, _ in chosen],
        "new_item_ids": [new for _, new in chosen],
        "payment_method_id": rng.choice(sorted(usable)),
    }


def _price(world: World, item: dict, variant_id: str) -> float:
    return world.row("products", item["product_id"])["variants"][variant_id]["price"]


def swap_parts(world: World, params: dict) -> tuple[list, float, str]:
    """(references of the old and new items, price difference, "the X for the Y" text) of an item swap."""
    order = world.row("orders", params["order_id"])
    by_id = {item["item_id"]: item for item in order["items"]}
    refs, pairs, difference = [], [], 0.0
    for old_id, new_id in zip(params["item_ids"], params["new_item_ids"]):
        old = by_id[old_id]
        old_ref = describe_item(world, order["order_id"], old_id)
        new_ref = describe_variant(world, old["product_id"], new_id)
        refs += [old_ref, new_ref]
        pairs.append(f"the {old_ref.text} for the {new_ref.text}")
        difference += _price(world, old, new_id) - old["price"]
    return refs, round(difference, 2), " and ".join(pairs)


def swapped_products(world: World, params: dict) -> list[str]:
    """The products whose variants the new items are (the agent reads them to find the new item ids)."""
    by_id = {item["item_id"]: item for item in world.row("orders", params["order_id"])["items"]}
    return [by_id[old]["product_id"] for old in params["item_ids"]]


MAX_OPTIONS = 4  # variants the agent lists to a user who chooses (the chosen one among them)


def swap_choice(world: World, params: dict) -> dict | None:
    """The first swapped item's new variant, when its product has other available variants: the user may choose
    it among those the agent lists (the chosen one and up to three others, by id), asking first for "another
    <product>"."""
    old_id, new_id = params["item_ids"][0], params["new_item_ids"][0]
    product_id = next(
        item["product_id"] for item in world.row("orders", params["order_id"])["items"] if item["item_id"] == old_id
    )
    product = world.row("products", product_id)
    others = sorted(vid for vid, v in product["variants"].items() if v["available"] and vid not in (old_id, new_id))
    if not others:
        return None
    try:
        texts = {
            vid: describe_variant(world, product_id, vid).text for vid in sorted([new_id, *others[: MAX_OPTIONS - 1]])
        }
    except Rejected:  # an option without a description of its own cannot be told apart
        return None
    return {
        "value": new_id,
        "choice": texts[new_id],
        "options": list(texts.values()),
        "instead": f"another {product['name']}",
    }


def difference_text(difference: float) -> str:
    if difference > 0:
        return f"you pay {money(difference)} more"
    return f"you get {money(-difference)} back" if difference < 0 else "the price stays the same"


class ExchangeDelivered(GoalSpec):
    kind, outcome = "exchange_delivered_order_items", "write"

    def sample(self, world, user_id, rng):
        return sample_swap(world, user_id, "delivered", rng)

    def choice(self, world, params):
        return swap_choice(world, params)

    def build(self, world, params, rng):
        oid, method = params["order_id"], params["payment_method_id"]
        refs, difference, swaps = swap_parts(world, params)
        pay_ref = describe_payment(world, world.row("orders", oid)["user_id"], method)
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng, swaps=swaps, payment=yours(pay_ref.text)),
            summary=f"exchange {swaps} from {{order}}",
            known_info={"exchange": swaps, "payment": pay_ref.text},
            unknown_info=("the item ids", "the price difference"),
            reply=f"The exchange for order {oid} is requested; {difference_text(difference)}.",
            constraints=[
                equals("status", f"orders.{oid}.status", "exchange requested"),
                equals("new_items", f"orders.{oid}.exchange_new_items", sorted(params["new_item_ids"])),
                equals("payment", f"orders.{oid}.exchange_payment_method_id", method),
                *([says("difference", number=abs(difference))] if difference else []),
                not_called("no_return", "return_delivered_order_items", order_id=oid),
            ],
            writes=(f"orders.{oid}",),
            references=(*refs, pay_ref),
            products=swapped_products(world, params),
        )


class ModifyPendingItems(GoalSpec):
    kind, outcome = "modify_pending_order_items", "write"

    def sample(self, world, user_id, rng):
        return sample_swap(world, user_id, "pending", rng)

    def choice(self, world, params):
        return swap_choice(world, params)

    def build(self, world, params, rng):
        oid, method = params["order_id"], params["payment_method_id"]
        order = world.row("orders", oid)
        refs, difference, swaps = swap_parts(world, params)
        pay_ref = describe_payment(world, order["user_id"], method)
        positions = {item["item_id"]: index for index, item in enumerate(order["items"])}
        items = [
            equals(f"item{n}", f"orders.{oid}.items.{positions[old]}.item_id", new)
            for n, (old, new) in enumerate(zip(params["item_ids"], params["new_item_ids"]))
        ]
        deltas = gift_card_deltas(world, order["user_id"], {method: -difference}, "paid")
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng, swaps=swaps, payment=yours(pay_ref.text)),
            summary=f"change {swaps} in {{order}}",
            known_info={"change": swaps, "payment": pay_ref.text},
            unknown_info=("the item ids", "the price difference"),
            reply=f"Order {oid} now has the new items; {difference_text(difference)}.",
            constraints=[
                equals("status", f"orders.{oid}.status", "pending (items modified)"),
                *deltas,
                *items,
                *([says("difference", number=abs(difference))] if difference else []),
            ],
            core=1 + len(deltas),
            writes=(f"orders.{oid}", *([f"users.{order['user_id']}"] if deltas else [])),
            references=(*refs, pay_ref),
            products=swapped_products(world, params),
        )
