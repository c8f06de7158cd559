"""Labelled trajectories written by hand: the verifier chain must fail each wrong one for its named reason, and
pass each right one that takes another valid path than the gold (extra reads, goals in another order, recovery
from a tool error, amounts written another way, refusals that offer what is allowed, a sum worked out by a tool).

The tasks are real synthesized tasks (seed 0, 500 users: q carries gold actions and goal metadata); the tool
results come from the live seed-0 world (tests/verifiers/handwritten.py). Each task is pinned by one of its gold
actions, so a change in synthesis shows up as a clear failure rather than as scripts about other rows.
"""

from __future__ import annotations

from tests.verifiers.labelled_tasks import (
    FARID,
    NADIA_R,
    PAYMENT,
    SAMIR_CALL,
    TOVE,
    YES,
    A,
    U,
    air_cancel_task,
    air_two_goal_task,
    assert_right,
    assert_wrong,
    bags_task,
    cabin_task,
    cancel_task,
    compensation_task,
    exchange_task,
    farid_refusal,
    farid_return,
    fontaine_cancel,
    membership_task,
    nadia_exchange,
    nadia_total,
    nils_bags,
    nils_cabin,
    nils_passenger,
    nils_two_goals,
    paid_task,
    passengers_task,
    payment_task,
    refund_elsewhere_task,
    refusal_task,
    return_task,
    task,
    tove_cancel,
    two_goal_task,
)


def test_retail_wrong_one_of_the_two_items_returned():
    script = farid_return(["6184554803"], "gift_card_8370131", "16.41")
    assert_wrong(return_task(), script, "wrong_change")


def test_retail_wrong_refund_to_the_credit_card_instead_of_the_gift_card():
    script = farid_return(["6184554803", "0478724998"], "credit_card_9835904", "235.68")
    assert_wrong(return_task(), script, "wrong_change")


def test_retail_wrong_says_cancelled_when_nothing_was_cancelled():
    script = tove_cancel()
    del script[4:7]  # no confirmation, no call
    assert_wrong(cancel_task(), script, "missing_change")


def test_retail_wrong_write_without_an_explicit_yes():
    script = tove_cancel(answer="Hmm, and when would I get my money back?")
    assert_wrong(cancel_task(), script, "write_without_confirmation")


def test_retail_wrong_denied_status_contradicts_the_record():
    """#R4676497 is processed; "has not been processed, it is still pending" does not state it."""
    record = task(
        "retail", {"name": "get_order_details", "arguments": {"order_id": "#R4676497"}}, "refuse_return_not_delivered"
    )
    script = [
        U("Hi, my email is freya.jensen8792@mail.test. I want to return my order with the Yoga Mat."),
        ("find_user_id_by_email", {"email": "freya.jensen8792@mail.test"}),
        ("get_user_details", {"user_id": "freya_jensen_8792"}),
        ("get_order_details", {"order_id": "#R6271043"}),
        ("get_order_details", {"order_id": "#R4676497"}),
        A("Order #R4676497 has not been processed, it is still pending; only delivered orders can be returned."),
    ]
    assert_wrong(record, script, "constraint_failed:g0.status")


def test_retail_wrong_account_read_by_a_guessed_user_id_before_the_lookup():
    script = tove_cancel()
    script[1:3] = [("get_user_details", {"user_id": "tove_lindqvist_3311"}), ("find_user_id_by_name_zip", TOVE)]
    assert_wrong(cancel_task(), script, "identity_not_verified")


def test_retail_wrong_cancel_reason_is_not_the_one_the_user_gave():
    """The user said "ordered by mistake"; the agent cancels as "no longer needed"."""
    record = two_goal_task()
    script = nils_two_goals(reason="no longer needed")
    assert_wrong(record, script, "wrong_change")


def test_retail_wrong_confirmation_without_the_amount():
    script = [
        U("Hi, I am Nadia Rossi, zip 80203. Please pay my order with the Rain Jacket with my PayPal account."),
        ("find_user_id_by_name_zip", NADIA_R),
        ("get_user_details", {"user_id": "nadia_rossi_1112"}),
        ("get_order_details", {"order_id": "#R6144973"}),
        ("get_order_details", {"order_id": "#R6056952"}),
        A("I will switch the payment of order #R6056952 to paypal_5659534. Shall I proceed?"),
        U(YES),
        ("modify_pending_order_payment", PAYMENT["arguments"]),
        A("Order #R6056952 is now paid with PayPal ($573.77); your card is refunded."),
    ]
    assert_wrong(payment_task(), script, "confirmation_incomplete")


def test_retail_wrong_write_on_another_order_than_the_task():
    """Nils asked to cancel #R1497173 (Office Chair); the agent cancels his other pending order #R3184937 too."""
    script = nils_two_goals()
    script[-1:-1] = [
        A("I will also cancel order #R3184937 (reason: ordered by mistake), refunding $281.49. Shall I proceed?"),
        U(YES),
        ("cancel_pending_order", {"order_id": "#R3184937", "reason": "ordered by mistake"}),
    ]
    assert_wrong(two_goal_task(), script, "write_out_of_scope")


def test_retail_wrong_stated_amount_never_shown():
    """A sum worked out in the head ($699.07 for two orders) that no tool showed."""
    record = task("retail", {"name": "get_order_details", "arguments": {"order_id": "#R3050852"}}, "order_total")
    script = nadia_total() + [A("You paid $406.72 for order #R3050852, and $699.07 for your two orders together.")]
    assert_wrong(record, script, "ungrounded_amount")


def test_retail_wrong_amount_of_the_other_order():
    """Both orders were read; the Backpack order's total is told as the other order's."""
    record = task("retail", {"name": "get_order_details", "arguments": {"order_id": "#R3050852"}}, "order_total")
    assert_wrong(record, nadia_total() + [A("You paid $406.72 for order #R9594967.")], "ungrounded_misattributed")


def test_retail_wrong_status_of_an_order_never_read():
    """#R9594967 was only listed in the profile: what its status is, the agent cannot know."""
    record = task("retail", {"name": "get_order_details", "arguments": {"order_id": "#R3050852"}}, "order_total")
    script = nadia_total()
    del script[3]  # the read of #R9594967
    script.append(A("You paid $406.72 for order #R3050852. Your other order #R9594967 is delivered."))
    assert_wrong(record, script, "ungrounded_unread_row")


def test_retail_wrong_invented_item_id():
    """The new variant's item id is used without reading the product's variants."""
    script = nadia_exchange()
    del script[5]  # the get_product_details call
    assert_wrong(exchange_task(), script, "ungrounded_argument")


def test_retail_wrong_refusal_without_the_reads_that_establish_it():
    script = farid_refusal(
        "Sorry, only pending orders can be cancelled, and your order #R3673072 is delivered, so I cannot cancel it."
    )
    del script[3]  # the get_order_details call
    assert_wrong(refusal_task(), script, "refusal_ungrounded")


def test_retail_wrong_only_one_of_two_goals_done():
    script = nils_two_goals()
    del script[8:11]  # no confirmation, no cancellation
    assert_wrong(two_goal_task(), script, "missing_change")


def test_retail_wrong_closing_contradicts_the_cancellation():
    """The order was cancelled; the agent tells the user it is still pending ("pending" was read before the write)."""
    script = tove_cancel()
    script[-1] = A("Order #R9654456 is not cancelled yet; it is still pending.")
    assert_wrong(cancel_task(), script, "ungrounded_contradicted")


def test_retail_wrong_refund_is_one_items_price():
    """Both items are returned ($235.68 to the gift card); the agent says $219.27, the Cookware Set's price (shown)."""
    script = farid_return(["6184554803", "0478724998"], "gift_card_8370131", "235.68")
    script[-1] = A("The return is requested; $219.27 will be refunded to your gift card.")
    assert_wrong(return_task(), script, "ungrounded_amount")


def test_retail_wrong_closing_says_pending_without_naming_the_order():
    """'pending' was shown, but by a read the cancellation superseded: no row the agent last saw is pending."""
    script = tove_cancel()
    script[-1] = A("Done. Your order is still pending, so nothing changes for you.")
    assert_wrong(cancel_task(), script, "ungrounded_fact")


def test_retail_wrong_closing_denies_the_cancellation():
    script = tove_cancel()
    script[-1] = A("I could not cancel it: order #R9654456 has not been cancelled.")
    assert_wrong(cancel_task(), script, "ungrounded_contradicted")


def test_retail_wrong_closing_says_the_order_left_alone_was_changed():
    """#R1497173 was cancelled and the address updated; #R3184937 (read, left as it was) is said to be updated."""
    script = nils_two_goals()
    script[-1] = A(
        "Your address is now 4723 Iris Place, Apt 269, Boise, ID 83724, USA. Order #R3184937 is updated too."
    )
    assert_wrong(two_goal_task(), script, "ungrounded_unchanged_row")


def test_retail_wrong_cancel_of_an_order_it_never_looked_at():
    """The agent picks the Desk Organizer's order from the profile's list without reading it (a guess)."""
    script = tove_cancel()
    del script[3]  # the get_order_details call
    assert_wrong(cancel_task(), script, "write_before_read")


def test_retail_wrong_closing_names_the_other_order():
    """#R1497173 was cancelled; the agent says #R3184937 (read, but left pending) is."""
    script = nils_two_goals()
    script[-1] = A(
        "Your address is now 4723 Iris Place, Apt 269, Boise, ID 83724, USA, and order #R3184937 is cancelled."
    )
    assert_wrong(two_goal_task(), script, "ungrounded_contradicted")


def test_retail_right_cancel_with_extra_reads():
    script = tove_cancel()
    script[4:4] = [
        ("get_product_details", {"product_id": "7511802552"}),
        ("list_product_types", {}),
        ("get_order_details", {"order_id": "#R9654456"}),
    ]
    script[-1:-1] = [("get_order_details", {"order_id": "#R9654456"})]
    assert_right(cancel_task(), script)


def test_retail_right_recovers_from_a_tool_error_with_one_confirmation():
    script = tove_cancel()
    script[6:6] = [("cancel_pending_order", {"order_id": "#R9654456", "reason": "not needed anymore"})]
    assert_right(cancel_task(), script)


def test_retail_right_amount_written_as_usd():
    script = tove_cancel(
        confirm="Order #R9654456 is pending. Cancel order #R9654456 as no longer needed and refund USD 227.32 to "
        "credit_card_7891075: shall I proceed?"
    )
    script[-1] = A("Done: order #R9654456 is cancelled and 227.32 will be back on your card in a few days.")
    assert_right(cancel_task(), script)


def test_retail_right_amount_written_without_a_currency_sign():
    script = tove_cancel(
        confirm="Your order #R9654456 is pending; the refund would be 227.32 to credit_card_7891075. "
        "Should I cancel #R9654456 as no longer needed?"
    )
    assert_right(cancel_task(), script)


def test_retail_right_says_what_can_be_done_before_doing_it():
    script = tove_cancel(
        confirm="Your order #R9654456 is pending, so it can be cancelled; the refund is $227.32 to "
        "credit_card_7891075. Should I cancel #R9654456 as no longer needed?"
    )
    assert_right(cancel_task(), script)


def test_retail_right_paraphrased_closing():
    script = tove_cancel()
    script[-1] = A("All set! I have cancelled #R9654456 for you, and the $227.32 is on its way back to your card.")
    assert_right(cancel_task(), script)


def test_retail_right_closing_says_what_the_order_was():
    """A term said of the past is checked against every read of the row, not only the latest."""
    script = tove_cancel()
    script[-1] = A("Order #R9654456 was pending. It is cancelled now, and $227.32 will go back to your card.")
    assert_right(cancel_task(), script)


def test_retail_right_refund_said_item_by_item():
    script = farid_return(["6184554803", "0478724998"], "gift_card_8370131", "235.68")
    script[-1] = A("The return is requested: $16.41 and $219.27 are refunded to your gift card.")
    assert_right(return_task(), script)


def test_retail_right_refusal_says_it_cannot_be_cancelled():
    """'cannot be cancelled' denies the status; it does not claim one that no read showed."""
    assert_right(refusal_task(), farid_refusal("Your order #R3673072 is delivered, so it cannot be cancelled."))


def test_retail_right_cancel_of_the_order_the_user_named():
    """The user names the order: acting on it without reading it first is no guess (the result shows it)."""
    script = tove_cancel(
        confirm="I will cancel order #R9654456 (reason: no longer needed); $227.32 goes back to "
        "credit_card_7891075. Shall I proceed?"
    )
    script[0] = U("Hi, I am Tove Lindqvist, zip 43293. Please cancel my order #R9654456, I no longer need it.")
    del script[3]  # the get_order_details call
    assert_right(cancel_task(), script)


def test_retail_right_user_agrees_with_no_problem():
    assert_right(cancel_task(), tove_cancel(answer="No problem, go ahead."))


def test_retail_right_user_gives_the_name_and_zip_when_asked():
    script = tove_cancel()
    script[0:1] = [
        U("Hi, I want to cancel my order with the Desk Organizer. I no longer need it."),
        A("I can help with that. Could you tell me your first name, last name and zip code?"),
        U("Tove Lindqvist, 43293."),
    ]
    assert_right(cancel_task(), script)


def test_retail_right_return_total_worked_out_with_calculate():
    script = farid_return(["6184554803", "0478724998"], "gift_card_8370131", "235.68")
    script[4:4] = [("calculate", {"expression": "16.41 + 219.27"})]
    script[5:5] = [A("The Yoga Mat ($16.41) and the Cookware Set ($219.27) come to $235.68.")]
    assert_right(return_task(), script)


def test_retail_right_each_orders_total_said_with_its_order():
    record = task("retail", {"name": "get_order_details", "arguments": {"order_id": "#R3050852"}}, "order_total")
    script = nadia_total() + [
        A("You paid $406.72 for order #R3050852 (the Backpack), and order #R9594967 cost $292.35.")
    ]
    assert_right(record, script)


def test_retail_right_sum_of_two_orders_worked_out_with_calculate():
    record = task("retail", {"name": "get_order_details", "arguments": {"order_id": "#R3050852"}}, "order_total")
    script = nadia_total() + [
        ("calculate", {"expression": "406.72 + 292.35"}),
        A("You paid $406.72 for order #R3050852, and $699.07 for your two orders together."),
    ]
    assert_right(record, script)


def test_retail_right_exchange_as_gold_with_the_price_difference_in_words():
    script = nadia_exchange()
    script[-1] = A(
        "The exchange of order #R3050852 is requested; the difference of 14.52 dollars is charged to PayPal."
    )
    assert_right(exchange_task(), script)


def test_retail_right_closing_names_the_changed_order_and_the_one_left_alone():
    script = nils_two_goals()
    script[-1] = A(
        "Your address is now 4723 Iris Place, Apt 269, Boise, ID 83724, USA. Order #R1497173 is now cancelled, "
        "with $231.01 refunded; order #R3184937 stays as it was."
    )
    assert_right(two_goal_task(), script)


def test_retail_right_two_goals_in_the_other_order():
    record = two_goal_task()
    script = nils_two_goals()
    address, cancel = script[3:6], script[6:12]
    script[3:12] = [*cancel, *address]
    assert_right(record, script)


def test_retail_right_refusal_offers_the_allowed_alternatives():
    script = [
        U(
            "Hi, my email is farid.quiroga2727@mail.test. I want to return the Cookware Set from my order with the "
            "Yoga Mat and have the refund sent to my PayPal account."
        ),
        ("find_user_id_by_email", FARID),
        ("get_user_details", {"user_id": "farid_quiroga_2727"}),
        ("get_order_details", {"order_id": "#R3673072"}),
        A(
            "I am sorry: refunds of returns go to the original payment method or to a gift card, so I cannot send "
            "this one to PayPal. I can refund the Cookware Set to your credit card ending in 2176, or to your gift "
            "card gift_card_8370131, if you like."
        ),
    ]
    assert_right(refund_elsewhere_task(), script)


def test_retail_right_refusal_reason_stated_as_a_rule_with_only():
    script = [
        U(
            "Hi, my email is farid.quiroga2727@mail.test. I want to return the Cookware Set from my order with the "
            "Yoga Mat and have the refund sent to my PayPal account."
        ),
        ("find_user_id_by_email", FARID),
        ("get_user_details", {"user_id": "farid_quiroga_2727"}),
        ("get_order_details", {"order_id": "#R3673072"}),
        A(
            "I am sorry: the refund of a return can only go to the original payment method or a gift card, so I "
            "cannot send it to PayPal. I can refund the Cookware Set to your credit card ending in 2176, or to your "
            "gift card gift_card_8370131, if you like."
        ),
    ]
    assert_right(refund_elsewhere_task(), script)


def test_airline_wrong_cabin():
    assert_wrong(cabin_task(), nils_cabin(cabin="business", amount="$276.00"), "wrong_change")


def test_airline_wrong_bag_count():
    assert_wrong(bags_task(), nils_bags(total=3, fee="$40.00"), "wrong_change")


def test_airline_wrong_passenger_birth_date():
    assert_wrong(passengers_task(), nils_passenger(dob="1982-10-17"), "wrong_change")


def test_airline_wrong_cancel_reason():
    """The user said "the weather"; the agent cancels for health (also covered by the insurance, so it succeeds)."""
    assert_wrong(air_cancel_task(), fontaine_cancel(reason="health"), "wrong_change")


def test_airline_wrong_certificate_not_asked_for():
    script = fontaine_cancel()
    script[-1:-1] = [
        A("For the trouble, I will also send nadia_fontaine_7719 a certificate of $100. Shall I?"),
        U(YES),
        ("send_certificate", {"user_id": "nadia_fontaine_7719", "amount": 100}),
    ]
    assert_wrong(air_cancel_task(), script, "write_out_of_scope")


def test_airline_wrong_cancels_another_reservation_of_the_user():
    script = fontaine_cancel()
    script[2:] = [
        ("get_reservation_details", {"reservation_id": "HEKKBJ"}),
        A("I will cancel reservation HEKKBJ (reason: weather) and refund $625.00. Do you confirm?"),
        U(YES),
        ("cancel_reservation", {"reservation_id": "HEKKBJ", "reason": "weather"}),
        A("Reservation HEKKBJ is cancelled; $625.00 is refunded."),
    ]
    assert_wrong(air_cancel_task(), script, "write_out_of_scope")


def test_airline_wrong_cancel_without_an_explicit_yes():
    assert_wrong(
        air_cancel_task(), fontaine_cancel(answer="Wait, will I get all my money back?"), "write_without_confirmation"
    )


def test_airline_wrong_says_cancelled_when_nothing_was_cancelled():
    script = fontaine_cancel()
    del script[3:6]
    assert_wrong(air_cancel_task(), script, "missing_change")


def test_airline_wrong_bag_confirmation_without_the_fee():
    script = nils_bags(
        confirm="I will set the checked bags of reservation GFFGGB to 4, paid with credit_card_9773812. OK?"
    )
    assert_wrong(bags_task(), script, "confirmation_incomplete")


def test_airline_wrong_compensation_refused_without_reading_the_reservation():
    script = [
        U("Hi, my user id is nadia_fontaine_7719. I want compensation for my trip from BOS to MSP on 2025-06-16."),
        ("get_user_details", {"user_id": "nadia_fontaine_7719"}),
        A("Compensation is only for silver or gold members; you are a regular member, so I cannot offer one."),
    ]
    assert_wrong(compensation_task(), script, "refusal_ungrounded")


def test_airline_wrong_gold_member_with_no_tool_call():
    script = [
        U("Hi, my user id is samir_mendes_7345. What is my membership level?"),
        A("You are a gold member."),
    ]
    assert_wrong(membership_task(), script, "ungrounded_fact")


def test_airline_wrong_account_read_by_a_guessed_user_id():
    script = [
        U("Hi, I am Samir Mendes. What is my membership level?"),
        ("get_user_details", {"user_id": "samir_mendes_7345"}),
        A("Your membership level is regular."),
    ]
    assert_wrong(membership_task(), script, "ungrounded_argument")


def test_airline_wrong_amount_never_shown():
    script = [
        U("Hi, my user id is samir_mendes_7345. How much did I pay for my trip from LAX to JFK on 2025-06-04?"),
        ("get_user_details", {"user_id": "samir_mendes_7345"}),
        ("get_reservation_details", {"reservation_id": "FDKAAG"}),
        A("You paid $472.00 for reservation FDKAAG, of which $236.50 per passenger."),
    ]
    assert_wrong(paid_task(), script, "ungrounded_amount")


def test_airline_wrong_balance_is_the_policys_certificate_amount():
    """No account was read; '$100' is in the policy (a compensation certificate), not what this card holds."""
    script = [
        U("Hi, my user id is samir_mendes_7345. What is my membership level, and how much is on my gift card?"),
        A("Your gift card holds $100.00."),
    ]
    assert_wrong(membership_task(), script, "ungrounded_amount")


def test_airline_wrong_refund_amount_is_another_number_that_was_shown():
    """The cabin change refunds $123; the agent says $214 (the old fare, shown in the reservation)."""
    script = nils_cabin()
    script[-1] = A("Reservation GFFGGB is now in basic economy; $214.00 goes back to your credit card.")
    assert_wrong(cabin_task(), script, "ungrounded_amount")


def test_airline_right_cancel_with_extra_reads():
    script = fontaine_cancel()
    script[3:3] = [
        ("get_flight_details", {"flight_number": "ZA207", "date": "2025-06-11"}),
        ("search_direct_flight", {"origin": "CLT", "destination": "ATL", "date": "2025-06-12"}),
    ]
    script[-1:-1] = [("get_reservation_details", {"reservation_id": "DDCFFH"})]
    assert_right(air_cancel_task(), script)


def test_airline_right_recovers_from_a_mistyped_user_id():
    script = [
        U("Hi, my user id is samir_mendes_7354. What is my membership level?"),
        ("get_user_details", {"user_id": "samir_mendes_7354"}),
        A("I could not find the user samir_mendes_7354. Could you check your user id?"),
        U("Sorry, it is samir_mendes_7345."),
        SAMIR_CALL,
        A("Your membership level is regular."),
    ]
    assert_right(membership_task(), script)


def test_airline_right_membership_paraphrased():
    script = [
        U("Hi, my user id is samir_mendes_7345. What is my membership level?"),
        SAMIR_CALL,
        A("Thanks for waiting! Your account is at the Regular tier."),
    ]
    assert_right(membership_task(), script)


def test_airline_right_bag_fee_written_as_usd():
    script = nils_bags(fee="USD 80")
    script[-1] = A("Done: GFFGGB now has 4 checked bags, and 80.00 was charged to your card.")
    assert_right(bags_task(), script)


def test_airline_right_bag_fee_worked_out_with_calculate():
    script = nils_bags()
    script[3:3] = [("calculate", {"expression": "2 * 40"}), A("Two more bags at $40 each come to $80.")]
    assert_right(bags_task(), script)


def test_airline_right_cabin_with_paraphrased_closing():
    script = nils_cabin()
    script[-1] = A("You are all set: GFFGGB is in basic economy now, and $123 goes back to your credit card.")
    assert_right(cabin_task(), script)


def test_airline_right_cabin_refund_said_as_what_a_cancellation_would_give():
    """A conditional amount is not money this trajectory moves: the old fare, said as what cancelling would give."""
    script = nils_cabin()
    script[-1] = A(
        "GFFGGB is in basic economy now and $123 goes back to your credit card; if you cancelled instead, "
        "$214.00 would be refunded."
    )
    assert_right(cabin_task(), script)


def test_airline_right_passenger_with_an_extra_read():
    script = nils_passenger()
    script[3:3] = [("get_flight_details", {"flight_number": "ZA156", "date": "2025-06-19"})]
    assert_right(passengers_task(), script)


def test_airline_right_amount_paid_written_as_usd():
    script = [
        U("Hi, my user id is samir_mendes_7345. How much did I pay for my trip from LAX to JFK on 2025-06-04?"),
        ("get_user_details", {"user_id": "samir_mendes_7345"}),
        ("get_reservation_details", {"reservation_id": "FDKAAG"}),
        A("Reservation FDKAAG cost you USD 472 in total."),
    ]
    assert_right(paid_task(), script)


def test_airline_right_two_goals_in_the_other_order():
    script = [
        U(
            "Hi, my user id is nils_xu_4693. What is the status of flight ZA156 on 2025-06-19? And please cancel my "
            "trip from BOS to ATL on 2025-06-19: a change of plans."
        ),
        ("get_user_details", {"user_id": "nils_xu_4693"}),
        ("get_flight_details", {"flight_number": "ZA156", "date": "2025-06-19"}),
        ("get_reservation_details", {"reservation_id": "GFFGGB"}),
        A(
            "Flight ZA156 on 2025-06-19 is available. Reservation GFFGGB was booked more than 24 hours ago and is not "
            "insured, and a change of plans is not a covered reason, so I cannot cancel it."
        ),
    ]
    assert_right(air_two_goal_task(), script)


def test_airline_right_compensation_refusal_offers_what_is_allowed():
    script = [
        U("Hi, my user id is nadia_fontaine_7719. I want compensation for my trip from BOS to MSP on 2025-06-16."),
        ("get_user_details", {"user_id": "nadia_fontaine_7719"}),
        ("get_reservation_details", {"reservation_id": "HEKKBJ"}),
        A(
            "I am sorry: compensation is only for silver or gold members or insured trips. You are a regular member "
            "and HEKKBJ is an economy trip without insurance, so I cannot offer a certificate. I can still help with "
            "HEKKBJ in other ways, for example by adding checked bags."
        ),
    ]
    assert_right(compensation_task(), script)


def test_airline_right_compensation_rule_said_plainly():
    script = [
        U("Hi, my user id is nadia_fontaine_7719. I want compensation for my trip from BOS to MSP on 2025-06-16."),
        ("get_user_details", {"user_id": "nadia_fontaine_7719"}),
        ("get_reservation_details", {"reservation_id": "HEKKBJ"}),
        A(
            "I am sorry: compensation is for silver and gold members, or for insured or business trips. You are a "
            "regular member and HEKKBJ is an economy trip without insurance, so I cannot offer a certificate. I can "
            "still help with HEKKBJ in other ways, for example by adding checked bags."
        ),
    ]
    assert_right(compensation_task(), script)


def test_airline_right_flight_status_paraphrased():
    record = task(
        "airline",
        {"name": "get_flight_details", "arguments": {"flight_number": "ZA379", "date": "2025-06-04"}},
        "flight_status",
    )
    script = [
        U("Hi, my user id is samir_mendes_7345. Has flight ZA379 on 2025-06-04 arrived?"),
        ("get_user_details", {"user_id": "samir_mendes_7345"}),
        ("get_flight_details", {"flight_number": "ZA379", "date": "2025-06-04"}),
        A("Yes: ZA379 on 2025-06-04 has already landed."),
    ]
    assert_right(record, script)
