"""Retail write goals: cancel, return, change the address or payment of an order, update the profile address.

Each goal's parameters are the arguments of its write tool. Money follows
environments/retail/order_actions.py: gift cards are debited and credited at
once (a ``state_delta`` on the balance, part of the goal's core), other
methods only in the order's payment history. Item swaps are in swaps.py.
"""

from __future__ import annotations

from environments.retail.order_actions import CANCEL_REASONS
from generators.synthesis.fuzzify import describe_item, describe_payment, yours
from generators.synthesis.goals import Goal, GoalSpec, call, equals, money, not_called, says
from generators.synthesis.phrasings import phrase
from generators.synthesis.retail.orders import (
    ADDRESS_FIELDS,
    address_text,
    gift_card_deltas,
    new_address,
    order_goal,
    orders_of,
)

REASON_PHRASES = {"no longer needed": "no longer need it", "ordered by mistake": "ordered it by mistake"}


class CancelPending(GoalSpec):
    kind, outcome = "cancel_pending_order", "write"

    def sample(self, world, user_id, rng):
        pending = orders_of(world, user_id, "pending")
        return {"order_id": rng.choice(pending), "reason": rng.choice(CANCEL_REASONS)} if pending else None

    def build(self, world, params, rng):
        oid, reason = params["order_id"], params["reason"]
        order = world.row("orders", oid)
        refunds: dict[str, float] = {}
        for entry in order["payment_history"]:
            if entry["kind"] == "payment":
                refunds[entry["payment_method_id"]] = refunds.get(entry["payment_method_id"], 0.0) + entry["amount"]
        total = sum(refunds.values())
        deltas = gift_card_deltas(world, order["user_id"], refunds, "refund")
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng, why=REASON_PHRASES[reason]),
            summary=f"cancel {{order}} ({reason})",
            known_info={"cancel_reason": reason},
            unknown_info=("how much is refunded",),
            reply=f"Order {oid} is cancelled; {money(total)} is refunded to the payment method that paid it.",
            constraints=[
                equals("status", f"orders.{oid}.status", "cancelled"),
                *deltas,
                equals("reason", f"orders.{oid}.cancel_reason", reason),
                says("refund", number=total),
                not_called("no_item_change", "modify_pending_order_items", order_id=oid),
            ],
            core=1 + len(deltas),  # the refund to a gift card is part of the outcome
            writes=(f"orders.{oid}", *([f"users.{order['user_id']}"] if deltas else [])),
        )


class ReturnDelivered(GoalSpec):
    kind, outcome = "return_delivered_order_items", "write"

    def sample(self, world, user_id, rng):
        delivered = orders_of(world, user_id, "delivered")
        if not delivered:
            return None
        order = world.row("orders", rng.choice(delivered))
        items = [item["item_id"] for item in order["items"]]
        chosen = rng.sample(items, k=rng.randint(1, len(items)))
        methods = world.row("users", user_id)["payment_methods"]
        refund_to = {order["payment_history"][0]["payment_method_id"]}
        refund_to |= {mid for mid, m in methods.items() if m["source"] == "gift_card"}
        return {"order_id": order["order_id"], "item_ids": chosen, "payment_method_id": rng.choice(sorted(refund_to))}

    def build(self, world, params, rng):
        oid, item_ids, method = params["order_id"], params["item_ids"], params["payment_method_id"]
        order = world.row("orders", oid)
        item_refs = [describe_item(world, oid, item_id) for item_id in item_ids]
        pay_ref = describe_payment(world, order["user_id"], method)
        prices = {item["item_id"]: item["price"] for item in order["items"]}
        refund = sum(prices[i] for i in item_ids)
        items = " and the ".join(ref.text for ref in item_refs)
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng, items=f"the {items}", payment=yours(pay_ref.text)),
            summary=f"return the {items} from {{order}}, refunded to {yours(pay_ref.text)}",
            known_info={"items": f"the {items}", "refund_to": pay_ref.text},
            unknown_info=("the item ids", "the refund amount"),
            reply=f"The return of {len(item_ids)} item(s) from order {oid} is requested; {money(refund)} will be refunded.",
            constraints=[
                equals("status", f"orders.{oid}.status", "return requested"),
                equals("items", f"orders.{oid}.return_items", sorted(item_ids)),
                equals("refund_to", f"orders.{oid}.return_payment_method_id", method),
                says("refund", number=refund),
                not_called("no_exchange", "exchange_delivered_order_items", order_id=oid),
            ],
            writes=(f"orders.{oid}",),
            references=(*item_refs, pay_ref),
        )


class ModifyPendingAddress(GoalSpec):
    kind, outcome = "modify_pending_order_address", "write"

    def sample(self, world, user_id, rng):
        pending = orders_of(world, user_id, "pending")
        return {"order_id": rng.choice(pending), **new_address(rng)} if pending else None

    def build(self, world, params, rng):
        oid = params["order_id"]
        address = {key: params[key] for key in ADDRESS_FIELDS}
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng, address=address_text(address)),
            summary="ship {order} to a new address",
            known_info={"new_address": address_text(address)},
            reply=f"Order {oid} will now be shipped to {address_text(address)}.",
            constraints=[
                equals("address", f"orders.{oid}.address", address),
                not_called("profile_kept", "modify_user_address", user_id=world.row("orders", oid)["user_id"]),
            ],
            writes=(f"orders.{oid}",),
        )


class ModifyPendingPayment(GoalSpec):
    kind, outcome = "modify_pending_order_payment", "write"

    def sample(self, world, user_id, rng):
        methods = world.row("users", user_id)["payment_methods"]
        options = []
        for oid in orders_of(world, user_id, "pending"):
            history = world.row("orders", oid)["payment_history"]
            if len(history) != 1:
                continue
            for mid, m in methods.items():
                if mid != history[0]["payment_method_id"] and m.get("balance", float("inf")) >= history[0]["amount"]:
                    options.append({"order_id": oid, "payment_method_id": mid})
        return rng.choice(options) if options else None

    def build(self, world, params, rng):
        oid, method = params["order_id"], params["payment_method_id"]
        order = world.row("orders", oid)
        original, amount = order["payment_history"][0]["payment_method_id"], order["payment_history"][0]["amount"]
        pay_ref = describe_payment(world, order["user_id"], method)
        history = f"orders.{oid}.payment_history"
        deltas = gift_card_deltas(world, order["user_id"], {method: -amount, original: amount}, "balance")
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng, payment=yours(pay_ref.text)),
            summary=f"pay {{order}} with {yours(pay_ref.text)}",
            known_info={"new_payment": pay_ref.text},
            reply=f"Order {oid} is now paid with the new method ({money(amount)}); the original method is refunded.",
            constraints=[
                equals("paid", f"{history}.1", {"kind": "payment", "payment_method_id": method, "amount": amount}),
                *deltas,
                equals("refunded", f"{history}.2", {"kind": "refund", "payment_method_id": original, "amount": amount}),
                says("amount", number=amount),
            ],
            core=1 + len(deltas),
            writes=(f"orders.{oid}", *([f"users.{order['user_id']}"] if deltas else [])),
            references=(pay_ref,),
        )


class ModifyUserAddress(GoalSpec):
    kind, outcome = "modify_user_address", "write"

    def sample(self, world, user_id, rng):
        return {"user_id": user_id, **new_address(rng)}

    def build(self, world, params, rng):
        user_id = params["user_id"]
        address = {key: params[key] for key in ADDRESS_FIELDS}
        return Goal(
            kind=self.kind,
            outcome="write",
            params=params,
            request=phrase(self.kind, rng, address=address_text(address)),
            summary="update the profile address",
            known_info={"new_address": address_text(address)},
            unknown_info=[],
            actions=[call(self.kind, **params)],
            reply=f"Your default address is now {address_text(address)}.",
            constraints=[
                equals("address", f"users.{user_id}.address", address),
                not_called("orders_kept", "modify_pending_order_address"),
            ],
            writes=[f"users.{user_id}"],
        )
