"""What the agent tells the user, checked against what the tools showed and the writes did: a right and a wrong
trajectory per rule of verifiers/statements.py (and the date and number readers it uses), on real seed-0 tasks.
"""

from __future__ import annotations

import pytest

from tests.verifiers.labelled_tasks import (
    FARID,
    NADIA_B,
    YES,
    A,
    U,
    air_cancel_task,
    assert_right,
    assert_wrong,
    bags_task,
    cancel_task,
    compensation_task,
    exchange_task,
    fontaine_cancel,
    nadia_exchange,
    nils_bags,
    return_task,
    task,
    tove_cancel,
    verdict,
)
from verifiers.amount_words import amounts_said, numbers_said
from verifiers.dates import dates_said, times_said


@pytest.mark.parametrize(
    "text,date",
    [
        ("departing 2025-06-11", (2025, 6, 11)),
        ("on June 11", (None, 6, 11)),
        ("the 11th of June 2025", (2025, 6, 11)),
        ("on 6/11", (None, 6, 11)),
        ("Wednesday the 11th.", (None, None, 11)),
    ],
)
def test_dates_are_read_in_any_common_form(text, date):
    assert [d for _, d in dates_said(text)] == [date]


def test_an_ordinal_before_a_noun_is_a_count_and_may_is_a_verb():
    assert dates_said("the 4th bag costs $40; you may 3 times") == ()
    assert numbers_said("the 4th bag") == {4}


def test_times_and_money_in_words():
    assert [t for _, t in times_said("from 5:30 am to 4:20 PM, or noon")] == [(5, 30), (16, 20), (12, 0)]
    assert amounts_said("fifty-four dollars and twenty cents") == [54.2]


# ---------------------------------------------------------------- dates, times and legs (airline)

FONTAINE = "Hi, my user id is nadia_fontaine_7719. What about my Boston to Minneapolis round trip?"


def fontaine_trip(closing: str) -> list:
    """A refused compensation for HEKKBJ (ZA184 out on June 16, ZA455 back on June 18), then ``closing``."""
    return [
        U(FONTAINE + " I want compensation for it."),
        ("get_user_details", {"user_id": "nadia_fontaine_7719"}),
        ("get_reservation_details", {"reservation_id": "HEKKBJ"}),
        A(
            "I'm sorry, I cannot offer compensation: it is only for silver or gold members, insured trips or business "
            "travellers, and HEKKBJ is an uninsured economy trip on a regular membership. " + closing
        ),
    ]


@pytest.mark.parametrize(
    "closing",
    ["Your outbound flight ZA184 leaves on Monday, June 16th.", "You fly back on ZA455 on the 18th of June."],
)
def test_right_dates_and_legs_said_in_other_forms(closing):
    assert_right(compensation_task(), fontaine_trip(closing))


def test_wrong_date_told_for_the_flight():
    assert_wrong(compensation_task(), fontaine_trip("Your flight ZA184 leaves on June 18."), "misstated_date")


def test_wrong_leg_told():
    assert_wrong(compensation_task(), fontaine_trip("Your return flight is ZA184."), "misstated_leg")


def test_wrong_time_never_shown():
    assert_wrong(compensation_task(), fontaine_trip("ZA184 departs at 7:45 AM."), "ungrounded_time")


# ---------------------------------------------------------------- counts, items, payment methods (retail)


def test_right_count_of_the_items_returned_in_words():
    script = return_script(
        "I'll return the Yoga Mat and the Cookware Set from #R3673072; $235.68 goes to your gift card. OK?"
    )
    script[-1] = A("Both items are on their way back to us; $235.68 will go to your gift card.")
    assert_right(return_task(), script)


def test_wrong_count_of_the_items_returned():
    script = return_script(
        "I'll return the Yoga Mat and the Cookware Set from #R3673072; $235.68 goes to your gift card. OK?"
    )
    script[-1] = A("The return of 3 items is requested; $235.68 will go to your gift card.")
    assert_wrong(return_task(), script, "misstated_count")


def test_wrong_refund_destination_told_after_the_write():
    script = return_script(
        "I'll return the Yoga Mat and the Cookware Set from #R3673072; $235.68 goes to your gift card. OK?"
    )
    script[-1] = A("Done: $235.68 will be refunded to your credit card.")
    assert_wrong(return_task(), script, "misstated_payment")


def return_script(confirm: str) -> list:
    return [
        U("Hello, my email is farid.quiroga2727@mail.test. I want to return the Yoga Mat and the Cookware Set."),
        ("find_user_id_by_email", FARID),
        ("get_user_details", {"user_id": "farid_quiroga_2727"}),
        ("get_order_details", {"order_id": "#R3673072"}),
        A(confirm),
        U(YES),
        (
            "return_delivered_order_items",
            {
                "order_id": "#R3673072",
                "item_ids": ["6184554803", "0478724998"],
                "payment_method_id": "gift_card_8370131",
            },
        ),
        A("The return is requested; $235.68 will go to your gift card once the items are back."),
    ]


def test_wrong_payer_of_an_order_told():
    record = task("retail", {"name": "get_order_details", "arguments": {"order_id": "#R3050852"}}, "order_total")
    script = [
        U("Hi, my email is nadia.brandt9165@post.example. What did I pay for my order with the black 25l Backpack?"),
        ("find_user_id_by_email", NADIA_B),
        ("get_user_details", {"user_id": "nadia_brandt_9165"}),
        ("get_order_details", {"order_id": "#R9594967"}),
        ("get_order_details", {"order_id": "#R3050852"}),
    ]
    assert_right(record, [*script, A("Order #R3050852 came to $406.72, paid with your credit card.")])
    assert_wrong(record, [*script, A("Order #R3050852 came to $406.72, paid with your PayPal.")], "misstated_payment")


def exchange_script(closing: str) -> list:
    return [
        U("Hi, my email is nadia.brandt9165@post.example. I want my black 25l Backpack as the green 25l one."),
        ("find_user_id_by_email", NADIA_B),
        ("get_user_details", {"user_id": "nadia_brandt_9165"}),
        ("get_order_details", {"order_id": "#R3050852"}),
        ("get_product_details", {"product_id": "8949007298"}),
        A("I'll exchange the Backpack in #R3050852 for the green 25l one; you pay $14.52 more with PayPal. OK?"),
        U("Yes."),
        (
            "exchange_delivered_order_items",
            {
                "order_id": "#R3050852",
                "item_ids": ["5559779294"],
                "new_item_ids": ["0942346740"],
                "payment_method_id": "paypal_6093406",
            },
        ),
        A(closing),
    ]


def test_right_new_item_told_by_its_options():
    assert_right(exchange_task(), exchange_script("Done: you'll receive the green 25l Backpack; $14.52 is charged."))


def test_wrong_new_item_told():
    script = exchange_script("Done: you'll receive the grey 25l Backpack; $14.52 is charged.")
    assert_wrong(exchange_task(), script, "misstated_item")


def test_wrong_no_extra_cost_when_money_was_charged():
    script = exchange_script("Done: the green Backpack is on its way, at no extra cost to you.")
    assert_wrong(exchange_task(), script, "misstated_free")


# ---------------------------------------------------------------- hedges, invented reasons, claims of what was done


def test_wrong_hedged_status_of_an_order_that_was_read():
    script = tove_cancel()
    script[-1] = A("Order #R9654456 is cancelled; your other order is either processed or delivered by now.")
    assert_wrong(cancel_task(), script, "hedged_fact")


def test_wrong_invented_cause():
    script = tove_cancel()
    script[-1] = A("Order #R9654456 is cancelled. Sorry for the wait, we had a system outage earlier today.")
    assert_wrong(cancel_task(), script, "invented_reason")


def test_wrong_invented_time_limit():
    script = fontaine_trip("And compensation requests must be made within 30 days of travel anyway.")
    assert_wrong(compensation_task(), script, "invented_reason")


def test_wrong_insurance_the_booking_does_not_have():
    script = fontaine_trip("Your booking HEKKBJ has travel insurance.")
    assert_wrong(compensation_task(), script, "invented_reason")


def test_wrong_claims_an_action_no_write_did():
    script = tove_cancel()
    script[-1] = A("Order #R9654456 is cancelled, and I've also opened a review of your refund.")
    assert_wrong(cancel_task(), script, "claimed_undone")


def test_wrong_claims_a_transfer_that_was_not_made():
    script = tove_cancel()
    script[-1] = A("Order #R9654456 is cancelled. I'm transferring you to a human agent for the rest.")
    assert_wrong(cancel_task(), script, "claimed_undone")


def test_right_refusal_said_in_other_words_and_wrong_refusal_never_said():
    right = fontaine_trip("")
    right[-1] = A("HEKKBJ doesn't qualify: compensation is only for silver or gold members, insured or business trips.")
    assert_right(compensation_task(), right)
    unsaid = fontaine_trip("")
    unsaid[-1] = A("HEKKBJ is an economy trip; you are a regular member.")
    assert_wrong(compensation_task(), unsaid, "refusal_unsaid")


# ---------------------------------------------------------------- bags: allowance, "two more", the write's count


def test_right_bag_counts_the_allowance_and_two_more():
    confirm = (
        "GFFGGB has 2 checked bags now; two more bags are $40 each, $80.00 in total, on credit_card_9773812. "
        "Shall I proceed?"
    )
    assert_right(bags_task(), nils_bags(confirm=confirm))


def test_wrong_bag_count_told_after_the_write():
    script = nils_bags()
    script[-1] = A("Reservation GFFGGB now has 3 checked bags; the bag fee is $80.00.")
    assert_wrong(bags_task(), script, "misstated_count")


# ---------------------------------------------------------------- kinds the held-out labelled set found


def fontaine_cancel_with_status(status_sentence: str) -> list:
    """The weather cancellation of DDCFFH, its flight ZA207 (Wednesday June 11, available) read first, and the
    request to confirm opening with ``status_sentence``."""
    script = fontaine_cancel()
    script.insert(3, ("get_flight_details", {"flight_number": "ZA207", "date": "2025-06-11"}))
    script[4] = A(status_sentence + " " + script[4].content)
    return script


def test_right_status_of_the_flight_in_a_proposal_to_cancel():
    assert_right(air_cancel_task(), fontaine_cancel_with_status("Flight ZA207 on Wednesday, June 11 is available."))


def test_wrong_flight_said_cancelled_in_a_proposal_to_cancel():
    # "cancelled" is where the proposed write leads the reservation; said of the flight, in the past, it is a fact
    # (and the comma of "Wednesday, June 11" is inside the date, not between clauses)
    script = fontaine_cancel_with_status("Flight ZA207 on Wednesday, June 11 was cancelled by the airline.")
    assert_wrong(air_cancel_task(), script, "ungrounded_contradicted")


def test_right_bags_now_before_the_write_are_the_row_as_read():
    confirm = (
        "It has 2 bags now. I will set the checked bags of reservation GFFGGB to 4, charging $80.00 to "
        "credit_card_9773812. Shall I proceed?"
    )
    assert_right(bags_task(), nils_bags(confirm=confirm))


def test_wrong_bags_now_before_the_write():
    confirm = (
        "It has 5 bags now. I will set the checked bags of reservation GFFGGB to 4, charging $80.00 to "
        "credit_card_9773812. Shall I proceed?"
    )
    assert_wrong(bags_task(), nils_bags(confirm=confirm), "misstated_count")


def bags_then_passenger(passenger_note: str, bags_note: str) -> list:
    """Two writes: the passenger of GFFGGB confirmed (free), then 4 bags ($80 charged)."""
    script = nils_bags(confirm=f"I will set the checked bags of reservation GFFGGB to 4, {bags_note}. Proceed?")
    return [
        *script[:3],
        A(f"I will update the passengers of reservation GFFGGB to Nils Xu, born 1982-10-07. {passenger_note} OK?"),
        U(YES),
        (
            "update_reservation_passengers",
            {
                "reservation_id": "GFFGGB",
                "passengers": [{"first_name": "Nils", "last_name": "Xu", "dob": "1982-10-07"}],
            },
        ),
        *script[3:],
    ]


def test_free_is_said_of_the_write_the_message_proposes():
    right = verdict(bags_task(), bags_then_passenger("No charge.", "charging $80.00 to credit_card_9773812"))
    assert "misstated_free" not in right.reasons
    wrong = verdict(bags_task(), bags_then_passenger("No charge.", "at no extra cost to credit_card_9773812"))
    assert "misstated_free" in wrong.reasons


def test_right_refund_rule_and_offer_said_after_the_write():
    script = return_script(
        "I'll return the Yoga Mat and the Cookware Set from #R3673072; $235.68 goes to your gift card. OK?"
    )
    script[-1] = A(
        "The return is requested; $235.68 will go to your gift card. A refund can only go to the original "
        "payment method or a gift card; I could send a later refund to your credit card if you like."
    )
    assert_right(return_task(), script)


def test_right_a_variant_that_does_not_exist_denied():
    denial = "A grey 25l Backpack isn't among its versions, but the green 25l one is in stock."
    assert_right(exchange_task(), nadia_exchange_saying(denial))


def test_wrong_a_variant_that_does_not_exist_told():
    claim = "The grey 25l Backpack is in stock too."
    assert_wrong(exchange_task(), nadia_exchange_saying(claim), "misstated_item")


def nadia_exchange_saying(sentence: str) -> list:
    script = nadia_exchange()
    script[6] = A(sentence + " " + script[6].content)
    return script
