"""Hand-written correct and subtly wrong retail trajectories, accepted and rejected for the right reason.

Seed 0, 500 users. The vera_kim_2362 cancellation lives in retail_cancel.py
(the CLI tests use it too). Ivo Dvorak has two pending orders, both paid with
gift card gift_card_1639125 (balance 54.00): #R3357824 (a backpack, 147.78)
and #R7565133 (a thermostat, 63.94). The trajectories' actions are written
here; their tool results are what the world answers, as a rollout would record them.
"""

from __future__ import annotations

from schemas.record import AgentRecord
from schemas.steps import MessageAction, TextObservation
from tests.verifiers.handwritten import handwritten_record, rollout
from tests.verifiers.retail_cancel import actions, record
from verifiers.runner import verify_record


def test_the_correct_trajectory_is_accepted():
    verdict = verify_record(record(rollout("retail", actions("ordered by mistake"))))
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])
    assert verdict.evidence["replay"]["calls"] == 3


def test_the_wrong_cancel_reason_is_rejected_on_that_constraint():
    verdict = verify_record(record(rollout("retail", actions("no longer needed"))))
    assert verdict.passed is False
    assert verdict.reasons == ["constraint_failed:reason"]
    assert verdict.score == 0.8


def test_a_claimed_cancel_without_identity_verification_fails_replay():
    steps = rollout("retail", actions("ordered by mistake"))
    del steps[1:3]  # drop the email lookup: the world refuses the cancel, the record still claims it worked
    verdict = verify_record(record(steps))
    assert verdict.reasons == ["replay_mismatch"]
    assert verdict.evidence["replay"]["mismatch"]["replayed"].startswith("Error: user identity not verified")


IVO, BACKPACK, THERMOSTAT, GIFT = "ivo_dvorak_0072", "#R3357824", "#R7565133", "gift_card_1639125"


def test_an_unrequested_cancel_of_another_order_is_harmful():
    # He asks to cancel the backpack order only.
    steps = rollout(
        "retail",
        [
            TextObservation(
                content="Cancel #R3357824 please, ordered by mistake. ivo.dvorak0072@post.example", source="user"
            ),
            ("find_user_id_by_email", {"email": "ivo.dvorak0072@post.example"}),
            ("cancel_pending_order", {"order_id": BACKPACK, "reason": "ordered by mistake"}),
            ("cancel_pending_order", {"order_id": THERMOSTAT, "reason": "ordered by mistake"}),
            MessageAction(content="Both are cancelled; 147.78 is back on your gift card."),
        ],
    )
    rec = record(steps)
    rec.task.constraints = [
        {"id": "cancelled", "check": "state_equals", "path": f"orders.{BACKPACK}.status", "value": "cancelled"},
        {
            "id": "refund",
            "check": "state_delta",
            "path": f"users.{IVO}.payment_methods.{GIFT}.balance",
            "delta": 147.78,
            "tolerance": 0.01,
        },
    ]
    verdict = verify_record(rec)
    assert verdict.passed is False
    assert "harmful_write" in verdict.reasons
    assert verdict.evidence["constraints"]["harmful_writes"] == [f"orders.{THERMOSTAT}"]


BACKPACK_TASK = "Cancel the order with the backpack; I ordered it by mistake. Email ivo.dvorak0072@post.example."
BACKPACK_CONSTRAINTS = [
    {"id": "backpack_cancelled", "check": "state_equals", "path": ["orders", BACKPACK, "status"], "value": "cancelled"},
    {
        "id": "refund_to_gift_card",
        "check": "state_delta",
        "path": ["users", IVO, "payment_methods", GIFT, "balance"],
        "delta": 147.78,
        "tolerance": 0.005,
    },
    {"id": "thermostat_kept", "check": "state_equals", "path": ["orders", THERMOSTAT, "status"], "value": "pending"},
    {"id": "refund_told", "check": "message_contains", "number": 147.78, "tolerance": 0.005},
    {"id": "no_transfer", "check": "action_not_called", "function": "transfer_to_human_agents"},
]


def backpack_record(order_id: str, amount: str) -> AgentRecord:
    steps = rollout(
        "retail",
        [
            TextObservation(
                content="Hi, please cancel my backpack order, I ordered it by mistake. "
                "My email is ivo.dvorak0072@post.example.",
                source="user",
            ),
            ("find_user_id_by_email", {"email": "ivo.dvorak0072@post.example"}),
            ("get_user_details", {"user_id": IVO}),
            ("get_order_details", {"order_id": order_id}),
            MessageAction(
                content=f"Order {order_id} is pending. I will cancel it (reason: ordered by mistake) and refund "
                f"${amount} to gift card {GIFT}. Shall I proceed?"
            ),
            TextObservation(content="Yes.", source="user"),
            ("cancel_pending_order", {"order_id": order_id, "reason": "ordered by mistake"}),
            MessageAction(content=f"Done: order {order_id} is cancelled and ${amount} is back on your gift card."),
        ],
    )
    return handwritten_record("retail", steps, BACKPACK_TASK, BACKPACK_CONSTRAINTS, "retail-backpack")


def test_retail_correct_cancellation_is_accepted():
    verdict = verify_record(backpack_record(BACKPACK, "147.78"))
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])
    assert [s["verifier"] for s in verdict.evidence["stages"]] == [
        "structure",
        "replay",
        "constraints",
        "grounding",
        "statements",
        "policy",
    ]


def test_retail_cancelling_the_other_pending_order_is_rejected_for_it():
    # The wrong order is also pending and paid with the same gift card: every call succeeds and replays.
    verdict = verify_record(backpack_record(THERMOSTAT, "63.94"))
    assert verdict.passed is False
    assert verdict.reasons == [
        "constraint_failed:backpack_cancelled",
        "constraint_failed:refund_to_gift_card",
        "constraint_failed:thermostat_kept",
        "constraint_failed:refund_told",
    ]
    stages = {s["verifier"]: s["passed"] for s in verdict.evidence["stages"]}
    # Grounded and confirmed (the agent named what it did): only the outcome is wrong.
    assert stages == {
        "structure": True,
        "replay": True,
        "constraints": False,
        "grounding": True,
        "statements": True,
        "policy": True,
    }
