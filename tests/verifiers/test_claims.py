"""What a message asserts, denies or says moves: the grounding check's reading of agent text, on literal sentences."""

import pytest

from environments.airline.env import AirlineWorld
from environments.retail.env import RetailWorld
from verifiers.claims import cents, fact_terms_in
from verifiers.grounding import misstated_movements

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
    ],
)
def test_retail_fact_terms(text, asserted, denied):
    assert fact_terms_in(text, RETAIL) == (asserted, denied)


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
