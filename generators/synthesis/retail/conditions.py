"""Retail conditional goals: the order's status or a gift card's balance decides what the user wants done.

Each samples both branches' parameters, resolves the condition from the rows and builds the branch that
holds with the ordinary spec (generators/synthesis/conditions.py says what the user is told).
"""

from __future__ import annotations

from environments.retail.order_actions import CANCEL_REASONS
from generators.synthesis.conditions import conditional_goal
from generators.synthesis.fuzzify import describe_item, describe_payment, yours
from generators.synthesis.goals import GoalSpec, not_called
from generators.synthesis.phrasings import phrase
from generators.synthesis.retail.orders import address_text, new_address, orders_of
from generators.synthesis.retail.reads import TrackingNumber
from generators.synthesis.retail.writes import (
    REASON_PHRASES,
    CancelPending,
    ModifyPendingAddress,
    ModifyPendingPayment,
    ReturnDelivered,
)

NOT_SHIPPED = "the order has not shipped yet"


class CancelOrReturn(GoalSpec):
    """Pending: cancel it; delivered: return some of its items."""

    kind, outcome, conditional = "cancel_or_return", "write", True

    def sample(self, world, user_id, rng):
        orders = orders_of(world, user_id, "pending", "delivered")
        if not orders:
            return None
        order = world.row("orders", rng.choice(orders))
        items = [item["item_id"] for item in order["items"]]
        return {
            "order_id": order["order_id"],
            "reason": rng.choice(CANCEL_REASONS),
            "item_ids": rng.sample(items, k=rng.randint(1, len(items))),
            "payment_method_id": order["payment_history"][0]["payment_method_id"],
        }

    def build(self, world, params, rng):
        oid = params["order_id"]
        holds = world.row("orders", oid)["status"] == "pending"
        if holds:
            taken = CancelPending().build(world, {"order_id": oid, "reason": params["reason"]}, rng)
            forbid = not_called("no_return", "return_delivered_order_items", order_id=oid)
        else:
            keys = ("order_id", "item_ids", "payment_method_id")
            taken = ReturnDelivered().build(world, {key: params[key] for key in keys}, rng)
            forbid = not_called("no_cancel", "cancel_pending_order", order_id=oid)
        item_refs = [describe_item(world, oid, item_id) for item_id in params["item_ids"]]
        pay_ref = describe_payment(world, world.row("orders", oid)["user_id"], params["payment_method_id"])
        items = " and the ".join(ref.text for ref in item_refs)
        order = taken.known_info["order"]
        fields = {
            "order": order,
            "why": REASON_PHRASES[params["reason"]],
            "items": f"the {items}",
            "payment": yours(pay_ref.text),
        }
        return conditional_goal(
            self,
            taken,
            params,
            row=f"orders.{oid}",
            condition=NOT_SHIPPED,
            holds=holds,
            request=phrase(self.kind, rng, **fields),
            summary=f"cancel {order} if it is pending, else return the {items}",
            known_info={"cancel_reason": params["reason"], "items": f"the {items}", "refund_to": pay_ref.text},
            references=[*item_refs, pay_ref],
            forbid=forbid,
        )


class AddressOrTracking(GoalSpec):
    """Pending: ship it to a new address; processed or delivered: tell its tracking number."""

    kind, outcome, conditional = "address_or_tracking", "write", True

    def sample(self, world, user_id, rng):
        orders = orders_of(world, user_id, "pending", "processed", "delivered")
        return {"order_id": rng.choice(orders), **new_address(rng)} if orders else None

    def build(self, world, params, rng):
        oid = params["order_id"]
        holds = world.row("orders", oid)["status"] == "pending"
        if holds:
            taken = ModifyPendingAddress().build(world, params, rng)
        else:
            taken = TrackingNumber().build(world, {"order_id": oid}, rng)
        address = address_text({key: value for key, value in params.items() if key != "order_id"})
        order = taken.known_info["order"]
        return conditional_goal(
            self,
            taken,
            params,
            row=f"orders.{oid}",
            condition=NOT_SHIPPED,
            holds=holds,
            request=phrase(self.kind, rng, order=order, address=address),
            summary=f"ship {order} to a new address if it is pending, else its tracking number",
            known_info={"new_address": address},
            forbid=None if holds else not_called("no_address_change", "modify_pending_order_address", order_id=oid),
        )


class GiftCardIfCovers(GoalSpec):
    """Pay a pending order with the gift card if its balance covers the order, else with another method."""

    kind, outcome, conditional = "gift_card_if_covers", "write", True

    def sample(self, world, user_id, rng):
        methods = world.row("users", user_id)["payment_methods"]
        cards = sorted(mid for mid, m in methods.items() if m["source"] == "gift_card")
        options = []
        for oid in orders_of(world, user_id, "pending"):
            history = world.row("orders", oid)["payment_history"]
            if len(history) != 1:
                continue
            paid_with = history[0]["payment_method_id"]
            fallbacks = sorted(mid for mid, m in methods.items() if m["source"] != "gift_card" and mid != paid_with)
            options += [(oid, card, fb) for card in cards if card != paid_with for fb in fallbacks]
        if not options:
            return None
        oid, card, fallback = rng.choice(options)
        return {"order_id": oid, "gift_card_id": card, "fallback_id": fallback}

    def build(self, world, params, rng):
        oid, card = params["order_id"], params["gift_card_id"]
        order = world.row("orders", oid)
        user_id, amount = order["user_id"], order["payment_history"][0]["amount"]
        holds = world.row("users", user_id)["payment_methods"][card]["balance"] >= amount
        method = card if holds else params["fallback_id"]
        taken = ModifyPendingPayment().build(world, {"order_id": oid, "payment_method_id": method}, rng)
        gift_ref = describe_payment(world, user_id, card)
        fallback_ref = describe_payment(world, user_id, params["fallback_id"])
        order_text = taken.known_info["order"]
        fields = {"order": order_text, "gift": yours(gift_ref.text), "fallback": yours(fallback_ref.text)}
        return conditional_goal(
            self,
            taken,
            params,
            row=f"orders.{oid}",
            condition="the gift card's balance covers the order",
            holds=holds,
            request=phrase(self.kind, rng, **fields),
            summary=f"pay {order_text} with {fields['gift']} if it covers it, else with {fields['fallback']}",
            known_info={"gift_card": gift_ref.text, "otherwise_pay_with": fallback_ref.text},
            references=[gift_ref, fallback_ref],
        )


CONDITION_SPECS = [CancelOrReturn(), AddressOrTracking(), GiftCardIfCovers()]
