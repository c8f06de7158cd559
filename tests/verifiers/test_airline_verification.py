"""Hand-written correct and subtly wrong airline trajectories, accepted and rejected for the right reason.

Seed 0, 500 users: ada_eklund_4340's business reservation CGFGJE (flight ZA368
on 2025-06-25, paid 1665.00 by credit_card_1037540) may be cancelled for a
change of plan, since business fares are refundable. Wen Larsen (regular
member) has reservation BABAHD: economy, one passenger, no bags; one bag is free.
"""

from __future__ import annotations

from schemas.record import AgentRecord
from schemas.steps import MessageAction, TextObservation
from tests.verifiers.handwritten import handwritten_record, rollout
from verifiers.runner import verify_record

RESERVATION, USER = "CGFGJE", "ada_eklund_4340"
CONSTRAINTS = [
    {"id": "cancelled", "check": "state_equals", "path": f"reservations.{RESERVATION}.status", "value": "cancelled"},
    {
        "id": "reason",
        "check": "state_equals",
        "path": f"reservations.{RESERVATION}.cancel_reason",
        "value": "change_of_plan",
    },
    {"id": "told_refund", "check": "message_contains", "number": 1665},
    {"check": "allow_write", "scope": "flights.ZA368"},  # the freed seats go back to the flight
]


def record(actions: list) -> AgentRecord:
    return handwritten_record(
        "airline",
        rollout("airline", actions),
        "Cancel my business reservation CGFGJE, my plans changed.",
        CONSTRAINTS,
        "airline-cancel",
    )


def conversation(extra: list) -> list:
    return [
        TextObservation(content="I'm ada_eklund_4340; please cancel CGFGJE, my plans changed.", source="user"),
        ("get_reservation_details", {"reservation_id": RESERVATION}),
        MessageAction(content="I will cancel CGFGJE (change of plan) and refund $1,665.00. Shall I proceed?"),
        TextObservation(content="Yes.", source="user"),
        ("cancel_reservation", {"reservation_id": RESERVATION, "reason": "change_of_plan"}),
        *extra,
        MessageAction(content="CGFGJE is cancelled; 1665.00 will be refunded to your credit card."),
    ]


def test_the_correct_cancellation_is_accepted():
    verdict = verify_record(record(conversation([])))
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])


def test_an_unrequested_certificate_is_a_harmful_write():
    verdict = verify_record(record(conversation([("send_certificate", {"user_id": USER, "amount": 100})])))
    assert verdict.passed is False
    # Also a write nobody confirmed.
    assert verdict.reasons == ["harmful_write", "write_without_confirmation"]
    assert verdict.evidence["constraints"]["harmful_writes"] == [f"users.{USER}"]
    assert verdict.score == 0.5  # the harmful write halves V(τ, C); the one policy violation gives 1 / (1 + 1)


# Wen wants two checked bags, paid with his visa credit_card_2909188; he also holds gift_card_8582585.
WEN, BOOKING, VISA, WEN_GIFT = "wen_larsen_9174", "BABAHD", "credit_card_2909188", "gift_card_8582585"
BAGS_TASK = "Add two checked bags to reservation BABAHD (user wen_larsen_9174); pay with my visa ending 4457."
BAGS_CONSTRAINTS = [
    {"id": "two_bags", "check": "state_equals", "path": ["reservations", BOOKING, "total_baggages"], "value": 2},
    {"id": "one_paid_bag", "check": "state_equals", "path": ["reservations", BOOKING, "nonfree_baggages"], "value": 1},
    {
        "id": "paid_with_visa",
        "check": "action_called",
        "function": "update_reservation_baggages",
        "args_subset": {"reservation_id": BOOKING, "payment_id": VISA},
    },
    {"id": "gift_card_untouched", "check": "state_unchanged", "path": ["users", WEN, "payment_methods", WEN_GIFT]},
    {"id": "fee_told", "check": "message_contains", "number": 40},
]


def bags_record(payment_id: str) -> AgentRecord:
    steps = rollout(
        "airline",
        [
            TextObservation(
                content="Hello, I'm wen_larsen_9174. Please add two checked bags to reservation BABAHD, "
                "on my visa ending 4457.",
                source="user",
            ),
            ("get_user_details", {"user_id": WEN}),
            ("get_reservation_details", {"reservation_id": BOOKING}),
            MessageAction(
                content="Your economy ticket includes one free bag, so the second bag costs $40. "
                f"I will set reservation BABAHD to 2 checked bags and charge $40 to {VISA}. Shall I proceed?"
            ),
            TextObservation(content="Yes please.", source="user"),
            ("update_reservation_baggages", {"reservation_id": BOOKING, "total_baggages": 2, "payment_id": payment_id}),
            MessageAction(content="Done: reservation BABAHD now has 2 checked bags; $40 was charged."),
        ],
    )
    return handwritten_record("airline", steps, BAGS_TASK, BAGS_CONSTRAINTS, "airline-bags")


def test_airline_correct_bag_change_is_accepted():
    verdict = verify_record(bags_record(VISA))
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])


def test_airline_paying_with_the_gift_card_is_rejected_for_it():
    verdict = verify_record(bags_record(WEN_GIFT))
    assert verdict.passed is False
    # The gift card's row lies outside every row the task concerns, so the debit is also a harmful write.
    assert verdict.reasons == [
        "constraint_failed:paid_with_visa",
        "constraint_failed:gift_card_untouched",
        "harmful_write",
        "confirmation_mismatch",  # the confirmed card is not the one charged
    ]
    assert verdict.evidence["constraints"]["harmful_writes"] == [f"users.{WEN}"]
    met = {c["id"]: c["met"] for c in verdict.evidence["constraints"]["constraints"]}
    assert met == {
        "two_bags": True,
        "one_paid_bag": True,
        "paid_with_visa": False,
        "gift_card_untouched": False,
        "fee_told": True,
    }
