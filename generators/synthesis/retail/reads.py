"""Retail read goals: a fact the agent must look up and state (``message_contains``)."""

from __future__ import annotations

from generators.synthesis.fuzzify import describe_payment, yours
from generators.synthesis.goals import Goal, GoalSpec, money, says
from generators.synthesis.phrasings import phrase
from generators.synthesis.retail.orders import order_goal, orders_of


class OrderStatus(GoalSpec):
    kind, outcome = "order_status", "read"

    def sample(self, world, user_id, rng):
        return {"order_id": rng.choice(world.row("users", user_id)["orders"])}

    def build(self, world, params, rng):
        oid = params["order_id"]
        status = world.row("orders", oid)["status"]
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng),
            summary="status of {order}",
            reply=f"Order {oid} is {status}.",
            constraints=[says("status", text=status)],
        )


class OrderTotal(GoalSpec):
    kind, outcome = "order_total", "read"

    def sample(self, world, user_id, rng):
        return {"order_id": rng.choice(world.row("users", user_id)["orders"])}

    def build(self, world, params, rng):
        oid = params["order_id"]
        paid = world.row("orders", oid)["payment_history"][0]["amount"]
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng),
            summary="amount paid for {order}",
            reply=f"You paid {money(paid)} for order {oid}.",
            constraints=[says("paid", number=paid)],
        )


class TrackingNumber(GoalSpec):
    kind, outcome = "tracking_number", "read"

    def sample(self, world, user_id, rng):
        shipped = orders_of(world, user_id, "processed", "delivered")
        return {"order_id": rng.choice(shipped)} if shipped else None

    def build(self, world, params, rng):
        oid = params["order_id"]
        tracking = world.row("orders", oid)["fulfillments"][0]["tracking_id"]
        return order_goal(
            world,
            self,
            params,
            rng,
            request=phrase(self.kind, rng),
            summary="tracking number of {order}",
            reply=f"The tracking number of order {oid} is {tracking}.",
            constraints=[says("tracking", text=tracking)],
        )


class GiftCardBalance(GoalSpec):
    kind, outcome = "gift_card_balance", "read"

    def sample(self, world, user_id, rng):
        cards = [mid for mid, m in world.row("users", user_id)["payment_methods"].items() if m.get("balance", 0) > 0]
        return {"user_id": user_id, "payment_method_id": rng.choice(cards)} if cards else None

    def build(self, world, params, rng):
        user_id, mid = params["user_id"], params["payment_method_id"]
        balance = world.row("users", user_id)["payment_methods"][mid]["balance"]
        ref = describe_payment(world, user_id, mid)
        return Goal(
            kind=self.kind,
            outcome="read",
            params=params,
            request=phrase(self.kind, rng, payment=yours(ref.text)),
            summary="gift card balance",
            known_info={"payment": ref.text},
            unknown_info=["the balance"],
            actions=[],
            reply=f"Your gift card balance is {money(balance)}.",
            constraints=[says("balance", number=balance)],
            reads=[f"users.{user_id}"],
            references=[ref],
        )


READ_SPECS = [OrderStatus(), OrderTotal(), TrackingNumber(), GiftCardBalance()]
