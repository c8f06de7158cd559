"""A hand-written correct and a subtly wrong retail trajectory, accepted and rejected for the right reason.

Seed 0, 500 users: user vera_kim_2362 has the pending order #R5683800, paid
708.44 with gift card gift_card_4370522 (balance 170.00). The trajectories'
actions are written here; their tool results are what the world answers, as a
rollout would record them.
"""

from __future__ import annotations

from environments.record_env import to_record_environment
from environments.registry import get_environment
from schemas.record import AgentRecord, Source, Task, Verifier
from schemas.steps import ApiAction, MessageAction, TextObservation
from verifiers.runner import verify_record

ORDER, USER, CARD = "#R5683800", "vera_kim_2362", "gift_card_4370522"
CONSTRAINTS = [
    {"id": "cancelled", "check": "state_equals", "path": f"orders.{ORDER}.status", "value": "cancelled"},
    {"id": "reason", "check": "state_equals", "path": f"orders.{ORDER}.cancel_reason", "value": "ordered by mistake"},
    {"id": "refund", "check": "state_delta", "path": f"users.{USER}.payment_methods.{CARD}.balance", "delta": 708.44, "tolerance": 0.01},
    {"id": "told_amount", "check": "message_contains", "number": 708.44, "tolerance": 0.005},
    {"id": "only_hers", "check": "no_write_outside", "scope": [f"users.{USER}", f"orders.{ORDER}"]},
]


def rollout(actions: list) -> list:
    """Run the agent's actions in a fresh world and record each tool result after its call."""
    env = get_environment("retail", users=500)
    steps = []
    for index, action in enumerate(actions):
        if isinstance(action, tuple):
            name, args = action
            cid = f"call_{index}"
            steps.append(ApiAction(function=name, kwargs=args, tool_call_id=cid))
            steps.append(TextObservation(content=env.call(name, args).as_text(), source="tool", tool_call_id=cid))
        else:
            steps.append(action)
    return steps


def record(steps: list) -> AgentRecord:
    env = get_environment("retail", users=500)
    environment = to_record_environment(env, snapshot_id="retail-seed0-users500")
    environment.sandbox = {"seed": 0, "env_params": {"users": 500}}
    return AgentRecord(id="retail-cancel", environment=environment,
                       task=Task(instruction="Cancel my order #R5683800, I ordered it by mistake.", constraints=CONSTRAINTS),
                       trajectory=steps, verifier=Verifier(kind="constraints"), source=Source(dataset="unit", format="literal"))


def actions(reason: str) -> list:
    return [
        TextObservation(content="Hi, I ordered #R5683800 by mistake, please cancel it. I'm vera.kim2362@inbox.test", source="user"),
        ("find_user_id_by_email", {"email": "vera.kim2362@inbox.test"}),
        ("get_order_details", {"order_id": ORDER}),
        MessageAction(content="I can cancel #R5683800 (ordered by mistake); 708.44 goes back to your gift card. Confirm?"),
        TextObservation(content="Yes please.", source="user"),
        ("cancel_pending_order", {"order_id": ORDER, "reason": reason}),
        MessageAction(content="Done: the order is cancelled and $708.44 is back on your gift card."),
    ]


def test_the_correct_trajectory_is_accepted():
    verdict = verify_record(record(rollout(actions("ordered by mistake"))))
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])
    assert verdict.evidence["replay"]["calls"] == 3


def test_the_wrong_cancel_reason_is_rejected_on_that_constraint():
    verdict = verify_record(record(rollout(actions("no longer needed"))))
    assert verdict.passed is False
    assert verdict.reasons == ["constraint_failed:reason"]
    assert verdict.score == 0.8


def test_a_claimed_cancel_without_identity_verification_fails_replay():
    steps = rollout(actions("ordered by mistake"))
    del steps[1:3]  # drop the email lookup: the world refuses the cancel, the record still claims it worked
    verdict = verify_record(record(steps))
    assert verdict.reasons == ["replay_mismatch"]
    assert verdict.evidence["replay"]["mismatch"]["replayed"].startswith("Error: user identity not verified")


def test_an_unrequested_cancel_of_another_order_is_harmful():
    # ivo_dvorak_0072 has two pending orders; he asks to cancel #R3357824 only.
    wanted, other = "#R3357824", "#R7565133"
    steps = rollout([
        TextObservation(content="Cancel #R3357824 please, ordered by mistake. ivo.dvorak0072@post.example", source="user"),
        ("find_user_id_by_email", {"email": "ivo.dvorak0072@post.example"}),
        ("cancel_pending_order", {"order_id": wanted, "reason": "ordered by mistake"}),
        ("cancel_pending_order", {"order_id": other, "reason": "ordered by mistake"}),
        MessageAction(content="Both are cancelled; 147.78 is back on your gift card."),
    ])
    rec = record(steps)
    rec.task.constraints = [
        {"id": "cancelled", "check": "state_equals", "path": f"orders.{wanted}.status", "value": "cancelled"},
        {"id": "refund", "check": "state_delta", "path": "users.ivo_dvorak_0072.payment_methods.gift_card_1639125.balance",
         "delta": 147.78, "tolerance": 0.01},
    ]
    verdict = verify_record(rec)
    assert verdict.passed is False
    assert "harmful_write" in verdict.reasons
    assert verdict.evidence["constraints"]["harmful_writes"] == [f"orders.{other}"]
