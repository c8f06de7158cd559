"""What a message asserts, denies or says moves: the grounding check's reading of agent text, on literal sentences."""

import json

import pytest

from environments.airline.env import AirlineWorld
from environments.retail.env import RetailWorld
from schemas.steps import TextObservation
from verifiers.claims import Seen, cents, fact_terms_in, row_clauses
from verifiers.grounding import changes_elsewhere, contradictions, misattributed, misstated_movements, unread_rows

RETAIL, AIRLINE = RetailWorld.fact_terms, AirlineWorld.fact_terms


@pytest.mark.parametrize(
    ("text", "asserted", "denied"),
    [
        ("Order #R2 is still pending.", {"pending"}, set()),
        ("Order #R2 is not cancelled yet; it is still pending.", {"pending"}, {"cancelled"}),
        ("Your order is delivered, so it cannot be cancelled.", {"delivered"}, {"cancelled"}),
        ("It has neither been processed nor delivered.", set(), {"processed", "delivered"}),
        ("Only pending orders can be cancelled.", set(), set()),  # a rule: neither
        ("Is it pending or delivered?", set(), set()),  # a disjunction asserts neither side
        ("Your order is pending, processed or delivered.", set(), set()),
        ("Order #1 is pending and order #2 is delivered.", {"pending", "delivered"}, set()),
        ("Cancelling is possible when the order is pending.", set(), set()),  # "when" opens a condition
    ],
)
def test_retail_fact_terms(text, asserted, denied):
    assert fact_terms_in(text, RETAIL) == (asserted, denied)


def test_on_its_way_says_processed_of_the_order_not_of_money():
    aliases = {"processed": RetailWorld.phrasings["processed"]}
    assert fact_terms_in("Your order is on its way.", RETAIL, aliases) == ({"processed"}, set())
    assert fact_terms_in("Your order is cancelled and the refund is on its way.", RETAIL, aliases) == (
        {"cancelled"},
        set(),
    )


def test_the_comma_of_a_weekday_date_is_inside_the_clause():
    assert row_clauses("ZA615 on Monday, June 23 was cancelled, so HEDJBF can be cancelled") == (
        "ZA615 on Monday, June 23 was cancelled",
        " so HEDJBF can be cancelled",
    )
    assert row_clauses("On Monday, it is fine") == ("On Monday", " it is fine")


def test_a_rule_said_plainly_names_categories_not_the_users_level():
    text = "Compensation is for silver and gold members, or for insured or business trips. You are a regular member."
    assert fact_terms_in(text, AIRLINE) == ({"regular"}, set())
    assert fact_terms_in("You are a gold member.", AIRLINE) == ({"gold"}, set())


def moved(*amounts: float) -> set[int]:
    return {cents(a) for a in amounts}


def test_money_said_to_move_is_money_a_write_moved():
    text = "GFFGGB is in basic economy now; $214.00 goes back to your credit card."
    assert misstated_movements(9, text, moved(123)) == [{"step": 9, "kind": "amount", "value": 214.0}]
    assert misstated_movements(9, text.replace("214.00", "123"), moved(123)) == []


def test_a_thousands_separator_is_one_amount():
    text = "Reservation BGHEKA is cancelled; $6,609.00 is refunded to the methods that paid it."
    assert misstated_movements(9, text, moved(6609)) == []
    assert misstated_movements(9, text, moved(609)) == [{"step": 9, "kind": "amount", "value": 6609.0}]


def test_amounts_that_add_up_to_what_moved():
    text = "The return is requested: $16.41 and $219.27 are refunded to your gift card."
    assert misstated_movements(3, text, moved(235.68)) == []
    assert len(misstated_movements(3, text, moved(200))) == 2


@pytest.mark.parametrize(
    "text",
    [
        "If you cancelled instead, $214.00 would be refunded.",  # a condition
        "You paid $214.00 for this trip.",  # history: no word of money moving
        "The fare was $214.00 (refundable).",  # an aside in brackets is its own clause
        "No refund of $214.00 is due.",  # a denial
    ],
)
def test_what_is_not_said_to_move_now(text):
    assert misstated_movements(1, text, moved(123)) == []


def test_money_said_of_the_past_before_any_write_is_history():
    text = "Order #R6 was cancelled, and the $474.18 was refunded to your Amex."
    assert misstated_movements(3, text, moved(0), history=True) == []
    assert misstated_movements(9, text, moved(0)) == [{"step": 9, "kind": "amount", "value": 474.18}]


def seen_after(*results: dict) -> Seen:
    seen = Seen()
    for result in results:
        seen.add(TextObservation(content=json.dumps(result), source="tool"))
    return seen


USER = {"user_id": "ana_7", "membership": "regular", "reservations": ["JGJFJJ", "HKAAAB"]}
RESERVATION = {"reservation_id": "JGJFJJ", "user_id": "ana_7", "cabin": "economy", "status": "active", "price": 214}
ORDER_1 = {
    "order_id": "#R1000001",
    "user_id": "ana_7",
    "status": "delivered",
    "tracking": ["TRK1110001111"],
    "total": 40.5,
}
ORDER_2 = {
    "order_id": "#R1000002",
    "user_id": "ana_7",
    "status": "pending",
    "tracking": ["TRK2220002222"],
    "total": 99.0,
}


def test_a_reservation_code_is_a_row_name_once_such_a_row_was_read():
    seen = seen_after(USER, RESERVATION)
    assert seen.names_in("Reservation JGJFJJ and HKAAAB; PLEASE note") == ["JGJFJJ", "HKAAAB"]
    assert [row.values["cabin"] for row in seen.row_reads("JGJFJJ")] == ["economy"]


def test_a_term_is_compared_only_with_a_row_that_can_hold_it():
    seen = seen_after(USER, RESERVATION)
    # "regular" is a membership (the user's row holds it), not something a reservation has
    assert contradictions(3, "You are a regular member and JGJFJJ is an economy trip.", AIRLINE, seen) == []
    assert contradictions(3, "JGJFJJ is in business now.", AIRLINE, seen) == [
        {"step": 3, "kind": "contradicted", "value": "JGJFJJ: business"}
    ]
    assert contradictions(3, "I will move JGJFJJ to business.", AIRLINE, seen) == []  # a plan


def test_a_snake_case_value_holds_no_status():
    assert fact_terms_in("reason airline_cancelled_flight", AIRLINE) == (set(), set())
    assert fact_terms_in("cabin basic_economy", AIRLINE) == ({"basic economy"}, set())


def test_what_a_clause_says_of_its_row_is_that_rows():
    seen = seen_after(ORDER_1, ORDER_2)
    assert misattributed(5, "You paid $40.50 for order #R1000001.", seen, set()) == []
    assert misattributed(5, "You paid $99.00 for order #R1000001.", seen, set()) == [
        {"step": 5, "kind": "misattributed", "value": "#R1000001: 99.0"}
    ]
    assert misattributed(5, "The tracking number of order #R1000001 is TRK2220002222.", seen, set()) == [
        {"step": 5, "kind": "misattributed", "value": "#R1000001: TRK2220002222"}
    ]


def test_an_id_a_request_to_confirm_passes_to_the_write_says_nothing_of_the_row():
    """A request to confirm an exchange of order #R1000001 paid with paypal_2926022 proposes a call: that method
    paid order #R1000002, and the request says nothing of how #R1000001 was paid (seen in synthesis: 8 % of
    retail gold runs were rejected for it)."""
    paid = lambda order, method: {**order, "payment_history": [{"payment_method_id": method}]}  # noqa: E731
    seen = seen_after(paid(ORDER_1, "paypal_1720026"), paid(ORDER_2, "paypal_2926022"))
    proposal = (
        "I will exchange delivered order items (order id #R1000001, item ids ['6900548851'], new item ids "
        "['2519289936'], payment method id paypal_2926022), which moves $5.74. Do you confirm (yes/no)?"
    )
    claim = [{"step": 5, "kind": "misattributed", "value": "#R1000001: paypal_2926022"}]
    assert misattributed(5, proposal, seen, set(), planned={"paypal_2926022"}) == []
    assert misattributed(5, proposal, seen, set()) == claim  # not an argument of a write: a claim
    assert misattributed(5, "Order #R1000001 was paid with paypal_2926022.", seen, set()) == claim


def test_a_row_only_listed_has_no_values_to_state():
    seen = seen_after(USER, RESERVATION)
    assert unread_rows(4, "Reservation HKAAAB is cancelled.", AIRLINE, seen) == [
        {"step": 4, "kind": "unread_row", "value": "HKAAAB"}
    ]
    assert unread_rows(4, "You also hold reservation HKAAAB.", AIRLINE, seen) == []  # states nothing of it


def test_a_change_is_said_of_a_row_the_writes_changed():
    seen = seen_after(USER, RESERVATION, {**RESERVATION, "reservation_id": "HKAAAB", "cabin": "business"})
    assert (
        changes_elsewhere(6, "Reservation JGJFJJ is now in business.", seen, {"JGJFJJ": {"update_reservation_cabin"}})
        == []
    )
    assert changes_elsewhere(
        6, "Reservation HKAAAB is now in business.", seen, {"JGJFJJ": {"update_reservation_cabin"}}
    ) == [{"step": 6, "kind": "unchanged_row", "value": "HKAAAB"}]
    assert (
        changes_elsewhere(
            6, "If you want, HKAAAB could be updated too.", seen, {"JGJFJJ": {"update_reservation_cabin"}}
        )
        == []
    )
