"""The retail cancellation of the seed-0, 500-user world used by verifier and CLI tests.

User vera_kim_2362 has the pending order #R5683800, paid 708.44 with gift card
gift_card_4370522 (balance 170.00). ``actions(reason)`` is the conversation
that cancels it with the given reason; ``record(steps)`` wraps a rollout of it
with the task's constraints (only "ordered by mistake" meets them all).
"""

from __future__ import annotations

from schemas.record import AgentRecord
from schemas.steps import MessageAction, TextObservation
from tests.verifiers.handwritten import handwritten_record

ORDER, USER, CARD = "#R5683800", "vera_kim_2362", "gift_card_4370522"
CONSTRAINTS = [
    {"id": "cancelled", "check": "state_equals", "path": f"orders.{ORDER}.status", "value": "cancelled"},
    {"id": "reason", "check": "state_equals", "path": f"orders.{ORDER}.cancel_reason", "value": "ordered by mistake"},
    {
        "id": "refund",
        "check": "state_delta",
        "path": f"users.{USER}.payment_methods.{CARD}.balance",
        "delta": 708.44,
        "tolerance": 0.01,
    },
    {"id": "told_amount", "check": "message_contains", "number": 708.44, "tolerance": 0.005},
    {"id": "only_hers", "check": "no_write_outside", "scope": [f"users.{USER}", f"orders.{ORDER}"]},
]


def record(steps: list) -> AgentRecord:
    return handwritten_record(
        "retail", steps, "Cancel my order #R5683800, I ordered it by mistake.", CONSTRAINTS, "retail-cancel"
    )


def actions(reason: str) -> list:
    return [
        TextObservation(
            content="Hi, I ordered #R5683800 by mistake, please cancel it. I'm vera.kim2362@inbox.test", source="user"
        ),
        ("find_user_id_by_email", {"email": "vera.kim2362@inbox.test"}),
        ("get_order_details", {"order_id": ORDER}),
        MessageAction(
            content="I can cancel #R5683800 (ordered by mistake); 708.44 goes back to your gift card. Confirm?"
        ),
        TextObservation(content="Yes please.", source="user"),
        ("cancel_pending_order", {"order_id": ORDER, "reason": reason}),
        MessageAction(content="Done: the order is cancelled and $708.44 is back on your gift card."),
    ]
