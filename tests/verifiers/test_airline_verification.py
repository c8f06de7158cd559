"""A hand-written correct and a subtly wrong airline trajectory, accepted and rejected for the right reason.

Seed 0, 500 users: ada_eklund_4340's business reservation CGFGJE (flight ZA368
on 2025-06-25, paid 1665.00 by credit_card_1037540) may be cancelled for a
change of plan, since business fares are refundable.
"""

from __future__ import annotations

from environments.record_env import to_record_environment
from environments.registry import get_environment
from schemas.record import AgentRecord, Source, Task, Verifier
from schemas.steps import ApiAction, MessageAction, TextObservation
from verifiers.runner import verify_record

RESERVATION, USER = "CGFGJE", "ada_eklund_4340"
CONSTRAINTS = [
    {"id": "cancelled", "check": "state_equals", "path": f"reservations.{RESERVATION}.status", "value": "cancelled"},
    {"id": "reason", "check": "state_equals", "path": f"reservations.{RESERVATION}.cancel_reason", "value": "change_of_plan"},
    {"id": "told_refund", "check": "message_contains", "number": 1665},
    {"check": "allow_write", "scope": "flights.ZA368"},  # the freed seats go back to the flight
]


def record(actions: list) -> AgentRecord:
    live = get_environment("airline", users=500)
    environment = to_record_environment(live, snapshot_id="airline-seed0-users500")
    environment.sandbox = {"seed": 0, "env_params": {"users": 500}}
    steps = []
    for index, action in enumerate(actions):
        if isinstance(action, tuple):
            cid = f"call_{index}"
            steps.append(ApiAction(function=action[0], kwargs=action[1], tool_call_id=cid))
            steps.append(TextObservation(content=live.call(*action).as_text(), source="tool", tool_call_id=cid))
        else:
            steps.append(action)
    return AgentRecord(id="airline-cancel", environment=environment,
                       task=Task(instruction="Cancel my business reservation CGFGJE, my plans changed.", constraints=CONSTRAINTS),
                       trajectory=steps, verifier=Verifier(kind="constraints"), source=Source(dataset="unit", format="literal"))


def conversation(extra: list) -> list:
    return [
        TextObservation(content="I'm ada_eklund_4340; please cancel CGFGJE, my plans changed.", source="user"),
        ("get_reservation_details", {"reservation_id": RESERVATION}),
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
    assert verdict.reasons == ["harmful_write"]
    assert verdict.evidence["constraints"]["harmful_writes"] == [f"users.{USER}"]
    assert verdict.score == 0.5
