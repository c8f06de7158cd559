"""Retail requests the policy refuses, and the twists that turn a write request into one of them.

The agent must not call the write tool (``action_not_called``): cancelling an
order that is not pending, returning one that is not delivered, swapping an
item for another product, refunding a return to a card that did not pay,
paying with a gift card that does not cover the order.
"""

from __future__ import annotations

import random

from environments.retail.catalog import PRODUCT_TYPES
from environments.retail.order_actions import CANCEL_REASONS
from generators.synthesis.fuzzify import describe_item, describe_payment, yours
from generators.synthesis.goals import GoalSpec, World, money, not_called, says
from generators.synthesis.phrasings import phrase
from generators.synthesis.retail.orders import order_goal, orders_of


class CancelNotPending(GoalSpec):
    kind, outcome = "refuse_cancel_not_pending", "refusal"

    def sample(self, world, user_id, rng):
        shipped = orders_of(world, user_id, "processed", "delivered")
        return {"order_id": rng.choice(shipped), "reason": rng.choice(CANCEL_REASONS)} if shipped else None

    def build(self, world, params, rng):
        oid = params["order_id"]
        status = world.row("orders", oid)["status"]
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng),
            summary="cancel {order}",
            known_info={"cancel_reason": params["reason"]},
            reply=f"Order {oid} is {status}; only pending orders can be cancelled, so I cannot cancel it.",
            constraints=[not_called("no_cancel", "cancel_pending_order", order_id=oid), says("status", text=status)],
            core=2,
        )


class ReturnNotDelivered(GoalSpec):
    kind, outcome = "refuse_return_not_delivered", "refusal"

    def sample(self, world, user_id, rng):
        open_orders = orders_of(world, user_id, "pending", "processed")
        return {"order_id": rng.choice(open_orders)} if open_orders else None

    def build(self, world, params, rng):
        oid = params["order_id"]
        status = world.row("orders", oid)["status"]
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng),
            summary="return {order}",
            reply=f"Order {oid} is {status}; only delivered orders can be returned.",
            constraints=[
                not_called("no_return", "return_delivered_order_items", order_id=oid),
                says("status", text=status),
            ],
            core=2,
        )


class SwapOtherProduct(GoalSpec):
    """Exchange (delivered) or change (pending) an item for a different product: never allowed."""

    kind, outcome = "refuse_swap_other_product", "refusal"
    TOOLS = {"delivered": "exchange_delivered_order_items", "pending": "modify_pending_order_items"}

    def sample(self, world, user_id, rng):
        orders = orders_of(world, user_id, *self.TOOLS)
        return swap_twist(world, {"order_id": rng.choice(orders)}, rng)[1] if orders else None

    def build(self, world, params, rng):
        oid = params["order_id"]
        item_ref = describe_item(world, oid, params["item_id"])
        article = "an" if params["product"][0] in "AEIOU" else "a"
        swap = f"the {item_ref.text} for {article} {params['product']}"
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng, swap=swap),
            summary=f"swap {swap}",
            known_info={"swap": swap},
            references=(item_ref,),
            reply="An item can only be exchanged for another variant of the same product, so I cannot do this swap.",
            constraints=[not_called("no_swap", params["tool"], order_id=oid), says("why", text="same product")],
            core=2,
        )


class ReturnToOtherMethod(GoalSpec):
    """A return refunded to a card or PayPal account that did not pay: only the original method or a gift card."""

    kind, outcome = "refuse_return_refund_elsewhere", "refusal"

    def sample(self, world, user_id, rng):
        delivered = orders_of(world, user_id, "delivered")
        twist = refund_twist(world, {"order_id": rng.choice(delivered)}, rng) if delivered else None
        return twist[1] if twist else None

    def build(self, world, params, rng):
        oid, mid = params["order_id"], params["payment_method_id"]
        item_ref = describe_item(world, oid, params["item_ids"][0])
        pay_ref = describe_payment(world, world.row("orders", oid)["user_id"], mid)
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng, items=f"the {item_ref.text}", payment=yours(pay_ref.text)),
            summary=f"return the {item_ref.text} from {{order}} with the refund to {yours(pay_ref.text)}",
            known_info={"items": f"the {item_ref.text}", "refund_to": pay_ref.text},
            references=(item_ref, pay_ref),
            reply="The refund of a return goes to the original payment method or a gift card, so I cannot do it.",
            constraints=[
                not_called("no_return", "return_delivered_order_items", order_id=oid),
                says("why", text="original payment method"),
            ],
            core=2,
        )


class PaymentNotCovered(GoalSpec):
    kind, outcome = "refuse_payment_not_covered", "refusal"

    def sample(self, world, user_id, rng):
        pending = orders_of(world, user_id, "pending")
        twist = payment_twist(world, {"order_id": rng.choice(pending)}, rng) if pending else None
        return twist[1] if twist else None

    def build(self, world, params, rng):
        oid, mid = params["order_id"], params["payment_method_id"]
        user_id = world.row("orders", oid)["user_id"]
        balance = world.row("users", user_id)["payment_methods"][mid]["balance"]
        pay_ref = describe_payment(world, user_id, mid)
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng, payment=yours(pay_ref.text)),
            summary=f"pay {{order}} with {yours(pay_ref.text)}",
            known_info={"new_payment": pay_ref.text},
            references=(pay_ref,),
            reply=f"Your gift card has {money(balance)}, which does not cover the order, so I cannot switch the payment.",
            constraints=[
                not_called("no_payment_change", "modify_pending_order_payment", order_id=oid),
                says("balance", number=balance),
            ],
            core=2,
        )


# ---- twists: (world, a write goal's params, rng) -> (refusal kind, its params) or None -----------
def swap_twist(world: World, params: dict, rng: random.Random) -> tuple[str, dict]:
    """An exchange or item change, but for a product of another type."""
    order = world.row("orders", params["order_id"])
    wanted = params.get("item_ids", [None])[0]
    item = next((i for i in order["items"] if i["item_id"] == wanted), None) or rng.choice(order["items"])
    other = rng.choice(sorted(name for name in PRODUCT_TYPES if name != item["name"]))
    tool = SwapOtherProduct.TOOLS[order["status"]]
    return SwapOtherProduct.kind, {
        "order_id": order["order_id"],
        "item_id": item["item_id"],
        "product": other,
        "tool": tool,
    }


def refund_twist(world: World, params: dict, rng: random.Random) -> tuple[str, dict] | None:
    """A return, but refunded to a method that neither paid nor is a gift card."""
    order = world.row("orders", params["order_id"])
    original = order["payment_history"][0]["payment_method_id"]
    methods = world.row("users", order["user_id"])["payment_methods"]
    others = sorted(mid for mid, m in methods.items() if mid != original and m["source"] != "gift_card")
    if not others:
        return None
    item_ids = params.get("item_ids", [order["items"][0]["item_id"]])[:1]
    return ReturnToOtherMethod.kind, {
        "order_id": order["order_id"],
        "item_ids": item_ids,
        "payment_method_id": rng.choice(others),
    }


def payment_twist(world: World, params: dict, rng: random.Random) -> tuple[str, dict] | None:
    """A payment change, but to a gift card whose balance does not cover the order."""
    order = world.row("orders", params["order_id"])
    paid = order["payment_history"][0]
    methods = world.row("users", order["user_id"])["payment_methods"]
    short = sorted(
        mid
        for mid, m in methods.items()
        if mid != paid["payment_method_id"] and m.get("balance", 1e18) < paid["amount"]
    )
    return (
        (PaymentNotCovered.kind, {"order_id": order["order_id"], "payment_method_id": rng.choice(short)})
        if short
        else None
    )


REFUSAL_SPECS = [
    CancelNotPending(),
    ReturnNotDelivered(),
    SwapOtherProduct(),
    ReturnToOtherMethod(),
    PaymentNotCovered(),
]
TWISTS = {
    "exchange_delivered_order_items": swap_twist,
    "modify_pending_order_items": swap_twist,
    "return_delivered_order_items": refund_twist,
    "modify_pending_order_payment": payment_twist,
}
