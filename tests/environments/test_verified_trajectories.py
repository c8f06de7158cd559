"""Hand-written conversations in the seed-0 worlds, verified by the whole chain (structure, replay, constraints).

For each domain: a correct trajectory is accepted; a subtly wrong one (the
agent acts on the wrong order, pays with the wrong card) replays fine but is
rejected for the right reason. Tool results are recorded by running the calls,
as an agent run would record them.
"""

from __future__ import annotations

from environments.record_env import to_record_environment
from environments.registry import get_environment
from schemas.record import AgentRecord, Source, Task, Verifier
from schemas.steps import ApiAction, MessageAction, TextObservation
from verifiers.runner import verify_record


def _record(env_name: str, script: list[tuple], instruction: str, constraints: list[dict]) -> AgentRecord:
    """script: ("user", text) | ("agent", text) | ("call", tool, arguments)."""
    env = get_environment(env_name, users=500, seed=0)
    environment = to_record_environment(env)
    steps = []
    for number, (kind, *rest) in enumerate(script):
        if kind == "call":
            call_id = f"call_{number}"
            steps.append(ApiAction(function=rest[0], kwargs=rest[1], tool_call_id=call_id))
            steps.append(TextObservation(content=env.call(rest[0], rest[1]).as_text(), source="tool", tool_call_id=call_id))
        elif kind == "user":
            steps.append(TextObservation(content=rest[0], source="user"))
        else:
            steps.append(MessageAction(content=rest[0]))
    return AgentRecord(id=f"handwritten-{env_name}-{len(steps)}", environment=environment,
                       task=Task(instruction=instruction, constraints=constraints), trajectory=steps,
                       verifier=Verifier(kind="constraints"), source=Source(dataset="handwritten", format="aceforge"))


# Ivo Dvorak has two pending orders, both paid with gift card gift_card_1639125 (balance 54.00):
# #R3357824 (a backpack, 147.78) and #R7565133 (a thermostat, 63.94). He wants the backpack order cancelled.
IVO, BACKPACK, THERMOSTAT, GIFT = "ivo_dvorak_0072", "#R3357824", "#R7565133", "gift_card_1639125"
RETAIL_TASK = "Cancel the order with the backpack; I ordered it by mistake. Email ivo.dvorak0072@post.example."
RETAIL_CONSTRAINTS = [
    {"id": "backpack_cancelled", "check": "state_equals", "path": ["orders", BACKPACK, "status"], "value": "cancelled"},
    {"id": "refund_to_gift_card", "check": "state_delta", "path": ["users", IVO, "payment_methods", GIFT, "balance"],
     "delta": 147.78, "tolerance": 0.005},
    {"id": "thermostat_kept", "check": "state_equals", "path": ["orders", THERMOSTAT, "status"], "value": "pending"},
    {"id": "refund_told", "check": "message_contains", "number": 147.78, "tolerance": 0.005},
    {"id": "no_transfer", "check": "action_not_called", "function": "transfer_to_human_agents"},
]


def _retail_script(order_id: str, amount: str) -> list[tuple]:
    return [
        ("user", "Hi, please cancel my backpack order, I ordered it by mistake. My email is ivo.dvorak0072@post.example."),
        ("call", "find_user_id_by_email", {"email": "ivo.dvorak0072@post.example"}),
        ("call", "get_user_details", {"user_id": IVO}),
        ("call", "get_order_details", {"order_id": order_id}),
        ("agent", f"Order {order_id} is pending. I will cancel it (reason: ordered by mistake) and refund "
                  f"${amount} to gift card {GIFT}. Shall I proceed?"),
        ("user", "Yes."),
        ("call", "cancel_pending_order", {"order_id": order_id, "reason": "ordered by mistake"}),
        ("agent", f"Done: order {order_id} is cancelled and ${amount} is back on your gift card."),
    ]


def test_retail_correct_cancellation_is_accepted():
    record = _record("retail", _retail_script(BACKPACK, "147.78"), RETAIL_TASK, RETAIL_CONSTRAINTS)
    verdict = verify_record(record)
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])
    assert [s["verifier"] for s in verdict.evidence["stages"]] == ["structure", "replay", "constraints"]


def test_retail_cancelling_the_other_pending_order_is_rejected_for_it():
    # The wrong order is also pending and paid with the same gift card: every call succeeds and replays.
    record = _record("retail", _retail_script(THERMOSTAT, "63.94"), RETAIL_TASK, RETAIL_CONSTRAINTS)
    verdict = verify_record(record)
    assert verdict.passed is False
    assert verdict.reasons == ["constraint_failed:backpack_cancelled", "constraint_failed:refund_to_gift_card",
                               "constraint_failed:thermostat_kept", "constraint_failed:refund_told"]
    stages = {s["verifier"]: s["passed"] for s in verdict.evidence["stages"]}
    assert stages == {"structure": True, "replay": True, "constraints": False}


# Wen Larsen (regular member) has reservation BABAHD: economy, one passenger, no bags; one bag is free.
# He wants two checked bags, paid with his visa credit_card_2909188; he also holds gift_card_8582585.
WEN, BOOKING, VISA, WEN_GIFT = "wen_larsen_9174", "BABAHD", "credit_card_2909188", "gift_card_8582585"
AIRLINE_TASK = "Add two checked bags to reservation BABAHD (user wen_larsen_9174); pay with my visa ending 4457."
AIRLINE_CONSTRAINTS = [
    {"id": "two_bags", "check": "state_equals", "path": ["reservations", BOOKING, "total_baggages"], "value": 2},
    {"id": "one_paid_bag", "check": "state_equals", "path": ["reservations", BOOKING, "nonfree_baggages"], "value": 1},
    {"id": "paid_with_visa", "check": "action_called", "function": "update_reservation_baggages",
     "args_subset": {"reservation_id": BOOKING, "payment_id": VISA}},
    {"id": "gift_card_untouched", "check": "state_unchanged", "path": ["users", WEN, "payment_methods", WEN_GIFT]},
    {"id": "fee_told", "check": "message_contains", "number": 40},
]


def _airline_script(payment_id: str) -> list[tuple]:
    return [
        ("user", "Hello, I'm wen_larsen_9174. Please add two checked bags to reservation BABAHD, on my visa ending 4457."),
        ("call", "get_user_details", {"user_id": WEN}),
        ("call", "get_reservation_details", {"reservation_id": BOOKING}),
        ("agent", "Your economy ticket includes one free bag, so the second bag costs $40. "
                  "I will set the reservation to 2 checked bags and charge $40. Shall I proceed?"),
        ("user", "Yes please."),
        ("call", "update_reservation_baggages", {"reservation_id": BOOKING, "total_baggages": 2, "payment_id": payment_id}),
        ("agent", "Done: reservation BABAHD now has 2 checked bags; $40 was charged."),
    ]


def test_airline_correct_bag_change_is_accepted():
    verdict = verify_record(_record("airline", _airline_script(VISA), AIRLINE_TASK, AIRLINE_CONSTRAINTS))
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])


def test_airline_paying_with_the_gift_card_is_rejected_for_it():
    verdict = verify_record(_record("airline", _airline_script(WEN_GIFT), AIRLINE_TASK, AIRLINE_CONSTRAINTS))
    assert verdict.passed is False
    # The gift card's row lies outside every row the task concerns, so the debit is also a harmful write.
    assert verdict.reasons == ["constraint_failed:paid_with_visa", "constraint_failed:gift_card_untouched",
                               "harmful_write"]
    assert verdict.evidence["constraints"]["harmful_writes"] == [f"users.{WEN}"]
    met = {c["id"]: c["met"] for c in verdict.evidence["constraints"]["constraints"]}
    assert met == {"two_bags": True, "one_paid_bag": True, "paid_with_visa": False, "gift_card_untouched": False,
                   "fee_told": True}
