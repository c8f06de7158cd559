"""The labelled trajectories' tasks and scripts: real synthesized tasks (seed 0, 500 users: q carries gold actions
and goal metadata), frozen in frozen_tasks.json as ``aceforge synth tasks`` made them when the scripts were
written (the synthesizer's later changes do not move the tasks under the hand-written scripts), pinned by one of
their gold actions, and scripts whose tool results come from the live seed-0 world (tests/verifiers/handwritten.py).
Shared by the labelled and the consent tests.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from environments.registry import get_environment
from environments.to_record import to_record_environment
from schemas.record import AgentRecord, Environment, VerifierResult
from schemas.steps import MessageAction, TextObservation
from tests.verifiers.handwritten import rollout
from verifiers.runner import verify_record

YES = "Yes, please go ahead."


def U(text: str) -> TextObservation:
    return TextObservation(content=text, source="user")


def A(text: str) -> MessageAction:
    return MessageAction(content=text)


FROZEN = Path(__file__).with_name("frozen_tasks.json")


@cache
def _frozen() -> dict[str, dict]:
    return json.loads(FROZEN.read_text())


@cache
def _environment(domain: str) -> Environment:
    return to_record_environment(get_environment(domain, users=500, seed=0))


def task(domain: str, pinned: dict, kind: str | None = None, index: int = 0, constraints: str = "1-5") -> AgentRecord:
    """The ``index``-th seed-0 task of ``kind`` (any kind when None) with ``constraints``, checked to have the gold
    action ``pinned``; its E is the seed-0 world's, built here."""
    key = f"{domain}|{kind or '*'}|{constraints}|{index}"
    if key not in _frozen():
        raise KeyError(f"no frozen task {key}: freeze one in {FROZEN.name} before writing a script for it")
    record = AgentRecord.model_validate({**_frozen()[key], "environment": _environment(domain)})
    gold = record.task.expected_outputs["gold_actions"]
    assert pinned in gold, f"the seed-0 {domain} task {kind} #{index} changed: {gold}"
    return record


def verdict(record: AgentRecord, script: list) -> VerifierResult:
    steps = rollout(record.environment.name, script)
    return verify_record(record.model_copy(update={"trajectory": steps}))


def assert_right(record: AgentRecord, script: list) -> None:
    result = verdict(record, script)
    assert (result.passed, result.reasons) == (True, []), result.evidence


def assert_wrong(record: AgentRecord, script: list, reason: str) -> None:
    result = verdict(record, script)
    assert result.passed is False and reason in result.reasons, (result.reasons, result.evidence)


TOVE = {"first_name": "Tove", "last_name": "Lindqvist", "zip": "43293"}


CANCEL = {"name": "cancel_pending_order", "arguments": {"order_id": "#R9654456", "reason": "no longer needed"}}


FARID = {"email": "farid.quiroga2727@mail.test"}


RETURN = {
    "name": "return_delivered_order_items",
    "arguments": {
        "order_id": "#R3673072",
        "item_ids": ["6184554803", "0478724998"],
        "payment_method_id": "gift_card_8370131",
    },
}


NADIA_B = {"email": "nadia.brandt9165@post.example"}


EXCHANGE = {
    "name": "exchange_delivered_order_items",
    "arguments": {
        "order_id": "#R3050852",
        "item_ids": ["5559779294"],
        "new_item_ids": ["0942346740"],
        "payment_method_id": "paypal_6093406",
    },
}


NADIA_R = {"first_name": "Nadia", "last_name": "Rossi", "zip": "80203"}


PAYMENT = {
    "name": "modify_pending_order_payment",
    "arguments": {"order_id": "#R6056952", "payment_method_id": "paypal_5659534"},
}


NILS_O = {"first_name": "Nils", "last_name": "Okafor", "zip": "12247"}


NILS_ADDRESS = {
    "user_id": "nils_okafor_2324",
    "address1": "4723 Iris Place",
    "address2": "Apt 269",
    "city": "Boise",
    "state": "ID",
    "country": "USA",
    "zip": "83724",
}


NILS_CANCEL = {"name": "cancel_pending_order", "arguments": {"order_id": "#R1497173", "reason": "ordered by mistake"}}


def cancel_task() -> AgentRecord:
    """Cancel Tove's order with the Desk Organizer (#R9654456, pending, $227.32 by credit card), no longer needed."""
    return task("retail", CANCEL, "cancel_pending_order")


def return_task() -> AgentRecord:
    """Return the Yoga Mat and the Cookware Set of Farid's #R3673072 ($235.68), refunded to his gift card."""
    return task("retail", RETURN, "return_delivered_order_items", index=2)


def exchange_task() -> AgentRecord:
    """Exchange Nadia Brandt's black 25l Backpack of #R3050852 for the green one, $14.52 more by PayPal."""
    return task("retail", EXCHANGE, "exchange_delivered_order_items")


def payment_task() -> AgentRecord:
    """Pay Nadia Rossi's order with the Rain Jacket (#R6056952, $573.77) with PayPal instead."""
    return task("retail", PAYMENT, "modify_pending_order_payment")


def two_goal_task() -> AgentRecord:
    """Nils Okafor: update the profile address, then cancel the Office Chair order #R1497173 (ordered by mistake)."""
    return task("retail", NILS_CANCEL, index=7, constraints="5")


def tove_cancel(reason: str = "no longer needed", confirm: str | None = None, answer: str = YES) -> list:
    confirm = confirm or (
        "Order #R9654456 is pending. I will cancel order #R9654456 (reason: no longer needed); "
        "$227.32 goes back to credit_card_7891075. Shall I proceed?"
    )
    return [
        U("Hi, I am Tove Lindqvist, zip 43293. Please cancel my order with the Desk Organizer, I no longer need it."),
        ("find_user_id_by_name_zip", TOVE),
        ("get_user_details", {"user_id": "tove_lindqvist_3311"}),
        ("get_order_details", {"order_id": "#R9654456"}),
        A(confirm),
        U(answer),
        ("cancel_pending_order", {"order_id": "#R9654456", "reason": reason}),
        A("Order #R9654456 is cancelled; $227.32 is refunded to your credit card."),
    ]


def farid_return(items: list[str], payment: str, amount: str) -> list:
    return [
        U(
            "Hello, my email is farid.quiroga2727@mail.test. I want to return the Yoga Mat and the Cookware Set "
            "from my order with the Yoga Mat, refunded to my gift card."
        ),
        ("find_user_id_by_email", FARID),
        ("get_user_details", {"user_id": "farid_quiroga_2727"}),
        ("get_order_details", {"order_id": "#R3673072"}),
        A(
            f"I will return items {', '.join(items)} of order #R3673072 with the refund of ${amount} to {payment}. "
            "Do you confirm?"
        ),
        U(YES),
        ("return_delivered_order_items", {"order_id": "#R3673072", "item_ids": items, "payment_method_id": payment}),
        A(f"The return is requested; ${amount} will be refunded."),
    ]


def refusal_task() -> AgentRecord:
    """Farid asks to cancel #R3673072, which is delivered: the right answer is a refusal."""
    return task(
        "retail", {"name": "get_order_details", "arguments": {"order_id": "#R3673072"}}, "refuse_cancel_not_pending"
    )


def farid_refusal(answer: str) -> list:
    return [
        U(
            "Hi, my email is farid.quiroga2727@mail.test. Please cancel my order with the Yoga Mat, I no longer need it."
        ),
        ("find_user_id_by_email", FARID),
        ("get_user_details", {"user_id": "farid_quiroga_2727"}),
        ("get_order_details", {"order_id": "#R3673072"}),
        A(answer),
    ]


def refund_elsewhere_task() -> AgentRecord:
    """Farid wants the refund of a return to go to PayPal: not allowed (original method or a gift card only)."""
    pinned = {"name": "get_order_details", "arguments": {"order_id": "#R3673072"}}
    return task("retail", pinned, "refuse_return_refund_elsewhere")


def nadia_total() -> list:
    return [
        U(
            "Hi, my email is nadia.brandt9165@post.example. How much did I pay for the order with the Backpack "
            "(capacity 25l, color black)?"
        ),
        ("find_user_id_by_email", NADIA_B),
        ("get_user_details", {"user_id": "nadia_brandt_9165"}),
        ("get_order_details", {"order_id": "#R9594967"}),
        ("get_order_details", {"order_id": "#R3050852"}),
    ]


def nadia_exchange() -> list:
    return [
        U(
            "Hi, my email is nadia.brandt9165@post.example. I want to exchange the Backpack in my order with the "
            "Backpack (capacity 25l, color black) for the green 25l one, paying with my PayPal account."
        ),
        ("find_user_id_by_email", NADIA_B),
        ("get_user_details", {"user_id": "nadia_brandt_9165"}),
        ("get_order_details", {"order_id": "#R9594967"}),
        ("get_order_details", {"order_id": "#R3050852"}),
        ("get_product_details", {"product_id": "8949007298"}),
        A(
            "I will exchange item 5559779294 of order #R3050852 for item 0942346740, charging the difference of "
            "$14.52 to paypal_6093406. Do you confirm?"
        ),
        U(YES),
        ("exchange_delivered_order_items", EXCHANGE["arguments"]),
        A("The exchange for order #R3050852 is requested; you pay $14.52 more."),
    ]


def nils_two_goals(reason: str = "ordered by mistake") -> list:
    """Address first (steps 3-5), then the cancellation (steps 6-11), then the closing."""
    return [
        U(
            "Hi, I am Nils Okafor, zip 12247. Please update my profile address to 4723 Iris Place, Apt 269, Boise, "
            "ID 83724, USA, and cancel my order with the Office Chair: I ordered it by mistake."
        ),
        ("find_user_id_by_name_zip", NILS_O),
        ("get_user_details", {"user_id": "nils_okafor_2324"}),
        A(
            "I will change the address of nils_okafor_2324 to 4723 Iris Place, Apt 269, Boise, ID 83724, USA. "
            "Shall I proceed?"
        ),
        U(YES),
        ("modify_user_address", NILS_ADDRESS),
        ("get_order_details", {"order_id": "#R3184937"}),
        ("get_order_details", {"order_id": "#R1497173"}),
        A(f"I will cancel order #R1497173 (reason: {reason}), refunding $231.01 to paypal_1401604. Shall I proceed?"),
        U(YES),
        ("cancel_pending_order", {"order_id": "#R1497173", "reason": reason}),
        ("get_order_details", {"order_id": "#R1497173"}),
        A(
            "Your address is now 4723 Iris Place, Apt 269, Boise, ID 83724, USA, and order #R1497173 is cancelled "
            "with $231.01 refunded."
        ),
    ]


AIR_CANCEL = {"name": "cancel_reservation", "arguments": {"reservation_id": "DDCFFH", "reason": "weather"}}


BAGS = {
    "name": "update_reservation_baggages",
    "arguments": {"reservation_id": "GFFGGB", "total_baggages": 4, "payment_id": "credit_card_9773812"},
}


CABIN = {
    "name": "update_reservation_cabin",
    "arguments": {"reservation_id": "GFFGGB", "cabin": "basic_economy", "payment_id": "credit_card_9773812"},
}


PASSENGERS = {
    "name": "update_reservation_passengers",
    "arguments": {
        "reservation_id": "GFFGGB",
        "passengers": [{"first_name": "Nils", "last_name": "Xu", "dob": "1982-10-07"}],
    },
}


SAMIR = {"name": "get_user_details", "arguments": {"user_id": "samir_mendes_7345"}}


SAMIR_CALL = ("get_user_details", SAMIR["arguments"])


def air_cancel_task() -> AgentRecord:
    """Cancel Nadia Fontaine's trip CLT-ATL on 2025-06-11 (DDCFFH, $880 paid, insured) because of the weather."""
    return task("airline", AIR_CANCEL, "cancel_reservation")


def bags_task() -> AgentRecord:
    """Nils Xu wants 4 checked bags on GFFGGB (2 now; the fee, $80, by credit card)."""
    return task("airline", BAGS, "update_reservation_baggages")


def cabin_task() -> AgentRecord:
    """Move Nils Xu's GFFGGB from economy to basic economy ($123 back to the credit card)."""
    return task("airline", CABIN, "update_reservation_cabin")


def passengers_task() -> AgentRecord:
    """Correct the passenger of GFFGGB: Nils Xu, born 1982-10-07."""
    return task("airline", PASSENGERS, "update_reservation_passengers")


def membership_task() -> AgentRecord:
    """Samir Mendes asks for his membership level (regular)."""
    return task("airline", SAMIR, "membership_level")


def paid_task() -> AgentRecord:
    """Samir Mendes asks what he paid for the trip LAX-JFK on 2025-06-04 (FDKAAG: $472.00)."""
    return task(
        "airline", {"name": "get_reservation_details", "arguments": {"reservation_id": "FDKAAG"}}, "reservation_paid"
    )


def compensation_task() -> AgentRecord:
    """Nadia Fontaine (regular) asks for compensation for HEKKBJ (not insured, economy): to be refused."""
    pinned = {"name": "get_reservation_details", "arguments": {"reservation_id": "HEKKBJ"}}
    return task("airline", pinned, "refuse_compensation")


def air_two_goal_task() -> AgentRecord:
    """Nils Xu: cancel GFFGGB for a change of plans (not allowed: booked over 24 hours ago); then ZA156's status."""
    pinned = {"name": "get_flight_details", "arguments": {"flight_number": "ZA156", "date": "2025-06-19"}}
    return task("airline", pinned, index=2, constraints="5")


def fontaine_cancel(reason: str = "weather", answer: str = YES) -> list:
    return [
        U(
            "Hi, my user id is nadia_fontaine_7719. Please cancel my trip from CLT to ATL on 2025-06-11, because of "
            "the weather."
        ),
        ("get_user_details", {"user_id": "nadia_fontaine_7719"}),
        ("get_reservation_details", {"reservation_id": "DDCFFH"}),
        A(
            "Reservation DDCFFH is insured, so it can be refunded for weather. I will cancel reservation DDCFFH "
            f"(reason: {reason}) and refund $880.00 to your card. Do you confirm?"
        ),
        U(answer),
        ("cancel_reservation", {"reservation_id": "DDCFFH", "reason": reason}),
        A("Reservation DDCFFH is cancelled; $880.00 is refunded to the card that paid it."),
    ]


def nils_bags(total: int = 4, fee: str = "$80.00", confirm: str | None = None) -> list:
    confirm = confirm or (
        f"I will set the checked bags of reservation GFFGGB to {total}, charging {fee} to credit_card_9773812. "
        "Shall I proceed?"
    )
    return [
        U(
            "Hello, my user id is nils_xu_4693. I need 4 checked bags on my trip from BOS to ATL on 2025-06-19, "
            "paid with my credit card."
        ),
        ("get_user_details", {"user_id": "nils_xu_4693"}),
        ("get_reservation_details", {"reservation_id": "GFFGGB"}),
        A(confirm),
        U(YES),
        (
            "update_reservation_baggages",
            {"reservation_id": "GFFGGB", "total_baggages": total, "payment_id": "credit_card_9773812"},
        ),
        A(f"Reservation GFFGGB now has {total} checked bags; the bag fee is {fee}."),
    ]


def nils_cabin(cabin: str = "basic_economy", amount: str = "$123.00") -> list:
    return [
        U(
            "Hello, my user id is nils_xu_4693. Please move my trip from BOS to ATL on 2025-06-19 to basic economy; "
            "any difference goes to my credit card."
        ),
        ("get_user_details", {"user_id": "nils_xu_4693"}),
        ("get_reservation_details", {"reservation_id": "GFFGGB"}),
        A(
            f"I will change the cabin of reservation GFFGGB to {cabin.replace('_', ' ')}; {amount} is settled on "
            "credit_card_9773812. Shall I proceed?"
        ),
        U(YES),
        ("update_reservation_cabin", {"reservation_id": "GFFGGB", "cabin": cabin, "payment_id": "credit_card_9773812"}),
        A(f"Reservation GFFGGB is now in {cabin.replace('_', ' ')}; the fare difference is {amount}."),
    ]


def nils_passenger(dob: str = "1982-10-07") -> list:
    return [
        U(
            "Hi, my user id is nils_xu_4693. The passenger on my trip from BOS to ATL on 2025-06-19 is wrong: it "
            "should be Nils Xu, born 1982-10-07."
        ),
        ("get_user_details", {"user_id": "nils_xu_4693"}),
        ("get_reservation_details", {"reservation_id": "GFFGGB"}),
        A(f"I will update the passengers of reservation GFFGGB to Nils Xu, born {dob}. Shall I proceed?"),
        U(YES),
        (
            "update_reservation_passengers",
            {"reservation_id": "GFFGGB", "passengers": [{"first_name": "Nils", "last_name": "Xu", "dob": dob}]},
        ),
        A(f"The passenger of reservation GFFGGB is now Nils Xu, born {dob}."),
    ]
