"""Retail write tools on orders: cancel, modify (items, address, payment), return, exchange.

A mixin of RetailWorld (environments/retail/env.py), which provides `require_owner`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from environments.tool_world import ToolError, params, tool

ID = {"type": "string"}
IDS = {"type": "array", "items": {"type": "string"}, "minItems": 1}
ADDRESS = {k: {"type": "string"} for k in ("address1", "address2", "city", "state", "country", "zip")}
CANCEL_REASONS = ["no longer needed", "ordered by mistake"]


def _money(value: float) -> float:
    return round(value + 0.0, 2)


class RetailOrderTools:
    def _order_for_write(self, order_id: str, allowed_status: str, action: str) -> tuple[dict, dict]:
        """The order (as a staged copy) and its user, after identity and status checks."""
        order = self.row("orders", order_id, "order")
        self.require_owner(order["user_id"], f"order '{order_id}'")
        if order["status"] != allowed_status:
            raise ToolError(f"order '{order_id}' is '{order['status']}'; only {allowed_status} orders can be {action}")
        return self.edit("orders", order_id, "order"), self.row("users", order["user_id"], "user")

    def _charge(self, user_id: str, method_id: str, amount: float) -> None:
        """Move money on a gift card: a positive amount is paid from it, a negative one refunded to it."""
        user = self.row("users", user_id, "user")
        if user["payment_methods"][method_id]["source"] != "gift_card" or amount == 0:
            return
        card = self.edit("users", user_id, "user")["payment_methods"][method_id]
        if amount > card["balance"] + 1e-9:
            raise ToolError(f"gift card '{method_id}' balance {card['balance']:.2f} does not cover {amount:.2f}")
        card["balance"] = _money(card["balance"] - amount)

    def _settle(self, order: dict, method_id: str, amount: float) -> None:
        """Record a price difference: the user pays a positive amount, receives a negative one."""
        if amount == 0:
            return
        self._charge(order["user_id"], method_id, amount)
        kind = "payment" if amount > 0 else "refund"
        order["payment_history"].append({"kind": kind, "payment_method_id": method_id, "amount": _money(abs(amount))})

    @tool(
        "Cancel a pending order; the amount paid is refunded to the original payment method "
        "(gift card at once, others in 5-7 business days). Needs the user's explicit confirmation.",
        params({"order_id": ID, "reason": {"type": "string", "enum": CANCEL_REASONS}}),
        access="write",
    )
    def cancel_pending_order(self, order_id: str, reason: str) -> dict:
        order, _ = self._order_for_write(order_id, "pending", "cancelled")
        for entry in [e for e in order["payment_history"] if e["kind"] == "payment"]:
            self._settle(order, entry["payment_method_id"], -entry["amount"])
        order["status"] = "cancelled"
        order["cancel_reason"] = reason
        return order

    @tool(
        "Swap items of a pending order for other variants of the same products (one call per order; "
        "afterwards the order can no longer be changed). The price difference is paid from or refunded to "
        "payment_method_id. Needs the user's explicit confirmation.",
        params({"order_id": ID, "item_ids": IDS, "new_item_ids": IDS, "payment_method_id": ID}),
        access="write",
    )
    def modify_pending_order_items(
        self, order_id: str, item_ids: list[str], new_item_ids: list[str], payment_method_id: str
    ) -> dict:
        order, user = self._order_for_write(order_id, "pending", "modified")
        self.payment_method(user, payment_method_id)
        replacements, difference = self.swap_items(order, item_ids, new_item_ids)
        replaced: set[int] = set()
        for old_id, new in zip(item_ids, replacements):
            position = next(
                i for i, item in enumerate(order["items"]) if item["item_id"] == old_id and i not in replaced
            )
            order["items"][position] = new
            replaced.add(position)
        self._settle(order, payment_method_id, difference)
        order["status"] = "pending (items modified)"
        return order

    @tool(
        "Change the shipping address of a pending order. Needs the user's explicit confirmation.",
        params({"order_id": ID, **ADDRESS}),
        access="write",
    )
    def modify_pending_order_address(self, order_id: str, **address: str) -> dict:
        order, _ = self._order_for_write(order_id, "pending", "modified")
        order["address"] = address
        return order

    @tool(
        "Pay a pending order with another payment method of the user; the original method is refunded. "
        "Needs the user's explicit confirmation.",
        params({"order_id": ID, "payment_method_id": ID}),
        access="write",
    )
    def modify_pending_order_payment(self, order_id: str, payment_method_id: str) -> dict:
        order, user = self._order_for_write(order_id, "pending", "modified")
        self.payment_method(user, payment_method_id)
        payments = [e for e in order["payment_history"] if e["kind"] == "payment"]
        if len(payments) != 1:
            raise ToolError(f"order '{order_id}' has {len(payments)} payments; only a single payment can be replaced")
        original = payments[0]
        if original["payment_method_id"] == payment_method_id:
            raise ToolError("the new payment method is the same as the original one")
        self._settle(order, payment_method_id, original["amount"])
        self._settle(order, original["payment_method_id"], -original["amount"])
        return order

    @tool(
        "Request the return of delivered items; the refund goes to the original payment method or to one of "
        "the user's gift cards once the items arrive. Needs the user's explicit confirmation.",
        params({"order_id": ID, "item_ids": IDS, "payment_method_id": ID}),
        access="write",
    )
    def return_delivered_order_items(self, order_id: str, item_ids: list[str], payment_method_id: str) -> dict:
        order, user = self._order_for_write(order_id, "delivered", "returned")
        method = self.payment_method(user, payment_method_id)
        original = order["payment_history"][0]["payment_method_id"]
        if payment_method_id != original and method["source"] != "gift_card":
            raise ToolError("a return refund must go to the original payment method or a gift card")
        self._check_items(order, item_ids)
        prices = {item["item_id"]: item["price"] for item in order["items"]}
        order.update(
            status="return requested",
            return_items=sorted(item_ids),
            return_payment_method_id=payment_method_id,
            return_refund=_money(sum(prices[i] for i in item_ids)),
        )
        return order

    @tool(
        "Request an exchange of delivered items for other variants of the same products (one call per order). "
        "The price difference is settled with payment_method_id. Needs the user's explicit confirmation.",
        params({"order_id": ID, "item_ids": IDS, "new_item_ids": IDS, "payment_method_id": ID}),
        access="write",
    )
    def exchange_delivered_order_items(
        self, order_id: str, item_ids: list[str], new_item_ids: list[str], payment_method_id: str
    ) -> dict[str, Any]:
        order, user = self._order_for_write(order_id, "delivered", "exchanged")
        method = self.payment_method(user, payment_method_id)
        _, difference = self.swap_items(order, item_ids, new_item_ids)
        if method["source"] == "gift_card" and difference > method["balance"] + 1e-9:
            raise ToolError(
                f"gift card '{payment_method_id}' balance {method['balance']:.2f} does not cover {difference:.2f}"
            )
        order.update(
            status="exchange requested",
            exchange_items=sorted(item_ids),
            exchange_new_items=sorted(new_item_ids),
            exchange_payment_method_id=payment_method_id,
            exchange_price_difference=difference,
        )
        return order

    def _check_items(self, order: dict, item_ids: list[str]) -> None:
        have = Counter(item["item_id"] for item in order["items"])
        for item_id, count in Counter(item_ids).items():
            if have[item_id] < count:
                raise ToolError(f"item '{item_id}' is not in order '{order['order_id']}' (or not that many times)")

    def payment_method(self, user: dict, method_id: str) -> dict:
        method = user["payment_methods"].get(method_id)
        if method is None:
            raise ToolError(f"payment method '{method_id}' is not in the user's profile")
        return method

    def swap_items(self, order: dict, item_ids: list[str], new_item_ids: list[str]) -> tuple[list[dict], float]:
        """Checks an item swap; returns the replacement items (aligned with item_ids) and the price difference."""
        if len(item_ids) != len(new_item_ids):
            raise ToolError("item_ids and new_item_ids must have the same length")
        self._check_items(order, item_ids)
        by_id = {item["item_id"]: item for item in order["items"]}
        replacements, difference = [], 0.0
        for old_id, new_id in zip(item_ids, new_item_ids):
            old = by_id[old_id]
            variant = self.row("products", old["product_id"], "product")["variants"].get(new_id)
            if new_id == old_id:
                raise ToolError(f"new item '{new_id}' is the same as the old item")
            if variant is None:
                raise ToolError(f"item '{new_id}' is not a variant of product '{old['name']}'")
            if not variant["available"]:
                raise ToolError(f"item '{new_id}' is not available")
            replacements.append(
                {**old, "item_id": new_id, "options": dict(variant["options"]), "price": variant["price"]}
            )
            difference += variant["price"] - old["price"]
        return replacements, round(difference, 2)
