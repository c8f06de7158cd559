"""The retail Domain: its goal kinds (reads, writes, swaps, refusals), identity, twists, exploration policy."""

from __future__ import annotations

import random

from environments.retail.order_actions import CANCEL_REASONS
from environments.tool_world import ToolWorld
from generators.synthesis.goals import Domain, World, call
from generators.synthesis.retail.conditions import CONDITION_SPECS
from generators.synthesis.retail.orders import identify, new_address
from generators.synthesis.retail.reads import READ_SPECS
from generators.synthesis.retail.refusals import REFUSAL_SPECS, TWISTS
from generators.synthesis.retail.swaps import ExchangeDelivered, ModifyPendingItems
from generators.synthesis.retail.writes import (
    CancelPending,
    ModifyPendingAddress,
    ModifyPendingPayment,
    ModifyUserAddress,
    ReturnDelivered,
)

WRITE_SPECS = [
    CancelPending(),
    ReturnDelivered(),
    ExchangeDelivered(),
    ModifyPendingItems(),
    ModifyPendingAddress(),
    ModifyPendingPayment(),
    ModifyUserAddress(),
]


def explore_step(world: World, env: ToolWorld, user_id: str, rng: random.Random) -> dict:
    """One call of the random valid-argument policy: a tool, with arguments drawn from the user's current rows."""
    user = env.find("users", user_id)
    order = env.find("orders", rng.choice(user["orders"]))
    item = rng.choice(order["items"])
    variant = rng.choice(sorted(env.find("products", item["product_id"])["variants"]))
    method = rng.choice(sorted(user["payment_methods"]))
    oid = order["order_id"]
    swap = {"order_id": oid, "item_ids": [item["item_id"]], "new_item_ids": [variant], "payment_method_id": method}
    arguments = {
        "get_user_details": lambda: {"user_id": user_id},
        "get_order_details": lambda: {"order_id": oid},
        "get_product_details": lambda: {"product_id": item["product_id"]},
        "cancel_pending_order": lambda: {"order_id": oid, "reason": rng.choice(CANCEL_REASONS)},
        "return_delivered_order_items": lambda: {
            "order_id": oid,
            "item_ids": [item["item_id"]],
            "payment_method_id": method,
        },
        "exchange_delivered_order_items": lambda: swap,
        "modify_pending_order_items": lambda: swap,
        "modify_pending_order_address": lambda: {"order_id": oid, **new_address(rng)},
        "modify_pending_order_payment": lambda: {"order_id": oid, "payment_method_id": method},
        "modify_user_address": lambda: {"user_id": user_id, **new_address(rng)},
    }
    name = rng.choice(sorted(arguments))
    return call(name, **arguments[name]())


DOMAIN = Domain(
    name="retail",
    specs={spec.kind: spec for spec in [*READ_SPECS, *WRITE_SPECS, *REFUSAL_SPECS, *CONDITION_SPECS]},
    identify=identify,
    twists=TWISTS,
    write_goals={spec.kind: spec.kind for spec in WRITE_SPECS},
    explore_step=explore_step,
)
