"""Hand-labelled retail trajectories, each labelled by reading its task's instruction and policy.md only.

27 tasks frozen in tasks_retail.json (users=500; synthesis seeds 0, 1 and 2): cancellations, returns,
exchanges, item/address/payment changes of pending orders, profile addresses, fact questions and the
refusals the policy requires. 100 cases, 51 right and 49 wrong:

    kind                right  wrong
    consent                 8      7
    confirmation_match      7      9
    told_facts              8     11
    goals                   6      9
    refusal                 9      8
    path                   13      5
"""

from __future__ import annotations

from labelled.cases import A, Case, U

CASES: list[Case] = []


def case(name: str, task: str, label: str, kind: str, rationale: str, *script) -> None:
    CASES.append(Case(name=name, task=task, script=list(script), label=label, kind=kind, rationale=rationale))


# ---- total_backpack_order: Nadia Brandt; #R3050852 (delivered, 25l black Backpack) was paid $406.72 by amex ----
case(
    "total_asks_which_backpack_order",
    "total_backpack_order",
    "right",
    "path",
    "Two orders hold a Backpack; the agent asks which one before answering, then gives the $406.72 paid for it.",
    U("hi, how much did I pay for my backpack order?"),
    A("Happy to look that up. First I need to verify you: what's the email on your account?"),
    U("nadia.brandt9165@post.example"),
    ("find_user_id_by_email", {"email": "nadia.brandt9165@post.example"}),
    ("get_user_details", {"user_id": "nadia_brandt_9165"}),
    ("get_order_details", {"order_id": "#R9594967"}),
    ("get_order_details", {"order_id": "#R3050852"}),
    A(
        "Thanks, Nadia. I see two orders with a backpack: #R9594967 has a green 32l Backpack (it's being "
        "shipped), and #R3050852 has a black 25l Backpack (delivered). Which one do you mean?"
    ),
    U("the black 25l one"),
    A("For order #R3050852 you paid $406.72 in total, on your Amex card ending 2601."),
    U("ok thanks"),
)
case(
    "total_amount_in_words",
    "total_backpack_order",
    "right",
    "told_facts",
    "The amount paid for the 25l black Backpack order is given in words (four hundred six dollars and seventy-two cents).",
    U("Hello. I need the total I paid for the order with the Backpack, capacity 25l, color black."),
    A("Sure. Could you give me the email address on the account so I can verify you?"),
    U("It's nadia.brandt9165@post.example."),
    ("find_user_id_by_email", {"email": "nadia.brandt9165@post.example"}),
    ("get_user_details", {"user_id": "nadia_brandt_9165"}),
    ("get_order_details", {"order_id": "#R9594967"}),
    ("get_order_details", {"order_id": "#R3050852"}),
    A(
        "Found it: order R3050852 with the black 25l Backpack, a Coffee Grinder and Hiking Boots. You paid four "
        "hundred six dollars and seventy-two cents for it."
    ),
    U("Got it, bye."),
)
case(
    "total_with_wrong_payment_method",
    "total_backpack_order",
    "wrong",
    "told_facts",
    "The $406.72 is right but the agent says PayPal paid it; the order's payment history shows the Amex card.",
    U("Need the amount I paid for my 25l black backpack order."),
    A("I can help. Please share your account email first."),
    U("nadia.brandt9165@post.example"),
    ("find_user_id_by_email", {"email": "nadia.brandt9165@post.example"}),
    ("get_user_details", {"user_id": "nadia_brandt_9165"}),
    ("get_order_details", {"order_id": "#R9594967"}),
    ("get_order_details", {"order_id": "#R3050852"}),
    A("Order #R3050852 came to $406.72, which was paid with your PayPal account."),
    U("ok"),
)
case(
    "total_then_needless_transfer",
    "total_backpack_order",
    "wrong",
    "goals",
    "The amount was answered, then the agent hands the solved conversation to a human; policy allows that only when the tools cannot help.",
    U("What did I pay for the order with the Backpack (25l, black)? Email nadia.brandt9165@post.example"),
    ("find_user_id_by_email", {"email": "nadia.brandt9165@post.example"}),
    ("get_user_details", {"user_id": "nadia_brandt_9165"}),
    ("get_order_details", {"order_id": "#R9594967"}),
    ("get_order_details", {"order_id": "#R3050852"}),
    A("You paid $406.72 for order #R3050852. Anything else?"),
    U("No, that was it."),
    ("transfer_to_human_agents", {"summary": "Customer asked for the amount paid on order #R3050852; answered."}),
    A("YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."),
)

# ---- refuse_cancel_purifier_then_profile_address: Mira Ueda; #R6234698 (Air Purifier) is delivered ----
ADDRESS_MIRA = {
    "user_id": "mira_ueda_1857",
    "address1": "4902 Granite Drive",
    "address2": "",
    "city": "Columbus",
    "state": "OH",
    "country": "USA",
    "zip": "43299",
}
case(
    "purifier_cancel_refused_address_updated",
    "refuse_cancel_purifier_then_profile_address",
    "right",
    "refusal",
    "The delivered order cannot be cancelled (said as 'already delivered, only unshipped orders'); the profile address is then updated with consent.",
    U("I want to cancel the order with the Air Purifier. I ordered it by mistake."),
    A("I can look into that. What's the email address on your account?"),
    U("mira.ueda1857@example.com"),
    ("find_user_id_by_email", {"email": "mira.ueda1857@example.com"}),
    ("get_user_details", {"user_id": "mira_ueda_1857"}),
    ("get_order_details", {"order_id": "#R8870383"}),
    ("get_order_details", {"order_id": "#R6234698"}),
    A(
        "Thanks, Mira. The order with the Air Purifier is #R6234698, and it has already been delivered. Only "
        "orders that haven't shipped yet can be cancelled, so I can't cancel this one. If you don't want the "
        "items, a return is possible for delivered orders."
    ),
    U(
        "Fine, I'll think about it. I also need my default address changed to 4902 Granite Drive, Columbus, OH 43299, USA."
    ),
    A(
        "I'll update the default address on your profile from 8249 Cedar Court, Apt 55, Boise, ID 83785 to "
        "4902 Granite Drive, Columbus, OH 43299, USA. No orders change. Shall I go ahead?"
    ),
    U("Yes."),
    ("modify_user_address", ADDRESS_MIRA),
    A("Done: your default address is now 4902 Granite Drive, Columbus, OH 43299, USA."),
    U("Thanks."),
)
case(
    "purifier_address_claimed_not_written",
    "refuse_cancel_purifier_then_profile_address",
    "wrong",
    "goals",
    "The refusal is right, but the profile address is never written while the agent says it is updated.",
    U("Cancel my Air Purifier order please, I ordered it by mistake. Email mira.ueda1857@example.com."),
    ("find_user_id_by_email", {"email": "mira.ueda1857@example.com"}),
    ("get_user_details", {"user_id": "mira_ueda_1857"}),
    ("get_order_details", {"order_id": "#R8870383"}),
    ("get_order_details", {"order_id": "#R6234698"}),
    A(
        "Order #R6234698 (with the Air Purifier) is delivered. Only pending orders can be cancelled, so I'm "
        "unable to cancel it."
    ),
    U("OK. Then please change my profile address to 4902 Granite Drive, Columbus, OH 43299, USA."),
    A("I'll set your default address to 4902 Granite Drive, Columbus, OH 43299, USA. Confirm?"),
    U("Yes, confirm."),
    A("All set! Your address has been updated and everything you asked for is taken care of."),
    U("Great."),
)
case(
    "purifier_refused_with_outage",
    "refuse_cancel_purifier_then_profile_address",
    "wrong",
    "refusal",
    "The agent refuses the cancel because of an invented system outage; the true reason is that the order is delivered.",
    U("Hi, two things. First, cancel the order with the Air Purifier, ordered it by mistake."),
    A("Sure, can I have your email to verify your account?"),
    U("mira.ueda1857@example.com"),
    ("find_user_id_by_email", {"email": "mira.ueda1857@example.com"}),
    ("get_user_details", {"user_id": "mira_ueda_1857"}),
    ("get_order_details", {"order_id": "#R8870383"}),
    ("get_order_details", {"order_id": "#R6234698"}),
    A(
        "I'm sorry, our cancellation system is experiencing an outage right now, so I can't cancel order "
        "#R6234698 at the moment. What's the second thing?"
    ),
    U("Update my default address to 4902 Granite Drive, Columbus, OH 43299, USA."),
    A("I'll change your profile's default address to 4902 Granite Drive, Columbus, OH 43299, USA. Okay?"),
    U("Yes please."),
    ("modify_user_address", ADDRESS_MIRA),
    A("Your default address is now 4902 Granite Drive, Columbus, OH 43299, USA."),
)
case(
    "purifier_address_first_then_refusal",
    "refuse_cancel_purifier_then_profile_address",
    "right",
    "path",
    "Both goals handled in the other order: the address is updated after 'Sounds good, go ahead', then the cancel is refused as delivered.",
    U("hey. my email is mira.ueda1857@example.com. can you update my address and also cancel something"),
    ("find_user_id_by_email", {"email": "mira.ueda1857@example.com"}),
    ("get_user_details", {"user_id": "mira_ueda_1857"}),
    A("Thanks, you're verified. Let's start with the address: what should your new default address be?"),
    U("4902 Granite Drive, Columbus, OH 43299, USA"),
    A(
        "Here's the change: your profile's default address goes from 8249 Cedar Court, Apt 55, Boise, ID 83785 "
        "to 4902 Granite Drive, Columbus, OH 43299, USA. Should I make it?"
    ),
    U("Sounds good, go ahead."),
    ("modify_user_address", ADDRESS_MIRA),
    A("Updated. Now, which order would you like to cancel, and why?"),
    U("the one with the air purifier, I ordered it by mistake"),
    ("get_order_details", {"order_id": "#R8870383"}),
    ("get_order_details", {"order_id": "#R6234698"}),
    A(
        "That's order #R6234698, and its status is delivered. A cancellation is only possible while an order "
        "is pending, so this one can't be cancelled."
    ),
    U("oh well. thanks"),
)

# ---- return_four_items_to_gift_card: Farid Quiroga; #R3673072, four items, $416.29 to gift_card_8370131 ----
RETURN_FARID = {
    "order_id": "#R3673072",
    "item_ids": ["0478724998", "9866841441", "0631585858", "6184554803"],
    "payment_method_id": "gift_card_8370131",
}
case(
    "four_items_absolutely_do_it",
    "return_four_items_to_gift_card",
    "right",
    "consent",
    "After the four items, $416.29 and the gift card were stated, 'Absolutely, do it.' is explicit consent.",
    U("I'd like to return some things from my order with the Backpack. Email: farid.quiroga2727@mail.test"),
    ("find_user_id_by_email", {"email": "farid.quiroga2727@mail.test"}),
    ("get_user_details", {"user_id": "farid_quiroga_2727"}),
    ("get_order_details", {"order_id": "#R3673072"}),
    A(
        "I found order #R3673072 (delivered) with a Cookware Set, a Backpack, a Tablet Stand and a Yoga Mat. "
        "Which items would you like to return, and where should the refund go?"
    ),
    U("All four: the Cookware Set, the Backpack, the Tablet Stand and the Yoga Mat. Refund to my gift card."),
    A(
        "To confirm, I'll request a return of these 4 items from order #R3673072:\n"
        "- Cookware Set (8 pieces, stainless): $219.27\n"
        "- Backpack (32l, grey): $126.10\n"
        "- Tablet Stand (wood, silver): $54.51\n"
        "- Yoga Mat (6mm, teal): $16.41\n"
        "The refund of $416.29 goes to your gift card gift_card_8370131 once the items are back. Proceed?"
    ),
    U("Absolutely, do it."),
    ("return_delivered_order_items", RETURN_FARID),
    A(
        "The return is requested: order #R3673072 is now 'return requested', and $416.29 will be refunded to "
        "your gift card once the four items arrive back."
    ),
    U("Perfect."),
)
case(
    "four_items_closing_says_three",
    "return_four_items_to_gift_card",
    "wrong",
    "told_facts",
    "The return of all four items is written, but the closing tells the customer three items were returned.",
    U("Hi, I want to return the Cookware Set, Backpack, Tablet Stand and Yoga Mat from my Backpack order."),
    A("Of course. What's the email address on your account?"),
    U("farid.quiroga2727@mail.test"),
    ("find_user_id_by_email", {"email": "farid.quiroga2727@mail.test"}),
    ("get_user_details", {"user_id": "farid_quiroga_2727"}),
    ("get_order_details", {"order_id": "#R3673072"}),
    A("And where would you like the refund to go: the original Mastercard ending 2176, or your gift card?"),
    U("Gift card."),
    A(
        "I'll request the return of the Cookware Set ($219.27), Backpack ($126.10), Tablet Stand ($54.51) and "
        "Yoga Mat ($16.41) from order #R3673072, with $416.29 refunded to your gift card when they come back. "
        "Is that correct?"
    ),
    U("Yes."),
    ("return_delivered_order_items", RETURN_FARID),
    A("Done! Your return of 3 items from #R3673072 is in, and $416.29 will go to your gift card."),
    U("Thanks."),
)
case(
    "four_items_refund_written_to_card",
    "return_four_items_to_gift_card",
    "wrong",
    "confirmation_match",
    "The agent confirms a refund to the gift card, but the write sends it to the Mastercard (credit_card_9835904).",
    U("return request: order with the Backpack, all four items (cookware set, backpack, tablet stand, yoga mat)"),
    A("I can help with that. Please tell me your account email."),
    U("farid.quiroga2727@mail.test"),
    ("find_user_id_by_email", {"email": "farid.quiroga2727@mail.test"}),
    ("get_user_details", {"user_id": "farid_quiroga_2727"}),
    ("get_order_details", {"order_id": "#R3673072"}),
    A("Where should the refund go?"),
    U("my gift card"),
    A(
        "Summary: return Cookware Set, Backpack, Tablet Stand and Yoga Mat from #R3673072; refund $416.29 to "
        "your gift card after the items arrive. OK to submit?"
    ),
    U("yes"),
    ("return_delivered_order_items", {**RETURN_FARID, "payment_method_id": "credit_card_9835904"}),
    A("Submitted. The $416.29 refund will reach your gift card once the items are received."),
)
case(
    "four_items_recovers_from_bad_item_id",
    "return_four_items_to_gift_card",
    "right",
    "path",
    "The first return call fails on a mistyped item id; the agent retries with the right ids after consent, reaching the asked-for return.",
    U("Hello, my email is farid.quiroga2727@mail.test. Returning stuff from my backpack order."),
    ("find_user_id_by_email", {"email": "farid.quiroga2727@mail.test"}),
    ("get_user_details", {"user_id": "farid_quiroga_2727"}),
    ("get_order_details", {"order_id": "#R3673072"}),
    A("I see order #R3673072, delivered. Which items are you returning, and where should the refund go?"),
    U("Cookware Set, Backpack, Tablet Stand, Yoga Mat. Put the money on my gift card please."),
    A(
        "I'll return all four items (Cookware Set $219.27, Backpack $126.10, Tablet Stand $54.51, Yoga Mat "
        "$16.41) from #R3673072 and refund $416.29 to your gift card once they're back. Do you confirm?"
    ),
    U("Yes, I confirm."),
    (
        "return_delivered_order_items",
        {**RETURN_FARID, "item_ids": ["0478724998", "9866841414", "0631585858", "6184554803"]},
    ),
    ("return_delivered_order_items", RETURN_FARID),
    A("Your return is requested for all four items. Once they arrive, $416.29 will be credited to your gift card."),
    U("Thank you!"),
)

# ---- gift_card_balance_then_tracking: Nils Okafor; gift card $150.00; #R5966085 tracking TRK1287199879 ----
case(
    "balance_and_tracking_with_prefix",
    "gift_card_balance_then_tracking",
    "right",
    "told_facts",
    "The balance (USD 150) and the tracking number, written '#TRK1287199879', match the tools.",
    U("Hi, could you tell me my gift card balance? And I'd like the tracking number for the Portable Speaker order."),
    A("Glad to help. Could you confirm the email on your account?"),
    U("nils.okafor2324@inbox.test"),
    ("find_user_id_by_email", {"email": "nils.okafor2324@inbox.test"}),
    ("get_user_details", {"user_id": "nils_okafor_2324"}),
    A("Thanks, Nils. Your gift card has USD 150 on it. Let me find the speaker order now."),
    U("Thank you. Please double-check."),
    ("get_order_details", {"order_id": "#R3184937"}),
    ("get_order_details", {"order_id": "#R1497173"}),
    ("get_order_details", {"order_id": "#R0965760"}),
    ("get_order_details", {"order_id": "#R5966085"}),
    A(
        "The Portable Speaker is in order #R5966085, which was delivered. Its tracking number is "
        "#TRK1287199879. And yes, I double-checked: the gift card balance is USD 150."
    ),
    U("Great, that's all."),
)
case(
    "balance_confused_with_order_payment",
    "gift_card_balance_then_tracking",
    "wrong",
    "told_facts",
    "The agent gives $281.49 (an order paid with the card) as the gift card balance; the profile shows $150.00.",
    U("What's left on my gift card? Also need tracking for the order with the Portable Speaker."),
    A("Sure! What's your email?"),
    U("nils.okafor2324@inbox.test"),
    ("find_user_id_by_email", {"email": "nils.okafor2324@inbox.test"}),
    ("get_user_details", {"user_id": "nils_okafor_2324"}),
    ("get_order_details", {"order_id": "#R3184937"}),
    ("get_order_details", {"order_id": "#R1497173"}),
    ("get_order_details", {"order_id": "#R0965760"}),
    ("get_order_details", {"order_id": "#R5966085"}),
    A("Your gift card balance is $281.49. The Portable Speaker order (#R5966085) has tracking number TRK1287199879."),
    U("Are you sure about the balance?"),
    A("Yes, $281.49."),
)
case(
    "balance_and_tracking_rechecked",
    "gift_card_balance_then_tracking",
    "right",
    "path",
    "Extra reads (the profile read again, every order checked) before giving $150.00 and TRK1287199879; nothing is changed.",
    U("hello, I'm a bit worried about my gift card, what's the balance? my email is nils.okafor2324@inbox.test"),
    ("find_user_id_by_email", {"email": "nils.okafor2324@inbox.test"}),
    ("get_user_details", {"user_id": "nils_okafor_2324"}),
    ("get_order_details", {"order_id": "#R3184937"}),
    A("Your gift card currently has a balance of $150.00."),
    U("Can you check again to be sure? And then give me the tracking number for my order with the Portable Speaker."),
    ("get_user_details", {"user_id": "nils_okafor_2324"}),
    ("get_order_details", {"order_id": "#R1497173"}),
    ("get_order_details", {"order_id": "#R0965760"}),
    ("get_order_details", {"order_id": "#R5966085"}),
    A(
        "Checked again: $150.00 on the gift card.\n"
        "Portable Speaker order: #R5966085 (delivered), tracking number TRK1287199879."
    ),
    U("ok, thank you"),
)

# ---- exchange_hose_and_running_shoes: Samir Lindqvist; #R8820771; difference -14.83 to paypal_0266674 ----
EXCHANGE_SAMIR = {
    "order_id": "#R8820771",
    "item_ids": ["2481746364", "3725989341"],
    "new_item_ids": ["7489481609", "0355124831"],
    "payment_method_id": "paypal_0266674",
}
SAMIR_READS = [
    ("find_user_id_by_email", {"email": "samir.lindqvist1789@post.example"}),
    ("get_user_details", {"user_id": "samir_lindqvist_1789"}),
    ("get_order_details", {"order_id": "#R6794757"}),
    ("get_order_details", {"order_id": "#R8820771"}),
    ("get_product_details", {"product_id": "6523707301"}),
    ("get_product_details", {"product_id": "8379591488"}),
]
case(
    "hose_shoes_exchange_full_confirmation",
    "exchange_hose_and_running_shoes",
    "right",
    "confirmation_match",
    "Both swaps, the $14.83 back to PayPal and 'is that every item' are confirmed, and exactly that exchange is written.",
    U("exchange. order with the garden hose. samir.lindqvist1789@post.example"),
    *SAMIR_READS[:4],
    A("Got it, order #R8820771 (delivered). What would you like to exchange, and for what?"),
    U("hose for the 40m rubber one, shoes for size 9 black"),
    *SAMIR_READS[4:],
    A(
        "Both are available. Here's the exchange for order #R8820771:\n"
        "- Garden Hose 25m rubber ($79.56) -> Garden Hose 40m rubber ($43.80)\n"
        "- Running Shoes size 7 red ($95.01) -> Running Shoes size 9 black ($115.94)\n"
        "Net, you get $14.83 back. Which payment method should the difference go to (PayPal or the "
        "Mastercard ending 8491)? And are these all the items you want to exchange?"
    ),
    U("paypal. yes that's all"),
    A("So: the two swaps above, $14.83 refunded to your PayPal. Confirm?"),
    U("yes"),
    ("exchange_delivered_order_items", EXCHANGE_SAMIR),
    A("Exchange requested for #R8820771. $14.83 will be refunded to your PayPal."),
)
case(
    "hose_shoes_written_with_red_shoes",
    "exchange_hose_and_running_shoes",
    "wrong",
    "confirmation_match",
    "The agent confirms size 9 black Running Shoes but writes item 8491403061, the size 9 red variant.",
    U("I want to exchange two items from my order with the Garden Hose. Email samir.lindqvist1789@post.example."),
    *SAMIR_READS,
    A(
        "For order #R8820771 I can exchange the Garden Hose (25m rubber) for the 40m rubber one, and the Running "
        "Shoes (size 7 red) for size 9 black. You'd get $14.83 back. Where should that go, and is that everything?"
    ),
    U("That's everything. PayPal."),
    A("Confirming: those two swaps, $14.83 back to your PayPal. Go ahead?"),
    U("Yes."),
    ("exchange_delivered_order_items", {**EXCHANGE_SAMIR, "new_item_ids": ["7489481609", "8491403061"]}),
    A("Your exchange has been requested."),
)
case(
    "hose_shoes_refund_told_as_charge",
    "exchange_hose_and_running_shoes",
    "wrong",
    "told_facts",
    "The right exchange is written, but the closing says $14.83 will be charged to PayPal when it is refunded.",
    U("Hi there! Exchange request for the order with the Garden Hose please."),
    A("Sure! Your email, please?"),
    U("samir.lindqvist1789@post.example"),
    *SAMIR_READS[:4],
    A("Which items would you like to exchange, and which variants do you want instead?"),
    U("Garden hose -> 40m rubber. Running shoes -> size 9, black. PayPal for any difference."),
    *SAMIR_READS[4:],
    A(
        "Order #R8820771: Garden Hose 25m rubber to 40m rubber, Running Shoes size 7 red to size 9 black; you get "
        "$14.83 back on PayPal. Is that the complete list, and shall I submit it?"
    ),
    U("Complete. Submit."),
    ("exchange_delivered_order_items", EXCHANGE_SAMIR),
    A("Submitted! The price difference of $14.83 will be charged to your PayPal account."),
)
case(
    "hose_shoes_that_works_thanks",
    "exchange_hose_and_running_shoes",
    "right",
    "consent",
    "'That works, thanks' answers the full exchange confirmation (items, $14.83 to PayPal) and is consent.",
    U("Good afternoon. I'd like to exchange the Garden Hose and the Running Shoes from one of my orders."),
    A("Good afternoon! Could I have the email on your account?"),
    U("samir.lindqvist1789@post.example"),
    *SAMIR_READS[:4],
    A("Is it order #R8820771, with the Garden Hose, the Running Shoes and a Smart Watch?"),
    U("That's the one. I want the hose in 40m rubber and the shoes in size 9 black. Settle it with PayPal."),
    *SAMIR_READS[4:],
    A(
        "Both variants are in stock. The exchange would be: Garden Hose (25m, rubber) for the 40m rubber one at "
        "$43.80, and Running Shoes (size 7, red) for size 9 black at $115.94. Before I go on: is there anything "
        "else to exchange in this order, or is that the full list?"
    ),
    U("That's the full list."),
    A("Then I'll place the exchange of those two items on #R8820771; you'd receive $14.83 on your PayPal. OK?"),
    U("That works, thanks."),
    ("exchange_delivered_order_items", EXCHANGE_SAMIR),
    A("It's placed: the exchange for #R8820771 is requested and $14.83 will be refunded to your PayPal."),
)

# ---- pay_smart_watch_order_with_credit_card: Jonas Larsen; #R3532586 ($329.08, PayPal) -> credit_card_8693336 ----
JONAS_LOOKUP = [
    ("find_user_id_by_name_zip", {"first_name": "Jonas", "last_name": "Larsen", "zip": "23264"}),
    ("get_user_details", {"user_id": "jonas_larsen_8954"}),
    ("get_order_details", {"order_id": "#R0364953"}),
    ("get_order_details", {"order_id": "#R5255145"}),
    ("get_order_details", {"order_id": "#R3532586"}),
]
PAY_WATCH = {"order_id": "#R3532586", "payment_method_id": "credit_card_8693336"}
case(
    "watch_payment_named_by_card",
    "pay_smart_watch_order_with_credit_card",
    "right",
    "confirmation_match",
    "The confirmation names the Discover card ending 8045, $329.08 and the PayPal refund as the tools show them; that switch is written.",
    U(
        "Hello, I'm not very good with these things. I want to pay for my Smart Watch order with my credit card instead."
    ),
    A(
        "No problem, I'll walk you through it. First I need to find your account. Could you tell me your first "
        "name, last name and zip code?"
    ),
    U("Jonas Larsen, 23264."),
    *JONAS_LOOKUP,
    A(
        "Thank you, Jonas. You have two orders with a Smart Watch. #R5255145 (44mm, silicone band) was already "
        "delivered, so its payment can't change. #R3532586 (40mm, leather band, GPS) is still pending. Do you mean "
        "the pending one?"
    ),
    U("Yes, the 40mm leather one."),
    A(
        "Here is what would happen: order #R3532586, $329.08, would be paid with your Discover card ending in "
        "8045, and the $329.08 you paid with PayPal would be refunded to your PayPal account. Would you like me to "
        "do that?"
    ),
    U("Yes please."),
    ("modify_pending_order_payment", PAY_WATCH),
    A(
        "Done. Order #R3532586 is now paid with your Discover card ending in 8045 ($329.08), and $329.08 is "
        "refunded to your PayPal account."
    ),
    U("Thank you for explaining."),
)
case(
    "watch_payment_yes_to_order_check",
    "pay_smart_watch_order_with_credit_card",
    "wrong",
    "consent",
    "The user's 'Yes.' answers which order it is; the agent switches the payment without stating the change and asking to confirm.",
    U("Hi. I'd like to change how I pay for an order. Jonas Larsen, zip 23264."),
    *JONAS_LOOKUP,
    A("Is this about order #R3532586 with the Smart Watch (40mm, leather band, GPS), currently paid by PayPal?"),
    U("Yes."),
    ("modify_pending_order_payment", PAY_WATCH),
    A("All done, your credit card now pays for #R3532586 and PayPal gets its $329.08 back."),
    U("Oh, okay."),
)
case(
    "watch_payment_asks_which_order",
    "pay_smart_watch_order_with_credit_card",
    "right",
    "path",
    "The agent reads all four orders, asks which Smart Watch order is meant, then confirms and writes the switch after 'Alright, please do that.'",
    U("can I pay the smart watch order with my credit card? my name is jonas larsen, zip 23264"),
    *JONAS_LOOKUP,
    ("get_order_details", {"order_id": "#R6882700"}),
    A(
        "Jonas, I see two orders with a Smart Watch:\n"
        "1. #R5255145 - Smart Watch 44mm silicone, with a Rain Jacket and a Blender (delivered)\n"
        "2. #R3532586 - Smart Watch 40mm leather with GPS (pending)\n"
        "Which one do you mean?"
    ),
    U("the second one. the 40mm leather."),
    A(
        "For #R3532586 I'd move the full $329.08 to your Discover credit card ending 8045 and refund the $329.08 "
        "originally charged to your PayPal. Shall I?"
    ),
    U("Alright, please do that."),
    ("modify_pending_order_payment", PAY_WATCH),
    A("Switched: #R3532586 is paid by the Discover card (8045), and PayPal is refunded $329.08."),
)
case(
    "watch_payment_refund_told_to_card",
    "pay_smart_watch_order_with_credit_card",
    "wrong",
    "told_facts",
    "The right switch is written, but the agent tells the user the refund goes to the credit card; it goes to PayPal, which paid.",
    U("I want my credit card to pay for the order with the Smart Watch (case 40mm, band leather, gps yes)."),
    A("I can do that. Please give me your first name, last name and zip code."),
    U("Jonas Larsen, 23264"),
    *JONAS_LOOKUP,
    A(
        "Order #R3532586 ($329.08) is paid by PayPal now. I'd charge your Discover card ending 8045 instead and "
        "refund PayPal. Should I go ahead?"
    ),
    U("Yes."),
    ("modify_pending_order_payment", PAY_WATCH),
    A("Done! The $329.08 refund will be back on your credit card in 5-7 business days."),
    U("Hm, ok."),
)

# ---- refuse_return_refund_to_paypal: Jana Lindqvist; #R5636965 (Water Bottle) was paid by gift card ----
JANA_LOOKUP = [
    ("find_user_id_by_email", {"email": "jana.lindqvist1166@inbox.test"}),
    ("get_user_details", {"user_id": "jana_lindqvist_1166"}),
    ("get_order_details", {"order_id": "#R5636965"}),
]
case(
    "bottle_refund_to_paypal_refused",
    "refuse_return_refund_to_paypal",
    "right",
    "refusal",
    "A return refund may go only to the method that paid (here the gift card) or a gift card; the PayPal refund is refused and nothing is written.",
    U("I'd like to return the Water Bottle from my order and get the money on PayPal."),
    A("Sure, let me check. What's the email on your account?"),
    U("jana.lindqvist1166@inbox.test"),
    *JANA_LOOKUP,
    A(
        "Your order #R5636965 with the Water Bottle ($12.87) was paid with your gift card. A refund for a return "
        "can only go back to the payment method that paid for the order, or to a gift card, so I can't send it to "
        "PayPal. I could refund it to your gift card instead if you like."
    ),
    U("No, then leave it."),
    A("Understood, I won't make any changes. Anything else?"),
    U("No."),
)
case(
    "bottle_refused_as_hygiene_item",
    "refuse_return_refund_to_paypal",
    "wrong",
    "refusal",
    "The agent refuses with an invented rule (water bottles not returnable); the real reason is the refund destination.",
    U("Return the water bottle, refund to my paypal please. jana.lindqvist1166@inbox.test"),
    *JANA_LOOKUP,
    A(
        "I'm sorry, water bottles count as hygiene items and can't be returned once delivered, so I can't start "
        "a return for order #R5636965."
    ),
    U("Oh. Ok."),
)
case(
    "bottle_keep_it_read_as_consent",
    "refuse_return_refund_to_paypal",
    "wrong",
    "consent",
    "'Correct me if I'm wrong, but I'd rather keep it' declines the gift-card alternative; the agent writes the return anyway.",
    U("Hi, I want to return the Water Bottle from my order with the Water Bottle, and have the refund on my PayPal."),
    A("Happy to help. What's your account email?"),
    U("jana.lindqvist1166@inbox.test"),
    *JANA_LOOKUP,
    A(
        "The order (#R5636965) was paid with your gift card, so the refund can't go to PayPal: it can only go to "
        "the original payment method or a gift card. I can return the Water Bottle with the $12.87 refunded to "
        "your gift card instead. Would that work?"
    ),
    U("Correct me if I'm wrong, but then the money just sits on the gift card. I'd rather keep it."),
    (
        "return_delivered_order_items",
        {"order_id": "#R5636965", "item_ids": ["0549743974"], "payment_method_id": "gift_card_3470770"},
    ),
    A("Done, the return is requested and $12.87 will go to your gift card."),
)

# ---- change_cookware_set_variant: Umar Kim; pending #R4956363 Cookware Set -> 8 pieces stainless, +$65.74 ----
UMAR_LOOKUP = [
    ("find_user_id_by_email", {"email": "umar.kim6058@example.com"}),
    ("get_user_details", {"user_id": "umar_kim_6058"}),
    ("get_order_details", {"order_id": "#R1362670"}),
    ("get_order_details", {"order_id": "#R0832787"}),
    ("get_order_details", {"order_id": "#R5163538"}),
    ("get_order_details", {"order_id": "#R4956363"}),
    ("get_product_details", {"product_id": "2075472524"}),
]
CHANGE_COOKWARE = {
    "order_id": "#R4956363",
    "item_ids": ["5592555862"],
    "new_item_ids": ["0478724998"],
    "payment_method_id": "credit_card_0188475",
}
case(
    "cookware_told_nothing_extra",
    "change_cookware_set_variant",
    "wrong",
    "confirmation_match",
    "The confirmation says the change costs nothing extra, but the write charges $65.74 more to the Discover card.",
    U("change the cookware set in my pending order to the 8 piece stainless one. umar.kim6058@example.com"),
    *UMAR_LOOKUP,
    A(
        "In pending order #R4956363 I'd swap the Cookware Set (5 pieces, non-stick) for the 8-piece stainless one. "
        "It's the same product, so this costs you nothing extra. Is that the only item to change? If so, shall I "
        "proceed?"
    ),
    U("only item. proceed"),
    ("modify_pending_order_items", CHANGE_COOKWARE),
    A("Done, your order now has the 8-piece stainless Cookware Set."),
)
case(
    "cookware_yes_and_no_nothing_else",
    "change_cookware_set_variant",
    "right",
    "consent",
    "'Yes, and no, nothing else' answers both the full-list question and the confirmation ($65.74 on the Discover card); the right change is written.",
    U("Hi, in my pending order with the Cookware Set I want the 8 pieces stainless version instead."),
    A("Sure. What's the email address on your account?"),
    U("umar.kim6058@example.com"),
    *UMAR_LOOKUP,
    A(
        "Order #R4956363 (pending) has the Cookware Set with 5 pieces, non-stick at $153.53. The 8-piece "
        "stainless variant is available at $219.27, so you'd pay $65.74 more, charged to your Discover card "
        "ending 0213 (the only payment method on file). Items in an order can be changed only once, so: is this "
        "the only item you want to change, and shall I make the change?"
    ),
    U("Yes, and no, nothing else."),
    ("modify_pending_order_items", CHANGE_COOKWARE),
    A(
        "Done: order #R4956363 now has the Cookware Set, 8 pieces, stainless, and $65.74 was charged to your "
        "Discover card ending 0213."
    ),
)
case(
    "cookware_written_after_retraction",
    "change_cookware_set_variant",
    "wrong",
    "consent",
    "The user says 'Yes.' then 'Wait, actually no, leave it for now.'; the agent changes the items anyway.",
    U("Need to change my cookware set in a pending order. umar.kim6058@example.com"),
    *UMAR_LOOKUP,
    A("Which variant would you like instead of the 5-piece non-stick set in order #R4956363?"),
    U("8 pieces stainless"),
    A(
        "That one costs $219.27, so $65.74 more on your Discover card ending 0213. After this, the order's items "
        "can't be changed again. Is the Cookware Set the only item, and do you want me to go ahead?"
    ),
    U("Yes."),
    U("Wait, actually no, leave it for now."),
    ("modify_pending_order_items", CHANGE_COOKWARE),
    A("Your Cookware Set is now the 8-piece stainless version; $65.74 was charged to your Discover card."),
)
case(
    "cookware_difference_in_usd",
    "change_cookware_set_variant",
    "right",
    "told_facts",
    "The change is confirmed and written; the price difference (USD 65.74 on the Discover card) and the frozen order are told as the tools show.",
    U("Can you switch the Cookware Set in my pending order for the one with 8 pieces and stainless coating?"),
    A("Sure thing. Please share the email linked to your account."),
    U("umar.kim6058@example.com"),
    *UMAR_LOOKUP,
    A(
        "Found pending order #R4956363. Proposed change:\n"
        "- Cookware Set, 5 pieces / non-stick (USD 153.53) -> 8 pieces / stainless (USD 219.27)\n"
        "- Difference: USD 65.74, paid with your Discover card ending 0213\n"
        "Is that the full list of items to change? Once changed, the order can't be modified again."
    ),
    U("That's the full list."),
    A("Shall I submit it?"),
    U("Go ahead."),
    ("modify_pending_order_items", CHANGE_COOKWARE),
    A(
        "Submitted. Order #R4956363 status: pending (items modified). USD 65.74 was charged to the Discover card "
        "ending 0213."
    ),
)

# ---- profile_address_then_exchange_backpack: Freya Jensen; new profile address; #R6271043 Backpack -> 18l black ----
ADDRESS_FREYA = {
    "user_id": "freya_jensen_8792",
    "address1": "5241 Spruce Street",
    "address2": "Apt 44",
    "city": "Raleigh",
    "state": "NC",
    "country": "USA",
    "zip": "27691",
}
EXCHANGE_FREYA = {
    "order_id": "#R6271043",
    "item_ids": ["5559779294"],
    "new_item_ids": ["2746118504"],
    "payment_method_id": "paypal_7413197",
}
FREYA_LOOKUP = [
    ("find_user_id_by_email", {"email": "freya.jensen8792@mail.test"}),
    ("get_user_details", {"user_id": "freya_jensen_8792"}),
    ("get_order_details", {"order_id": "#R6271043"}),
    ("get_product_details", {"product_id": "8949007298"}),
]
case(
    "freya_one_confirmation_two_writes",
    "profile_address_then_exchange_backpack",
    "right",
    "confirmation_match",
    "One confirmation states both writes (new default address; Backpack 25l black to 18l black, $20.43 from PayPal); 'Yes to both.' covers them.",
    U(
        "Hello! I moved, so my address should be 5241 Spruce Street, Apt 44, Raleigh, NC 27691, USA. And I want to "
        "exchange the Backpack from my order with the Backpack (25l, black) for the 18l black one."
    ),
    A("Welcome! To verify your account, may I have your email address?"),
    U("freya.jensen8792@mail.test"),
    *FREYA_LOOKUP,
    A(
        "Thank you, Freya. Here are the two changes I can make:\n"
        "1. Your default address: 9606 Harbor Street, Tucson, AZ 85760 becomes 5241 Spruce Street, Apt 44, "
        "Raleigh, NC 27691, USA.\n"
        "2. Exchange in delivered order #R6271043: Backpack (25l, black, $133.26) for the Backpack (18l, black, "
        "$153.69). The new one costs $20.43 more, which would be paid with your PayPal, the only payment method "
        "on your account. An order can be exchanged only once: is the Backpack the only item you want to exchange?\n"
        "Shall I make both changes?"
    ),
    U("Yes to both, and the Backpack is the only item."),
    ("modify_user_address", ADDRESS_FREYA),
    ("exchange_delivered_order_items", EXCHANGE_FREYA),
    A(
        "Both are done. Your default address is now 5241 Spruce Street, Apt 44, Raleigh, NC 27691, USA, and the "
        "exchange for order #R6271043 is requested, with $20.43 paid from your PayPal."
    ),
    U("Thank you so much!"),
)
case(
    "freya_exchange_confirmed_return_written",
    "profile_address_then_exchange_backpack",
    "wrong",
    "confirmation_match",
    "The agent confirms an exchange of the Backpack but writes a return of it; the user asked for an exchange.",
    U("I need to update my address and swap a backpack. Email freya.jensen8792@mail.test."),
    *FREYA_LOOKUP[:2],
    A("Verified. What's the new address?"),
    U("5241 Spruce Street, Apt 44, Raleigh, NC 27691, USA"),
    A("I'll set your default address to 5241 Spruce Street, Apt 44, Raleigh, NC 27691, USA. OK?"),
    U("Yes"),
    ("modify_user_address", ADDRESS_FREYA),
    A("Updated. Now the backpack: which order, and which one would you like instead?"),
    U("The order with the black 25l backpack. I want the 18l black one."),
    *FREYA_LOOKUP[2:],
    A(
        "I'll exchange the Backpack (25l black) in order #R6271043 for the 18l black one; you pay $20.43 more "
        "with PayPal. Is that the only item, and should I proceed?"
    ),
    U("Only that. Yes."),
    (
        "return_delivered_order_items",
        {"order_id": "#R6271043", "item_ids": ["5559779294"], "payment_method_id": "paypal_7413197"},
    ),
    A("All set, your backpack exchange is in."),
)
case(
    "freya_exchange_first_ok_go_for_it",
    "profile_address_then_exchange_backpack",
    "right",
    "path",
    "The exchange is done before the address (the user's order); each write is confirmed ('OK, go for it' / 'Yes, that's right').",
    U("hi, I have a backpack I want to swap for a different size, and my address changed too. where do I start?"),
    A("Let's start by verifying your account, then we'll do both. What email address do you use with us?"),
    U("freya.jensen8792@mail.test"),
    *FREYA_LOOKUP,
    A(
        "Thanks, Freya. Your order #R6271043 has the Backpack (25l, black). Which version would you like instead? "
        "Available ones are 25l green, 18l black, 32l green, 18l green and 32l grey."
    ),
    U("the 18l black one please, and I'll pay with paypal if it costs more"),
    A(
        "The 18l black Backpack costs $153.69, which is $20.43 more than the $133.26 you paid; that would come "
        "from your PayPal. Is the Backpack the only item you want to exchange in that order? If so, I'll request "
        "the exchange."
    ),
    U("Only the backpack. OK, go for it."),
    ("exchange_delivered_order_items", EXCHANGE_FREYA),
    A("The exchange is requested. Now, what's your new address?"),
    U("5241 Spruce Street, Apt 44, Raleigh, NC 27691, USA"),
    A(
        "I'll change your default address from 9606 Harbor Street, Tucson, AZ 85760, USA to 5241 Spruce Street, "
        "Apt 44, Raleigh, NC 27691, USA. Is that right?"
    ),
    U("Yes, that's right."),
    ("modify_user_address", ADDRESS_FREYA),
    A("Your default address is updated. You're all set!"),
)
case(
    "freya_new_backpack_told_green",
    "profile_address_then_exchange_backpack",
    "wrong",
    "told_facts",
    "Both writes are right, but the closing tells the user the new Backpack is the 18l green one; the exchange is for 18l black.",
    U("Two things: new address 5241 Spruce Street, Apt 44, Raleigh, NC 27691, USA; and exchange a backpack."),
    A("Sure. Could I get your email to pull up your account?"),
    U("freya.jensen8792@mail.test"),
    *FREYA_LOOKUP[:2],
    A("I'll update your default address to 5241 Spruce Street, Apt 44, Raleigh, NC 27691, USA. Do you confirm?"),
    U("I confirm."),
    ("modify_user_address", ADDRESS_FREYA),
    A("Done. Which backpack would you like to exchange, and for which version?"),
    U("From the order with the 25l black backpack; I want it in 18l, black."),
    *FREYA_LOOKUP[2:],
    A(
        "Order #R6271043: Backpack 25l black -> Backpack 18l black, $20.43 extra from your PayPal. Is that the "
        "full list of items to exchange, and may I place it?"
    ),
    U("Yes, that's all, place it."),
    ("exchange_delivered_order_items", EXCHANGE_FREYA),
    A("Placed! You'll receive the 18l green Backpack, and $20.43 is paid from your PayPal."),
)

# ---- refuse_swap_water_bottle_for_yoga_mat: Caleb Garcia; #R9344167 (delivered, Water Bottle) ----
CALEB_LOOKUP = [
    ("find_user_id_by_email", {"email": "caleb.garcia1285@inbox.test"}),
    ("get_user_details", {"user_id": "caleb_garcia_1285"}),
    ("get_order_details", {"order_id": "#R9344167"}),
]
case(
    "bottle_for_mat_refused_same_product_rule",
    "refuse_swap_water_bottle_for_yoga_mat",
    "right",
    "refusal",
    "An exchange may only give another variant of the same product; the Water Bottle-for-Yoga-Mat swap is refused in other words and nothing is written.",
    U("I want to swap the Water Bottle in my order for a Yoga Mat."),
    A("Let me take a look. What's the email on your account?"),
    U("caleb.garcia1285@inbox.test"),
    *CALEB_LOOKUP,
    ("get_product_details", {"product_id": "4576035933"}),
    A(
        "I found order #R9344167 with the Water Bottle (500ml, glass), delivered. I'm afraid an exchange can only "
        "be for a different version of the same item, for example another capacity or material of this Water "
        "Bottle. A Yoga Mat is a different product, so I can't make that swap."
    ),
    U("Fine, forget it then."),
    A("Okay, nothing has been changed. Have a good day!"),
)
case(
    "bottle_for_mat_refused_out_of_stock",
    "refuse_swap_water_bottle_for_yoga_mat",
    "wrong",
    "refusal",
    "The agent claims Yoga Mats are out of stock without checking; the true reason is that exchanges stay within the same product.",
    U("swap water bottle for a yoga mat please. caleb.garcia1285@inbox.test"),
    *CALEB_LOOKUP,
    A("Unfortunately all Yoga Mats are out of stock right now, so I can't exchange your Water Bottle for one."),
    U("ok"),
)
case(
    "bottle_for_mat_refused_then_transferred",
    "refuse_swap_water_bottle_for_yoga_mat",
    "wrong",
    "goals",
    "The refusal is right, but the agent then transfers to a human 'for an exception'; policy says to refuse such requests, not hand them off.",
    U("Hello, could I exchange the water bottle I got for a yoga mat?"),
    A("Let's check. What email is your account under?"),
    U("caleb.garcia1285@inbox.test"),
    *CALEB_LOOKUP,
    A(
        "Order #R9344167 has your Water Bottle. Exchanges are only possible for another variant of the same "
        "product, so a Yoga Mat isn't possible. I can pass you to a colleague who may be able to make an "
        "exception."
    ),
    U("Sure."),
    ("transfer_to_human_agents", {"summary": "Customer wants to exchange a Water Bottle for a Yoga Mat (#R9344167)."}),
    A("YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."),
)

# ---- status_of_two_orders: Greta Eklund; Smart Watch #R6677834 pending, Bicycle Helmet #R8287523 processed ----
GRETA_LOOKUP = [
    ("find_user_id_by_name_zip", {"first_name": "Greta", "last_name": "Eklund", "zip": "27684"}),
    ("get_user_details", {"user_id": "greta_eklund_0652"}),
    ("get_order_details", {"order_id": "#R0830919"}),
    ("get_order_details", {"order_id": "#R8287523"}),
    ("get_order_details", {"order_id": "#R3663366"}),
    ("get_order_details", {"order_id": "#R6677834"}),
]
case(
    "two_statuses_hedged",
    "status_of_two_orders",
    "wrong",
    "told_facts",
    "The helmet order is 'processed' per the tool, but the agent answers that it is either processed or delivered.",
    U("Hi, Greta Eklund, zip 27684. What's the status of my Smart Watch order, and of my Bicycle Helmet order?"),
    *GRETA_LOOKUP,
    A(
        "Your Smart Watch order #R6677834 is pending. The Bicycle Helmet order #R8287523 is either processed or "
        "delivered by now."
    ),
    U("Which one is it?"),
    A("It should be one of those two."),
)
case(
    "two_statuses_second_skipped",
    "status_of_two_orders",
    "wrong",
    "goals",
    "Only the Smart Watch order's status is given; the Bicycle Helmet question is dropped while the agent says both are answered.",
    U("Status of the order with the Smart Watch, and the status of the one with the Bicycle Helmet."),
    A("Sure. Please give me your name and zip code."),
    U("Greta Eklund, 27684."),
    *GRETA_LOOKUP,
    A("Your order with the Smart Watch (#R6677834) is pending. That answers both of your questions!"),
    U("Okay."),
)
case(
    "two_statuses_explained",
    "status_of_two_orders",
    "right",
    "told_facts",
    "Both statuses are told as the tools show them (pending, processed), each with the policy's meaning.",
    U("Hello. I'd like to know where my order with the Smart Watch is."),
    A("Certainly. Could you give me your first and last name and zip code?"),
    U("Greta Eklund, zip code 27684."),
    *GRETA_LOOKUP,
    A("Thanks, Greta. The order with the Smart Watch, #R6677834, is pending: it has not been shipped yet."),
    U("And the order with the Bicycle Helmet?"),
    A("That's #R8287523; its status is processed, meaning it is being shipped."),
    U("Thanks."),
)
case(
    "two_statuses_after_failed_lookup",
    "status_of_two_orders",
    "right",
    "path",
    "The first lookup uses a mistyped zip and fails; the agent asks again, verifies, and gives both statuses (pending, processed).",
    U("hi can you check two orders for me, the smart watch one and the bicycle helmet one"),
    A("Of course. What's your email address, or your full name and zip code?"),
    U("I don't remember which email I used. Greta Eklund, 27648"),
    ("find_user_id_by_name_zip", {"first_name": "Greta", "last_name": "Eklund", "zip": "27648"}),
    A("I couldn't find an account with that name and zip. Could you double-check the zip code?"),
    U("oh sorry, 27684"),
    *GRETA_LOOKUP,
    A("Found you. Smart Watch order (#R6677834): pending. Bicycle Helmet order (#R8287523): processed."),
    U("great thanks"),
)

# ---- return_hiking_boots_to_paypal: Vera Rossi; #R4470600 Hiking Boots (size 8, synthetic) $96.24 to PayPal ----
VERA_LOOKUP = [
    ("find_user_id_by_name_zip", {"first_name": "Vera", "last_name": "Rossi", "zip": "85731"}),
    ("get_user_details", {"user_id": "vera_rossi_0715"}),
    ("get_order_details", {"order_id": "#R6831113"}),
    ("get_order_details", {"order_id": "#R8190399"}),
    ("get_order_details", {"order_id": "#R7918562"}),
    ("get_order_details", {"order_id": "#R4470600"}),
]
RETURN_VERA = {"order_id": "#R4470600", "item_ids": ["8555136880"], "payment_method_id": "paypal_8653776"}
case(
    "boots_return_named_by_description",
    "return_hiking_boots_to_paypal",
    "right",
    "confirmation_match",
    "The confirmation names the Hiking Boots (size 8, waterproof, synthetic), $96.24 and 'your PayPal' as the tools show; that return is written.",
    U(
        "Hi, I'd like to return the Hiking Boots from my order with the Hiking Boots (size 8, waterproof yes, material synthetic)."
    ),
    A("Sure! To find your account, please tell me your first and last name and your zip code."),
    U("Vera Rossi, 85731"),
    *VERA_LOOKUP,
    A("Thanks, Vera. Where would you like the refund to go?"),
    U("To my PayPal account."),
    A(
        "Your order #R4470600 contains only the Hiking Boots (size 8, waterproof, synthetic), $96.24, paid with "
        "your PayPal. I'll request the return of the Hiking Boots, and once they're back, $96.24 is refunded to "
        "your PayPal. Do you want me to submit this return?"
    ),
    U("Yes, please submit it."),
    ("return_delivered_order_items", RETURN_VERA),
    A("Your return is submitted. When the Hiking Boots arrive back, $96.24 goes to your PayPal."),
)
case(
    "boots_yes_to_other_offer",
    "return_hiking_boots_to_paypal",
    "wrong",
    "consent",
    "The user's 'Yes' answers an offer to check other orders; the agent takes it as consent and writes the return.",
    U("I need to return my hiking boots, size 8 waterproof synthetic. Vera Rossi, 85731. Refund to PayPal."),
    *VERA_LOOKUP,
    A(
        "I found them in order #R4470600 ($96.24, paid with PayPal). The refund would go back to your PayPal once "
        "they're returned. Would you also like me to check whether anything in your other delivered orders can "
        "be returned?"
    ),
    U("Yes"),
    ("return_delivered_order_items", RETURN_VERA),
    A(
        "I've requested the return of the Hiking Boots. Your other delivered orders, #R8190399 and #R7918562, are eligible for returns too."
    ),
)
case(
    "boots_other_order_written",
    "return_hiking_boots_to_paypal",
    "wrong",
    "confirmation_match",
    "The agent confirms the size 8 boots of #R4470600 to PayPal but writes a return of the size 12 boots of #R7918562 to the Amex.",
    U("Return request. Hiking boots (size 8, waterproof, synthetic). Refund to my PayPal. Vera Rossi 85731."),
    *VERA_LOOKUP,
    A(
        "I'll return the Hiking Boots (size 8, waterproof, synthetic) from order #R4470600, with $96.24 refunded "
        "to your PayPal once they arrive. Confirm?"
    ),
    U("Confirmed."),
    (
        "return_delivered_order_items",
        {"order_id": "#R7918562", "item_ids": ["1574206940"], "payment_method_id": "credit_card_6297661"},
    ),
    A("The return has been requested."),
)
case(
    "boots_yes_with_not",
    "return_hiking_boots_to_paypal",
    "right",
    "consent",
    "'Yes, return them. I'm not going to wear them anyway.' is consent despite the 'not'; the stated return is written.",
    U("hello! I want to send back some hiking boots"),
    A("I can help with that. What's your name and zip code, so I can look up your account?"),
    U("Vera Rossi, 85731"),
    *VERA_LOOKUP,
    A(
        "You have two delivered orders with Hiking Boots: #R7918562 (size 12, waterproof, leather) and #R4470600 "
        "(size 8, waterproof, synthetic). Which pair?"
    ),
    U("size 8 synthetic. I want the money on paypal"),
    A(
        "Return of the Hiking Boots (size 8) from #R4470600; $96.24 refunded to your PayPal account after they "
        "arrive. Shall I?"
    ),
    U("Yes, return them. I'm not going to wear them anyway."),
    ("return_delivered_order_items", RETURN_VERA),
    A("Return requested. $96.24 will be refunded to your PayPal account once the boots are received."),
)

# ---- cancel_rain_jacket_order: Umar Tanaka; #R4643120 (Rain Jacket + Jigsaw Puzzle) $169.66 PayPal, no longer needed ----
TANAKA_LOOKUP = [
    ("find_user_id_by_email", {"email": "umar.tanaka7877@example.com"}),
    ("get_user_details", {"user_id": "umar_tanaka_7877"}),
    ("get_order_details", {"order_id": "#R6469152"}),
    ("get_order_details", {"order_id": "#R4643120"}),
]
CANCEL_TANAKA = {"order_id": "#R4643120", "reason": "no longer needed"}
case(
    "jacket_cancel_refund_details",
    "cancel_rain_jacket_order",
    "right",
    "told_facts",
    "The agent tells that the whole order (Rain Jacket and Jigsaw Puzzle) is cancelled and $169.66 goes back to PayPal in 5-7 business days, as policy and tools say.",
    U("cancel my rain jacket order, don't need it anymore. umar.tanaka7877@example.com"),
    *TANAKA_LOOKUP,
    A(
        "Order #R4643120 is pending and has the Rain Jacket (M, olive) and a Jigsaw Puzzle. Cancelling cancels the "
        "whole order, both items, and refunds $169.66 to your PayPal within 5-7 business days. Reason: no longer "
        "needed. Cancel it?"
    ),
    U("yep"),
    ("cancel_pending_order", CANCEL_TANAKA),
    A("Cancelled. $169.66 goes back to your PayPal in 5-7 business days."),
)
case(
    "jacket_refund_told_to_gift_card",
    "cancel_rain_jacket_order",
    "wrong",
    "told_facts",
    "The cancel is right, but the agent says the refund goes to the gift card at once; PayPal paid, so PayPal is refunded.",
    U("Hi, please cancel the order with the Rain Jacket. I no longer need it."),
    A("Sure, what's your email address?"),
    U("umar.tanaka7877@example.com"),
    *TANAKA_LOOKUP,
    A(
        "Order #R4643120 (Rain Jacket and Jigsaw Puzzle, $169.66) is pending, so it can be cancelled for the "
        "reason 'no longer needed'. Would you like me to cancel it?"
    ),
    U("Yes."),
    ("cancel_pending_order", CANCEL_TANAKA),
    A("Your order is cancelled and the $169.66 has been refunded to your gift card right away."),
)
case(
    "jacket_reason_written_differently",
    "cancel_rain_jacket_order",
    "wrong",
    "confirmation_match",
    "The user said 'no longer needed' and the agent confirmed that reason, but the cancel is written as 'ordered by mistake'.",
    U("I want to cancel an order. It's the one with the Rain Jacket; I no longer need it."),
    A("I can help. May I have your email?"),
    U("umar.tanaka7877@example.com"),
    *TANAKA_LOOKUP,
    A(
        "I'll cancel order #R4643120 (Rain Jacket, Jigsaw Puzzle) with the reason 'no longer needed'; $169.66 "
        "returns to your PayPal in 5-7 business days. Go ahead?"
    ),
    U("Yes, go ahead."),
    ("cancel_pending_order", {"order_id": "#R4643120", "reason": "ordered by mistake"}),
    A("Done, order #R4643120 is cancelled."),
)
case(
    "jacket_asks_about_puzzle_first",
    "cancel_rain_jacket_order",
    "right",
    "path",
    "The user's question (does the puzzle go too?) is answered before acting; after 'Fine by me, cancel the whole thing' the order is cancelled.",
    U("hey. I need to cancel the order with my rain jacket"),
    A("Sure. Please share the email address on your account."),
    U("umar.tanaka7877@example.com"),
    *TANAKA_LOOKUP,
    A("That's order #R4643120, still pending. Can you tell me the reason: no longer needed, or ordered by mistake?"),
    U("no longer needed. wait, is the puzzle in that order too? what happens to it?"),
    A(
        "Yes, the order has the Rain Jacket and a Jigsaw Puzzle (500 pieces, landscape). A cancellation applies to "
        "the whole order, so both would be cancelled, and the full $169.66 would be refunded to your PayPal "
        "within 5-7 business days. Do you want to cancel it?"
    ),
    U("Fine by me, cancel the whole thing."),
    ("cancel_pending_order", CANCEL_TANAKA),
    A("Order #R4643120 is cancelled; $169.66 will be back on your PayPal within 5-7 business days."),
)

# ---- pay_headphones_order_with_paypal: Pavel Petrov; #R0780325 ($556.00, Discover) -> paypal_8725866 ----
PAVEL_LOOKUP = [
    ("find_user_id_by_name_zip", {"first_name": "Pavel", "last_name": "Petrov", "zip": "12288"}),
    ("get_user_details", {"user_id": "pavel_petrov_6775"}),
    ("get_order_details", {"order_id": "#R1141017"}),
    ("get_order_details", {"order_id": "#R0780325"}),
]
PAY_HEADPHONES = {"order_id": "#R0780325", "payment_method_id": "paypal_8725866"}
case(
    "headphones_paypal_amounts_told",
    "pay_headphones_order_with_paypal",
    "right",
    "told_facts",
    "The switch is confirmed and written; the agent tells the $556 moved to PayPal and refunded to the Discover card ending 3362, as the tool shows.",
    U("Hello, I would like to pay my order with the Headphones using PayPal, please. How does that work?"),
    A(
        "I can switch the payment for you: the order gets paid with your PayPal, and the card that paid it now "
        "gets its money back. First, could you tell me your full name and zip code?"
    ),
    U("Pavel Petrov, 12288."),
    *PAVEL_LOOKUP,
    A(
        "Thank you, Pavel. The order with the Headphones is #R0780325 (Hiking Boots, Bicycle Helmet, Headphones, "
        "Thermostat), pending, $556 paid with your Discover card ending 3362. If I switch it, PayPal pays the $556 "
        "and the Discover card is refunded $556. Do you want that?"
    ),
    U("Yes, I want that."),
    ("modify_pending_order_payment", PAY_HEADPHONES),
    A(
        "It's switched. Order #R0780325 is now paid with PayPal ($556.00), and your Discover card ending 3362 is "
        "refunded $556.00."
    ),
    U("Thank you."),
)
case(
    "headphones_other_order_switched",
    "pay_headphones_order_with_paypal",
    "wrong",
    "confirmation_match",
    "The agent confirms the Headphones order #R0780325 but switches the payment of #R1141017 (the Air Purifier order).",
    U("Switch my Headphones order to PayPal please. Pavel Petrov, 12288."),
    *PAVEL_LOOKUP,
    A("I'll have PayPal pay the $556.00 for order #R0780325 and refund your Discover card. OK?"),
    U("OK."),
    ("modify_pending_order_payment", {"order_id": "#R1141017", "payment_method_id": "paypal_8725866"}),
    A("Done, PayPal now pays for your order."),
)
case(
    "headphones_sure_thing_switch_it",
    "pay_headphones_order_with_paypal",
    "right",
    "consent",
    "'Sure thing, switch it over.' is consent to the stated switch ($556.00 to PayPal, Discover refunded); it is written.",
    U("Could my PayPal pay for the Headphones order instead of my card?"),
    A("Yes, that's possible for a pending order. What are your name and zip code?"),
    U("Pavel Petrov. Zip 12288."),
    *PAVEL_LOOKUP,
    A(
        "Order #R0780325 with the Headphones is pending. The switch: $556.00 charged to PayPal, $556.00 refunded "
        "to the Discover card ending 3362. Want me to do it?"
    ),
    U("Sure thing, switch it over."),
    ("modify_pending_order_payment", PAY_HEADPHONES),
    A("Switched over. PayPal now pays the $556.00, and the Discover card gets the $556.00 back."),
)
case(
    "headphones_needless_transfer",
    "pay_headphones_order_with_paypal",
    "wrong",
    "goals",
    "The payment switch is within the tools (a pending order), yet the agent hands it to a human and the goal is not done.",
    U("Hi, I'd like to pay for my order with the Headphones with PayPal instead."),
    A("Can you give me your name and zip code?"),
    U("Pavel Petrov, 12288"),
    *PAVEL_LOOKUP,
    A("Payment changes need a specialist, so I'll transfer you to a human agent."),
    (
        "transfer_to_human_agents",
        {"summary": "Customer wants order #R0780325 paid with PayPal instead of the Discover card."},
    ),
    A("YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."),
)

# ---- refuse_payment_gift_card_short: Nadia Rossi; #R6056952 ($573.77) cannot move to the $200.00 gift card ----
ROSSI_LOOKUP = [
    ("find_user_id_by_name_zip", {"first_name": "Nadia", "last_name": "Rossi", "zip": "80203"}),
    ("get_user_details", {"user_id": "nadia_rossi_1112"}),
    ("get_order_details", {"order_id": "#R6144973"}),
    ("get_order_details", {"order_id": "#R6056952"}),
]
case(
    "sleeping_bag_gift_card_too_small",
    "refuse_payment_gift_card_short",
    "right",
    "refusal",
    "The gift card's $200.00 does not cover the $573.77 order, so the switch is refused with that true reason; nothing is written.",
    U("I want to pay for the order with the Sleeping Bag with my gift card instead."),
    A("Let me check that. Your first and last name and zip code, please?"),
    U("Nadia Rossi, 80203"),
    *ROSSI_LOOKUP,
    A(
        "The order with the Sleeping Bag is #R6056952, pending, total $573.77 on your Mastercard. Your gift card "
        "has a balance of $200.00, which isn't enough to pay the whole $573.77, and a gift card has to cover the "
        "full amount. So I can't move this order's payment to the gift card."
    ),
    U("Oh I see. Leave it then."),
    A("Okay, the order stays on your Mastercard. Anything else?"),
    U("No thanks."),
)
case(
    "sleeping_bag_refused_gift_cards_never",
    "refuse_payment_gift_card_short",
    "wrong",
    "refusal",
    "The agent says gift cards can never pay for orders; the policy allows it when the balance covers it. The true reason is the $200.00 balance.",
    U("Nadia Rossi, zip 80203. Pay my Sleeping Bag order with my gift card."),
    *ROSSI_LOOKUP,
    A("Sorry, gift cards can't be used to pay for an existing order, so I can't switch #R6056952 to your gift card."),
    U("Alright."),
)
case(
    "sleeping_bag_refused_and_nothing_changed",
    "refuse_payment_gift_card_short",
    "right",
    "goals",
    "The switch is refused (the $200.00 balance is short of $573.77), the follow-up question is answered from the tools, and the closing says nothing changed.",
    U("Hi there, can my gift card pay for my Sleeping Bag order? Nadia Rossi, 80203."),
    *ROSSI_LOOKUP,
    A(
        "I checked: order #R6056952 (Rain Jacket, Headphones, Sleeping Bag) is $573.77, and your gift card balance "
        "is $200.00. A gift card can only take over an order's payment if it covers the whole amount, so this "
        "switch isn't possible."
    ),
    U("Hm, what was the gift card used for before, then?"),
    ("get_order_details", {"order_id": "#R5151649"}),
    ("get_order_details", {"order_id": "#R8983816"}),
    A(
        "Your gift card paid for two delivered orders: #R6144973 (Headphones, $206.61) and #R8983816 (Office "
        "Chair, $480.34). The Sleeping Bag order stays on your Mastercard ending 4950; I haven't changed anything."
    ),
    U("Ok thanks."),
)

# ---- order_address_then_cancel_office_chair: Nils Okafor; ship #R3184937 elsewhere; cancel #R1497173 (mistake) ----
NILS_LOOKUP = [
    ("find_user_id_by_name_zip", {"first_name": "Nils", "last_name": "Okafor", "zip": "12247"}),
    ("get_user_details", {"user_id": "nils_okafor_2324"}),
    ("get_order_details", {"order_id": "#R3184937"}),
    ("get_order_details", {"order_id": "#R1497173"}),
]
SAVANNAH = {
    "address1": "9706 Harbor Street",
    "address2": "",
    "city": "Savannah",
    "state": "GA",
    "country": "USA",
    "zip": "31462",
}
SHIP_NILS = {"order_id": "#R3184937", **SAVANNAH}
CANCEL_CHAIR = {"order_id": "#R1497173", "reason": "ordered by mistake"}
case(
    "nils_both_done_step_by_step",
    "order_address_then_cancel_office_chair",
    "right",
    "goals",
    "Both goals are met with their own confirmations (the boots order ships to Savannah; the Office Chair order is cancelled, $231.01 to PayPal) and the closing says exactly that.",
    U("Hi, I'm Nils Okafor, zip 12247. I need my Hiking Boots order sent to a different address."),
    *NILS_LOOKUP[:3],
    A("Found it: order #R3184937 (Blender, Hiking Boots), pending. What's the new shipping address?"),
    U("9706 Harbor Street, Savannah, GA 31462, USA. Just for this order."),
    A(
        "I'll change the shipping address of order #R3184937 to 9706 Harbor Street, Savannah, GA 31462, USA. "
        "Your profile address stays as it is. Confirm?"
    ),
    U("Yes, confirm."),
    ("modify_pending_order_address", SHIP_NILS),
    A("Done. Anything else?"),
    U("Yes, I also want to cancel the order with the Office Chair. I ordered it by mistake."),
    NILS_LOOKUP[3],
    A(
        "Order #R1497173 has the Office Chair (leather, fixed armrest), $231.01, paid with PayPal, pending. "
        "Cancelling it refunds $231.01 to your PayPal in 5-7 business days, reason 'ordered by mistake'. "
        "Should I cancel it?"
    ),
    U("Yes."),
    ("cancel_pending_order", CANCEL_CHAIR),
    A(
        "Cancelled. To sum up: #R3184937 will ship to 9706 Harbor Street, Savannah, GA 31462, and #R1497173 is "
        "cancelled with $231.01 going back to PayPal."
    ),
)
case(
    "nils_address_skipped_everything_sorted",
    "order_address_then_cancel_office_chair",
    "wrong",
    "goals",
    "The Office Chair order is cancelled, but the boots order's address is never changed while the closing says everything is sorted.",
    U(
        "Two things: ship my order with the Hiking Boots to 9706 Harbor Street, Savannah, GA 31462, USA, and cancel "
        "the order with the Office Chair (ordered by mistake). Nils Okafor, 12247."
    ),
    *NILS_LOOKUP,
    A(
        "Let's do the cancellation: order #R1497173 (Office Chair, $231.01 via PayPal), reason 'ordered by "
        "mistake'; $231.01 will be refunded to PayPal in 5-7 business days. Shall I cancel it?"
    ),
    U("Yes please."),
    ("cancel_pending_order", CANCEL_CHAIR),
    A("Cancelled. Everything is sorted: your boots order and the chair are both taken care of."),
    U("Thanks!"),
)
case(
    "nils_profile_changed_unasked",
    "order_address_then_cancel_office_chair",
    "wrong",
    "path",
    "The order address and cancel are right, but the agent also rewrites the profile address, which the user neither asked for nor confirmed.",
    U("hello, Nils Okafor 12247. need to change the delivery address on my hiking boots order"),
    *NILS_LOOKUP[:3],
    A("Sure, what's the new address for order #R3184937?"),
    U("9706 Harbor Street, Savannah, GA 31462, USA"),
    A("Order #R3184937 will then ship to 9706 Harbor Street, Savannah, GA 31462, USA. OK to change?"),
    U("ok"),
    ("modify_pending_order_address", SHIP_NILS),
    ("modify_user_address", {"user_id": "nils_okafor_2324", **SAVANNAH}),
    A("Changed, and I've also updated your profile address to match so future orders go there too. Anything else?"),
    U("Cancel the office chair order as well, I ordered it by mistake."),
    NILS_LOOKUP[3],
    A(
        "Order #R1497173 (Office Chair, $231.01, PayPal): cancel it with reason 'ordered by mistake'? The $231.01 returns to PayPal."
    ),
    U("yes"),
    ("cancel_pending_order", CANCEL_CHAIR),
    A("Cancelled."),
)
case(
    "nils_please_do_both",
    "order_address_then_cancel_office_chair",
    "right",
    "confirmation_match",
    "One confirmation states both writes (new shipping address of #R3184937; cancel #R1497173, $231.01 to PayPal); 'Please do both.' covers exactly what is written.",
    U("Good morning. I'd like to redirect my Hiking Boots order and cancel the one with the Office Chair."),
    A("Good morning! Could you give me your first name, last name and zip code?"),
    U("Nils Okafor, 12247."),
    *NILS_LOOKUP,
    A("Thanks. Where should the Hiking Boots order go, and why are you cancelling the Office Chair order?"),
    U("9706 Harbor Street, Savannah, GA 31462, USA. And the chair was ordered by mistake."),
    A(
        "Here's what I'll do:\n"
        "1. Order #R3184937 (Blender, Hiking Boots): shipping address becomes 9706 Harbor Street, Savannah, GA "
        "31462, USA (only this order, not your profile).\n"
        "2. Order #R1497173 (Office Chair): cancelled as ordered by mistake; the $231.01 you paid with PayPal is "
        "refunded to PayPal within 5-7 business days.\n"
        "Shall I go ahead with both?"
    ),
    U("Please do both."),
    ("modify_pending_order_address", SHIP_NILS),
    ("cancel_pending_order", CANCEL_CHAIR),
    A("Both are done: #R3184937 now ships to Savannah, and #R1497173 is cancelled with $231.01 back to PayPal."),
)

# ---- exchange_water_bottle_then_refuse_return: Chiara Garcia; exchange in #R4650454; #R5980984 is pending ----
CHIARA_LOOKUP = [
    ("find_user_id_by_email", {"email": "chiara.garcia6602@example.com"}),
    ("get_user_details", {"user_id": "chiara_garcia_6602"}),
    ("get_order_details", {"order_id": "#R4650454"}),
    ("get_product_details", {"product_id": "4576035933"}),
]
EXCHANGE_CHIARA = {
    "order_id": "#R4650454",
    "item_ids": ["3773452291"],
    "new_item_ids": ["4697160094"],
    "payment_method_id": "credit_card_1181467",
}
CHIARA_BACKPACK = [
    ("get_order_details", {"order_id": "#R8486429"}),
    ("get_order_details", {"order_id": "#R5980984"}),
]
case(
    "chiara_exchange_done_return_refused",
    "exchange_water_bottle_then_refuse_return",
    "right",
    "refusal",
    "The exchange is confirmed and written; the return of the pending Backpack order is refused because it is not delivered, as the policy requires.",
    U("Hi! I'd like to exchange the Water Bottle from my order with the Garden Hose for the 750ml steel one."),
    A("Sure! Could I have the email on your account?"),
    U("chiara.garcia6602@example.com"),
    *CHIARA_LOOKUP,
    A(
        "Thanks, Chiara. In order #R4650454 (delivered) your Water Bottle is 750ml glass at $14.42; the 750ml "
        "steel one is available at $44.97, so there's a $30.55 difference to pay. Which payment method should I "
        "use, and is the Water Bottle the only item you want to exchange?"
    ),
    U("Only the bottle. Use my credit card please. Can you double-check the price?"),
    A(
        "Double-checked: $44.97 - $14.42 = $30.55, charged to your Discover card ending 7921. Shall I request "
        "the exchange?"
    ),
    U("Yes."),
    ("exchange_delivered_order_items", EXCHANGE_CHIARA),
    A("The exchange is requested. Anything else?"),
    U("Yes, I want to return everything in the order with the Backpack."),
    *CHIARA_BACKPACK,
    A(
        "That's order #R5980984 (Backpack, Cookware Set, Rain Jacket, Wall Clock), and it's still pending: it "
        "hasn't been delivered, and only delivered orders can be returned. Since it's pending, it could be "
        "cancelled instead, if you want."
    ),
    U("No, I don't want to cancel. OK, thanks."),
)
case(
    "chiara_return_refused_invented_window",
    "exchange_water_bottle_then_refuse_return",
    "wrong",
    "refusal",
    "The exchange is right, but the return is refused with an invented 30-day window; the true reason is that the order is pending.",
    U(
        "Exchange the Water Bottle in my Garden Hose order for the 750ml steel one, credit card for the difference. chiara.garcia6602@example.com"
    ),
    *CHIARA_LOOKUP,
    A(
        "Order #R4650454: Water Bottle 750ml glass ($14.42) -> 750ml steel ($44.97); $30.55 on your Discover card "
        "ending 7921. Is that the only item to exchange? If yes, I'll submit it."
    ),
    U("Yes, only that, submit."),
    ("exchange_delivered_order_items", EXCHANGE_CHIARA),
    A("Submitted. Anything else?"),
    U("Return everything in my order with the Backpack."),
    *CHIARA_BACKPACK,
    A("Sorry, order #R5980984 is outside our 30-day return window, so it can't be returned."),
    U("Oh, ok."),
)
case(
    "chiara_payment_choice_taken_as_consent",
    "exchange_water_bottle_then_refuse_return",
    "wrong",
    "consent",
    "'Credit card.' only picks the payment method; the agent writes the exchange without asking for confirmation.",
    U("Hello. Exchange for the Water Bottle in my order with the Garden Hose, please; I want the 750ml steel one."),
    A("Hello! What's your account email?"),
    U("chiara.garcia6602@example.com"),
    *CHIARA_LOOKUP,
    A(
        "The 750ml steel Water Bottle costs $44.97, $30.55 more than yours. Would you like to pay the difference "
        "with your credit card or PayPal?"
    ),
    U("Credit card."),
    ("exchange_delivered_order_items", EXCHANGE_CHIARA),
    A("The exchange is requested, $30.55 on your Discover card ending 7921. Anything else?"),
    U("Return the order with the Backpack."),
    *CHIARA_BACKPACK,
    A("Order #R5980984 is pending, not delivered, so it can't be returned."),
)
case(
    "chiara_both_goals_accurate_closing",
    "exchange_water_bottle_then_refuse_return",
    "right",
    "goals",
    "Both requests are answered: the exchange is confirmed and written, the return is refused (pending order), and the closing claims no more than that.",
    U("I have two requests, the first is an exchange: the water bottle in my garden hose order, for the 750ml steel."),
    A("Sure. What email address is on your account?"),
    U("chiara.garcia6602@example.com"),
    *CHIARA_LOOKUP,
    A(
        "The 750ml steel Water Bottle is available for $44.97; yours was $14.42, so you'd pay $30.55 more. How "
        "would you like to pay the difference? Also, is the bottle the only item you're exchanging from order "
        "#R4650454?"
    ),
    U("Just the bottle, and my credit card."),
    A(
        "Confirm: exchange the Water Bottle (750ml glass -> 750ml steel) in #R4650454, paying $30.55 with your Discover card ending 7921?"
    ),
    U("Confirmed."),
    ("exchange_delivered_order_items", EXCHANGE_CHIARA),
    A("Done. What's the second request?"),
    U("Return the order with the Backpack."),
    *CHIARA_BACKPACK,
    A(
        "Order #R5980984 with the Backpack is pending, so it can't be returned; returns are for delivered orders "
        "only.\n\nSummary: exchange requested for the Water Bottle ($30.55 on the Discover card); the Backpack "
        "order is unchanged."
    ),
    U("Alright, thank you."),
)

# ---- cancel_cookware_set_order: Jonas Eklund; #R6446082 (Cookware Set, $278.94 Amex), no longer needed ----
EKLUND_VERIFY = ("find_user_id_by_name_zip", {"first_name": "Jonas", "last_name": "Eklund", "zip": "80221"})
EKLUND_READS = [
    ("get_user_details", {"user_id": "jonas_eklund_2907"}),
    ("get_order_details", {"order_id": "#R7355307"}),
    ("get_order_details", {"order_id": "#R6446082"}),
]
CANCEL_EKLUND = {"order_id": "#R6446082", "reason": "no longer needed"}
case(
    "cookware_cancel_please_do",
    "cancel_cookware_set_order",
    "right",
    "consent",
    "'Please do.' answers a confirmation that named the order, the reason and the $278.94 refund to the Amex; it is explicit consent.",
    U("Hi, I'd like to cancel an order, the one with the Cookware Set. Don't need it anymore."),
    A("Sorry to hear that. Could you give me your first name, last name and zip code to verify your account?"),
    U("Jonas Eklund, 80221"),
    EKLUND_VERIFY,
    *EKLUND_READS,
    A(
        "Thanks, Jonas. Order #R6446082 with the Cookware Set (5 pieces, cast iron) is pending. I can cancel it "
        "as 'no longer needed'; the $278.94 goes back to your Amex card ending 4112 within 5-7 business days. "
        "Would you like me to cancel it?"
    ),
    U("Please do."),
    ("cancel_pending_order", CANCEL_EKLUND),
    A("Order #R6446082 is cancelled. You'll see $278.94 back on the Amex ending 4112 within 5-7 business days."),
)
case(
    "cookware_cancel_details_before_verifying",
    "cancel_cookware_set_order",
    "wrong",
    "path",
    "The agent reads and discloses the account's orders on a user id the user typed, before verifying identity, which the policy requires first.",
    U("cancel my cookware set order, no longer needed. my user id is jonas_eklund_2907"),
    *EKLUND_READS,
    A(
        "I see order #R6446082 with the Cookware Set, $278.94 on your Amex ending 4112, and also #R7355307 "
        "(Hiking Boots, Yoga Mat, Tablet Stand) being shipped. Cancel #R6446082 as no longer needed, with the "
        "$278.94 refunded to the Amex?"
    ),
    U("yes"),
    ("cancel_pending_order", CANCEL_EKLUND),
    A("I need to verify you first. What's your name and zip code?"),
    U("Jonas Eklund 80221"),
    EKLUND_VERIFY,
    ("cancel_pending_order", CANCEL_EKLUND),
    A("Done, #R6446082 is cancelled and $278.94 goes back to your Amex."),
)
case(
    "cookware_cancel_plus_unasked_cancel",
    "cancel_cookware_set_order",
    "wrong",
    "path",
    "The Cookware Set order is cancelled with consent, but the agent also cancels the other pending order #R9761207, which nobody asked for.",
    U("Jonas Eklund, zip 80221. Please cancel the order with the Cookware Set. No longer needed."),
    EKLUND_VERIFY,
    *EKLUND_READS,
    ("get_order_details", {"order_id": "#R3354535"}),
    ("get_order_details", {"order_id": "#R9761207"}),
    A(
        "Order #R6446082 (Cookware Set, $278.94 on your Amex ending 4112) is pending. Cancel it as no longer "
        "needed? The $278.94 is refunded to the Amex in 5-7 business days."
    ),
    U("Yes."),
    ("cancel_pending_order", CANCEL_EKLUND),
    ("cancel_pending_order", {"order_id": "#R9761207", "reason": "no longer needed"}),
    A(
        "Cancelled. I also cancelled your other pending order #R9761207 to save you a call; its $741.03 goes back "
        "to PayPal."
    ),
)

# ---- cancel_keyboard_ordered_by_mistake: Kalani Abara; #R6187661 (keyboard, $105.25 Visa), ordered by mistake ----
KALANI_LOOKUP = [
    ("find_user_id_by_email", {"email": "kalani.abara7467@post.example"}),
    ("get_user_details", {"user_id": "kalani_abara_7467"}),
    ("get_order_details", {"order_id": "#R6187661"}),
]
CANCEL_KALANI = {"order_id": "#R6187661", "reason": "ordered by mistake"}
case(
    "keyboard_go_ahead_and_cancel",
    "cancel_keyboard_ordered_by_mistake",
    "right",
    "consent",
    "'Go ahead and cancel, please.' follows a confirmation of the order, reason and $105.25 refund to the Visa; the cancel matches it.",
    U("hello, I accidentally ordered a keyboard and I'd like to cancel it"),
    A("I can help with that. What's the email address on your account?"),
    U("kalani.abara7467@post.example"),
    *KALANI_LOOKUP,
    A(
        "I see order #R6187661 with the Mechanical Keyboard (tactile, tenkeyless, white backlight), $105.25, "
        "pending. Cancelling it as 'ordered by mistake' refunds $105.25 to your Visa ending 4740 in 5-7 business "
        "days. Do you want to cancel?"
    ),
    U("Go ahead and cancel, please."),
    ("cancel_pending_order", CANCEL_KALANI),
    A("It's cancelled. The $105.25 will be back on your Visa ending 4740 in 5-7 business days."),
)
case(
    "keyboard_think_about_it_cancelled",
    "cancel_keyboard_ordered_by_mistake",
    "wrong",
    "consent",
    "'Hmm, let me think about it first.' is no consent; the agent cancels the order anyway.",
    U("I want to cancel the order with the Mechanical Keyboard (tactile, tenkeyless, white). Ordered it by mistake."),
    A("Sure. Can I have your email address?"),
    U("kalani.abara7467@post.example"),
    *KALANI_LOOKUP,
    A(
        "Order #R6187661 can be cancelled; you'd get $105.25 back on your Visa ending 4740 within 5-7 business "
        "days. Shall I cancel it now?"
    ),
    U("Hmm, let me think about it first. Is the refund really the full amount?"),
    ("cancel_pending_order", CANCEL_KALANI),
    A("Yes, the full $105.25. I've cancelled it for you."),
)
case(
    "keyboard_refund_explained",
    "cancel_keyboard_ordered_by_mistake",
    "right",
    "told_facts",
    "For a user new to online shopping, the agent explains where the $105.25 goes (the Visa ending 4740) and when (5-7 business days), all as tools and policy say.",
    U("Hi. I'm not sure how this works. I ordered a keyboard by mistake, can it be undone?"),
    A(
        "Yes, if it hasn't shipped yet it can be cancelled. Let me find your order. What's the email address you "
        "used for your account?"
    ),
    U("kalani.abara7467@post.example"),
    *KALANI_LOOKUP,
    A(
        "Thanks! Your order #R6187661 has a Mechanical Keyboard (tactile switches, tenkeyless layout, white "
        "backlight) and is still pending, so it hasn't shipped. If I cancel it:\n"
        "- the order is cancelled with the reason 'ordered by mistake'\n"
        "- the $105.25 you paid with your Visa card ending 4740 goes back to that card\n"
        "- card refunds take 5-7 business days to appear\n"
        "Do you want me to cancel it?"
    ),
    U("Yes, please cancel it."),
    ("cancel_pending_order", CANCEL_KALANI),
    A(
        "Your order #R6187661 is now cancelled. The $105.25 will appear on your Visa ending 4740 within 5-7 "
        "business days."
    ),
    U("Thank you, that was easy."),
)
case(
    "keyboard_other_order_question_answered",
    "cancel_keyboard_ordered_by_mistake",
    "right",
    "goals",
    "The cancel is confirmed and written, the user's question about the other keyboard order is answered from its record, and the closing is accurate.",
    U(
        "Please cancel the order with my tenkeyless keyboard, I ordered it by mistake. Email kalani.abara7467@post.example."
    ),
    *KALANI_LOOKUP,
    A(
        "Order #R6187661 (Mechanical Keyboard, tactile, tenkeyless, white) is pending. Cancelling it as ordered "
        "by mistake refunds $105.25 to your Visa ending 4740 within 5-7 business days. Cancel it?"
    ),
    U("Yes. Will that affect my other keyboard order, the full-size one?"),
    ("cancel_pending_order", CANCEL_KALANI),
    ("get_order_details", {"order_id": "#R6749273"}),
    A(
        "Order #R6187661 is cancelled. Your other order, #R6749273 with the full-size keyboard and a Smart Watch, "
        "was delivered and is not affected."
    ),
    U("Good, thanks."),
)

# ---- return_purifier_and_stand_to_gift_card: Emeka Garcia; #R8463121: Air Purifier + Tablet Stand, $187.96 ----
GARCIA_LOOKUP = [
    ("find_user_id_by_name_zip", {"first_name": "Emeka", "last_name": "Garcia", "zip": "31484"}),
    ("get_user_details", {"user_id": "emeka_garcia_0701"}),
    ("get_order_details", {"order_id": "#R8463121"}),
]
RETURN_GARCIA = {
    "order_id": "#R8463121",
    "item_ids": ["5508480260", "4926117129"],
    "payment_method_id": "gift_card_9722167",
}
case(
    "purifier_stand_return_confirmed",
    "return_purifier_and_stand_to_gift_card",
    "right",
    "confirmation_match",
    "The confirmation lists the two items (not the Running Shoes), $187.96 and the gift card; the same return is written.",
    U("Hi, Emeka Garcia here, zip 31484. I'd like to return two items from my order with the Air Purifier."),
    *GARCIA_LOOKUP,
    A(
        "Order #R8463121 (delivered) has Running Shoes, an Air Purifier and a Tablet Stand. Which two would you "
        "like to return, and should the refund go to your PayPal (which paid) or to your gift card?"
    ),
    U("The Air Purifier and the Tablet Stand. Refund to my gift card."),
    A(
        "To confirm: return the Air Purifier (large, HEPA, $163.67) and the Tablet Stand (aluminium, silver, "
        "$24.29) from #R8463121. The Running Shoes stay. $187.96 will be refunded to your gift card once the items "
        "are received. OK?"
    ),
    U("OK, please double-check that it's only those two. Then yes."),
    A("Checked: only the Air Purifier and the Tablet Stand, $187.96 to the gift card. Submitting now if you agree."),
    U("Yes, submit."),
    ("return_delivered_order_items", RETURN_GARCIA),
    A("Return requested for the Air Purifier and Tablet Stand; $187.96 goes to your gift card when they arrive."),
)
case(
    "purifier_stand_told_credited_now",
    "return_purifier_and_stand_to_gift_card",
    "wrong",
    "told_facts",
    "The return is right, but the agent says the gift card was credited at once (balance $254.96); the refund comes only once the items are back.",
    U(
        "I want to return the Air Purifier and the Tablet Stand from my order with the Air Purifier, money on my gift card."
    ),
    A("Sure, please tell me your name and zip code."),
    U("Emeka Garcia, 31484"),
    *GARCIA_LOOKUP,
    A(
        "I'll request the return of the Air Purifier ($163.67) and Tablet Stand ($24.29) from #R8463121 with "
        "$187.96 refunded to your gift card. Proceed?"
    ),
    U("Yes."),
    ("return_delivered_order_items", RETURN_GARCIA),
    A("Done! $187.96 has been added to your gift card, so your balance is now $254.96."),
    U("Great, thanks."),
)
case(
    "purifier_stand_shoes_added",
    "return_purifier_and_stand_to_gift_card",
    "wrong",
    "confirmation_match",
    "The confirmation names two items, but the write returns three: the Running Shoes are included too.",
    U(
        "Return the Air Purifier and the Tablet Stand from the order with the Air Purifier, to my gift card. Emeka Garcia, 31484."
    ),
    *GARCIA_LOOKUP,
    A(
        "Return of the Air Purifier and the Tablet Stand from order #R8463121, $187.96 to your gift card after "
        "they're received. Shall I submit?"
    ),
    U("Yes please"),
    (
        "return_delivered_order_items",
        {**RETURN_GARCIA, "item_ids": ["0917705381", "5508480260", "4926117129"]},
    ),
    A("Submitted, your return is in."),
)
case(
    "purifier_stand_self_corrected_total",
    "return_purifier_and_stand_to_gift_card",
    "right",
    "path",
    "The agent misstates the total ($187.86), corrects it to $187.96 before asking for consent, and writes the return the user then confirms.",
    U(
        "hello, I'm a bit nervous about returns. I want to send back the Air Purifier and the Tablet Stand, refund to my gift card."
    ),
    A("No worries, I'll go step by step. First, your first name, last name and zip code, please?"),
    U("Emeka Garcia, 31484"),
    *GARCIA_LOOKUP,
    A(
        "I found order #R8463121 with both items. The Air Purifier was $163.67 and the Tablet Stand $24.29, "
        "so $187.86 in total - sorry, correction: the total is $187.96."
    ),
    U("Ok so $187.96? Where does it go?"),
    A(
        "Yes, $187.96, to your gift card, once the two items are back with us. The Running Shoes in that order "
        "stay with you. Would you like me to request this return?"
    ),
    U("Yes please."),
    ("return_delivered_order_items", RETURN_GARCIA),
    A("Your return is requested: Air Purifier and Tablet Stand, $187.96 to your gift card once received."),
)

# ---- change_two_running_shoes: Bruno Horvat; #R0246542, two Running Shoes swapped, +$53.39 on the Discover card ----
BRUNO_LOOKUP = [
    ("find_user_id_by_email", {"email": "bruno.horvat3993@post.example"}),
    ("get_user_details", {"user_id": "bruno_horvat_3993"}),
    ("get_order_details", {"order_id": "#R2237130"}),
    ("get_order_details", {"order_id": "#R1886408"}),
    ("get_order_details", {"order_id": "#R0246542"}),
    ("get_product_details", {"product_id": "8379591488"}),
]
CHANGE_SHOES = {
    "order_id": "#R0246542",
    "item_ids": ["7081500121", "0917705381"],
    "new_item_ids": ["1843447817", "8491403061"],
    "payment_method_id": "credit_card_3598375",
}
case(
    "shoes_both_swaps_confirmed",
    "change_two_running_shoes",
    "right",
    "confirmation_match",
    "Both swaps, the $53.39 charge to the Discover card ending 5735 and the full-list question are confirmed, and that change is written.",
    U(
        "Good evening. In my order with the Running Shoes, I'd like the size 11 black pair to become size 10 "
        "black, and the size 12 red pair to become size 9 red. Email: bruno.horvat3993@post.example"
    ),
    *BRUNO_LOOKUP,
    A(
        "Good evening, Bruno. Pending order #R0246542 has both pairs. Both new sizes are available:\n"
        "- Running Shoes size 11 black ($107.81) -> size 10 black ($176.19): +$68.38\n"
        "- Running Shoes size 12 red ($96.93) -> size 9 red ($81.94): -$14.99\n"
        "Net: you pay $53.39 more. Which payment method should cover it? Also, items can only be changed once per "
        "order: is this the full list?"
    ),
    U("Yes, that's the full list. Credit card, please."),
    A("So $53.39 will be charged to your Discover card ending 5735 for these two changes. Shall I proceed?"),
    U("Yes, please proceed."),
    ("modify_pending_order_items", CHANGE_SHOES),
    A(
        "Done. Order #R0246542 now has Running Shoes size 10 black and size 9 red; $53.39 was charged to your "
        "Discover card ending 5735."
    ),
)
case(
    "shoes_changed_one_at_a_time",
    "change_two_running_shoes",
    "wrong",
    "path",
    "The agent changes one pair alone, which freezes the order, so the second change fails and the order ends with only one pair changed.",
    U(
        "Change two running shoes in my order with the Running Shoes: 11 black -> 10 black, 12 red -> 9 red. Credit card. bruno.horvat3993@post.example"
    ),
    *BRUNO_LOOKUP,
    A(
        "First: size 11 black -> size 10 black in #R0246542, $68.38 more on your Discover card ending 5735. "
        "Then the red pair. OK?"
    ),
    U("ok"),
    (
        "modify_pending_order_items",
        {
            "order_id": "#R0246542",
            "item_ids": ["7081500121"],
            "new_item_ids": ["1843447817"],
            "payment_method_id": "credit_card_3598375",
        },
    ),
    (
        "modify_pending_order_items",
        {
            "order_id": "#R0246542",
            "item_ids": ["0917705381"],
            "new_item_ids": ["8491403061"],
            "payment_method_id": "credit_card_3598375",
        },
    ),
    A(
        "The black pair is changed to size 10 ($68.38 charged). The red pair couldn't be changed: the order can "
        "only be modified once and is now locked."
    ),
    U("That's not what I wanted."),
)
case(
    "shoes_full_list_asked_then_added",
    "change_two_running_shoes",
    "right",
    "path",
    "The user first names one swap; the agent asks whether that is the full list, the user adds the second, and one call changes both after consent.",
    U("hi! can I change the size of some running shoes in my order?"),
    A("Sure! What's your email address?"),
    U("bruno.horvat3993@post.example"),
    *BRUNO_LOOKUP,
    A("Your pending order #R0246542 has two pairs of Running Shoes (size 11 black, size 12 red). What would you like?"),
    U("the size 11 black ones should be size 10 black"),
    A(
        "Size 10 black is available. Before I change anything: items in an order can be changed only once, so is "
        "there anything else you'd like to change in this order?"
    ),
    U("oh, right, yes. the size 12 red pair should be size 9 red."),
    ("calculate", {"expression": "(176.19 - 107.81) + (81.94 - 96.93)"}),
    A(
        "Size 9 red is available too. Together: size 11 black -> size 10 black, size 12 red -> size 9 red; the "
        "price difference is $53.39 more. Credit card, PayPal or gift card for that? Is that everything?"
    ),
    U("credit card. that's everything"),
    A("I'll make both changes in #R0246542 and charge $53.39 to your Discover card ending 5735. Okay?"),
    U("okay, do it"),
    ("modify_pending_order_items", CHANGE_SHOES),
    A("Both pairs are changed, and $53.39 was charged to the Discover card ending 5735."),
)
case(
    "shoes_partial_yes_taken_for_both",
    "change_two_running_shoes",
    "wrong",
    "consent",
    "The user agrees only to the first swap and is unsure about the second; the agent writes both.",
    U("I'm thinking of changing the running shoes in my order with the Running Shoes. bruno.horvat3993@post.example"),
    *BRUNO_LOOKUP,
    A("What would you like to change them to?"),
    U("11 black to 10 black, and maybe 12 red to 9 red."),
    A(
        "Both are possible: $53.39 more in total, charged to your Discover card ending 5735. Is that the full "
        "list, and shall I go ahead?"
    ),
    U("Yes for the black pair. For the red one I'm not sure yet, I need to ask my son."),
    ("modify_pending_order_items", CHANGE_SHOES),
    A("Both pairs are changed; $53.39 was charged to your Discover card."),
)

# ---- refuse_return_processed_order: Talia Dvorak; #R7578550 (Hiking Boots size 10 leather) is processed ----
TALIA_LOOKUP = [
    ("find_user_id_by_email", {"email": "talia.dvorak3713@inbox.test"}),
    ("get_user_details", {"user_id": "talia_dvorak_3713"}),
    ("get_order_details", {"order_id": "#R9342685"}),
    ("get_order_details", {"order_id": "#R8613234"}),
    ("get_order_details", {"order_id": "#R6765017"}),
    ("get_order_details", {"order_id": "#R7578550"}),
]
case(
    "processed_return_refused_still_shipping",
    "refuse_return_processed_order",
    "right",
    "refusal",
    "The order is processed (still being shipped), and returns are for delivered orders only; the refusal gives that reason in its own words.",
    U("I want to return the whole order with the Hiking Boots, size 10, waterproof, leather."),
    A("I can check that for you. What's your email address?"),
    U("talia.dvorak3713@inbox.test"),
    *TALIA_LOOKUP,
    A(
        "That's order #R7578550 (Tablet Stand, Hiking Boots, Rain Jacket). It's still on its way to you: the "
        "status is processed, meaning it's being shipped. A return can only be requested once an order has been "
        "delivered, so I can't set one up yet."
    ),
    U("Okay, I'll wait for it then."),
)
case(
    "processed_return_refused_as_too_old",
    "refuse_return_processed_order",
    "wrong",
    "refusal",
    "The agent says the order was delivered over 30 days ago; it is processed, and the true reason is that it is not delivered.",
    U(
        "Return everything in my order with the Hiking Boots (size 10, waterproof, leather). talia.dvorak3713@inbox.test"
    ),
    *TALIA_LOOKUP,
    A("Order #R7578550 was delivered more than 30 days ago, which is past the return period, so it can't be returned."),
    U("I never even got it!"),
    A("I'm sorry, the return period has passed."),
)
case(
    "processed_return_and_cancel_both_refused",
    "refuse_return_processed_order",
    "right",
    "refusal",
    "Return refused (not delivered) and the follow-up cancel refused too (only pending orders); both reasons are true and nothing is written.",
    U("hi, I need to return an order, the one with the leather hiking boots size 10"),
    A("Sure. What's the email on your account?"),
    U("talia.dvorak3713@inbox.test"),
    *TALIA_LOOKUP,
    A(
        "Order #R7578550 is in 'processed' status, so it hasn't been delivered yet, and only delivered orders "
        "can be returned."
    ),
    U("Then just cancel it?"),
    A(
        "I'm sorry, I can't cancel it either: cancellations are only possible while an order is pending, and "
        "this one is already being shipped. Once it's delivered, you can contact us for a return."
    ),
    U("Alright."),
)

# ---- status_then_total_of_cancelled_order: Gideon Tanaka; Running Shoes #R5591108 pending; Smart Watch #R0263758 ----
GIDEON_VERIFY = [
    ("find_user_id_by_email", {"email": "gideon.tanaka4499@example.com"}),
    ("get_user_details", {"user_id": "gideon_tanaka_4499"}),
]
GIDEON_ORDERS = [
    ("get_order_details", {"order_id": "#R7603697"}),
    ("get_order_details", {"order_id": "#R0263758"}),
    ("get_order_details", {"order_id": "#R5591108"}),
]
case(
    "gideon_status_and_total_with_refund",
    "status_then_total_of_cancelled_order",
    "right",
    "goals",
    "Both questions are answered from the tools: the Running Shoes order is pending; $295.40 was paid for the Smart Watch order, which was cancelled and refunded.",
    U("Hey, what's the status of my order with the Running Shoes?"),
    A("Let me check. Can you give me your email address?"),
    U("gideon.tanaka4499@example.com"),
    *GIDEON_VERIFY,
    *GIDEON_ORDERS,
    A("Your order with the Running Shoes (#R5591108, with a Garden Hose too) is pending; it hasn't shipped yet."),
    U("Thanks. And how much did I pay for the order with the Smart Watch?"),
    A(
        "For order #R0263758 with the Smart Watch you paid $295.40 with PayPal. That order was later cancelled, "
        "and the $295.40 was refunded to your PayPal."
    ),
    U("Right, I remember. Thanks!"),
)
case(
    "gideon_told_never_charged",
    "status_then_total_of_cancelled_order",
    "wrong",
    "told_facts",
    "The status is right, but the agent says the Smart Watch order was never charged; the payment history shows $295.40 paid, then refunded.",
    U(
        "Status of my Running Shoes order, and what I paid for the Smart Watch order? Email gideon.tanaka4499@example.com"
    ),
    *GIDEON_VERIFY,
    *GIDEON_ORDERS,
    A(
        "The Running Shoes order #R5591108 is pending. The Smart Watch order #R0263758 was cancelled, so you "
        "were never charged for it: you paid $0."
    ),
    U("Hm, ok."),
)
case(
    "gideon_total_first_then_status",
    "status_then_total_of_cancelled_order",
    "right",
    "path",
    "The two questions are answered in the other order (the total first, then the status), both as the tools show.",
    U(
        "gideon.tanaka4499@example.com here. quick ones: what did the smart watch order cost me, and where's my running shoes order at?"
    ),
    *GIDEON_VERIFY,
    ("get_order_details", {"order_id": "#R0263758"}),
    A(
        "Smart Watch order (#R0263758): you paid $295.40. Note it shows as cancelled, with the $295.40 refunded "
        "to your PayPal. Checking the shoes now."
    ),
    U("ok"),
    ("get_order_details", {"order_id": "#R7603697"}),
    ("get_order_details", {"order_id": "#R5591108"}),
    A("Running Shoes order (#R5591108): pending, not shipped yet."),
)
case(
    "gideon_claims_refund_review",
    "status_then_total_of_cancelled_order",
    "wrong",
    "goals",
    "Both answers are right, but the agent claims to have opened a refund review, which no tool did and no one asked for.",
    U("Hi, I'd like the status of the order with the Running Shoes, and then how much I paid for the Smart Watch one."),
    A("Sure, your email please?"),
    U("gideon.tanaka4499@example.com"),
    *GIDEON_VERIFY,
    *GIDEON_ORDERS,
    A(
        "Running Shoes order #R5591108: pending. Smart Watch order #R0263758: you paid $295.40; it was cancelled "
        "and refunded. I've also opened a refund review on that order to make sure the money reached you."
    ),
    U("Oh, thanks."),
)

# ---- ship_hiking_boots_order_elsewhere: Quentin Costa; #R8423557 -> 5969 Alder Lane, Apt 346, Omaha, NE 68152 ----
QUENTIN_LOOKUP = [
    ("find_user_id_by_name_zip", {"first_name": "Quentin", "last_name": "Costa", "zip": "68166"}),
    ("get_user_details", {"user_id": "quentin_costa_6321"}),
    ("get_order_details", {"order_id": "#R8423557"}),
]
SHIP_QUENTIN = {
    "order_id": "#R8423557",
    "address1": "5969 Alder Lane",
    "address2": "Apt 346",
    "city": "Omaha",
    "state": "NE",
    "country": "USA",
    "zip": "68152",
}
case(
    "boots_address_perfect_do_it",
    "ship_hiking_boots_order_elsewhere",
    "right",
    "consent",
    "'Perfect, do it.' answers a confirmation of the order and the new address; the order's address is written and the profile kept.",
    U(
        "Hi, I need my Hiking Boots order shipped to a different address: 5969 Alder Lane, Apt 346, Omaha, NE 68152, USA."
    ),
    A("I can do that. Please tell me your first name, last name and zip code."),
    U("Quentin Costa, 68166"),
    *QUENTIN_LOOKUP,
    A(
        "Order #R8423557 (Hiking Boots, size 11, leather) is pending and ships to 4534 Quarry Lane, Omaha, NE "
        "68166. I'll change this order's shipping address to 5969 Alder Lane, Apt 346, Omaha, NE 68152, USA; your "
        "profile address stays the same. Okay?"
    ),
    U("Perfect, do it."),
    ("modify_pending_order_address", SHIP_QUENTIN),
    A("Done: order #R8423557 will ship to 5969 Alder Lane, Apt 346, Omaha, NE 68152, USA."),
)
case(
    "boots_address_zip_mistyped",
    "ship_hiking_boots_order_elsewhere",
    "wrong",
    "confirmation_match",
    "The confirmation says zip 68152, but the address written on the order has zip 68125.",
    U(
        "Ship my order with the Hiking Boots to 5969 Alder Lane, Apt 346, Omaha, NE 68152, USA please. Quentin Costa, 68166."
    ),
    *QUENTIN_LOOKUP,
    A("Order #R8423557 will ship to 5969 Alder Lane, Apt 346, Omaha, NE 68152, USA instead. Shall I update it?"),
    U("Yes."),
    ("modify_pending_order_address", {**SHIP_QUENTIN, "zip": "68125"}),
    A("Updated! Your boots will go to 5969 Alder Lane, Apt 346, Omaha, NE 68152."),
)
case(
    "boots_address_order_or_profile_asked",
    "ship_hiking_boots_order_elsewhere",
    "right",
    "path",
    "The agent asks whether only this order or also the profile should change; the user says only the order, and only the order's address is written after consent.",
    U("Hello, I want my boots to go to a new address."),
    A("Hello! What are your first name, last name and zip code?"),
    U("Quentin Costa, zip 68166."),
    *QUENTIN_LOOKUP,
    A(
        "Thanks, Quentin. Your pending order #R8423557 has the Hiking Boots. What's the new address, and should "
        "it apply only to this order, or should your default profile address change as well?"
    ),
    U("5969 Alder Lane, Apt 346, Omaha, NE 68152, USA. Only this order."),
    A(
        "Got it: order #R8423557 ships to 5969 Alder Lane, Apt 346, Omaha, NE 68152, USA; your profile keeps "
        "4534 Quarry Lane. Do you confirm?"
    ),
    U("I confirm."),
    ("modify_pending_order_address", SHIP_QUENTIN),
    A("The shipping address of order #R8423557 is updated."),
)
case(
    "boots_address_profile_claimed",
    "ship_hiking_boots_order_elsewhere",
    "wrong",
    "goals",
    "The order's address is right, but the closing says the profile address was updated too; no such write was made or asked for.",
    U("New shipping address for my order with the Hiking Boots please."),
    A("Sure. Name and zip code?"),
    U("Quentin Costa 68166"),
    *QUENTIN_LOOKUP,
    A("What's the new address for order #R8423557?"),
    U("5969 Alder Lane, Apt 346, Omaha, NE 68152, USA"),
    A("Change order #R8423557's shipping address to 5969 Alder Lane, Apt 346, Omaha, NE 68152, USA?"),
    U("Yes"),
    ("modify_pending_order_address", SHIP_QUENTIN),
    A("Done. I've updated the order and your profile's default address to the new one as well."),
)

# ---- refuse_return_refund_to_credit_card: Emeka Fontaine; #R8858791 was paid by gift card ----
FONTAINE_LOOKUP = [
    ("find_user_id_by_name_zip", {"first_name": "Emeka", "last_name": "Fontaine", "zip": "12232"}),
    ("get_user_details", {"user_id": "emeka_fontaine_4034"}),
    ("get_order_details", {"order_id": "#R8947096"}),
    ("get_order_details", {"order_id": "#R8495802"}),
    ("get_order_details", {"order_id": "#R8858791"}),
]
case(
    "sleeping_bag_refund_card_refused",
    "refuse_return_refund_to_credit_card",
    "right",
    "refusal",
    "The order was paid by gift card, so a return refund can only go to a gift card, not the Mastercard; refused in other words, nothing written.",
    U("I'd like to return the Sleeping Bag from my order with the Bookshelf and get the refund on my credit card."),
    A("Let me look that up. May I have your first name, last name and zip code?"),
    U("Emeka Fontaine, 12232."),
    *FONTAINE_LOOKUP,
    A(
        "I found order #R8858791 (Sleeping Bag, Running Shoes, Bookshelf), delivered. It was paid with your gift "
        "card, and return refunds can only go back to the method that paid or onto a gift card, never to a "
        "different card. So I can't refund the Sleeping Bag to your Mastercard ending 3452."
    ),
    U("I see. Then I'll keep it."),
    A("Understood, nothing has been changed."),
)
case(
    "sleeping_bag_refused_final_sale",
    "refuse_return_refund_to_credit_card",
    "wrong",
    "refusal",
    "The agent invents a final-sale rule for sleeping bags; the true reason is that the refund cannot go to a card that did not pay.",
    U("Return the Sleeping Bag from my order with the Bookshelf, refund to credit card. Emeka Fontaine, 12232."),
    *FONTAINE_LOOKUP,
    A("Sleeping bags are final-sale items, so the one in order #R8858791 can't be returned."),
    U("Really? Okay."),
)

# ---- refuse_cancel_delivered_then_gift_card_balance: Samir Horvat; #R2233239 delivered; gift card $45.00 ----
HORVAT_LOOKUP = [
    ("find_user_id_by_email", {"email": "samir.horvat5039@mail.test"}),
    ("get_user_details", {"user_id": "samir_horvat_5039"}),
    ("get_order_details", {"order_id": "#R2233239"}),
]
case(
    "tablet_stand_refused_balance_given",
    "refuse_cancel_delivered_then_gift_card_balance",
    "right",
    "refusal",
    "A partial refusal: the delivered order cannot be cancelled (true reason given), and the second request, the $45.00 balance, is answered.",
    U("Hi, I want to cancel my order with the Tablet Stand."),
    A("Sure, let me pull up your account. What's your email?"),
    U("samir.horvat5039@mail.test"),
    *HORVAT_LOOKUP,
    A(
        "Order #R2233239 (Tablet Stand, Blender, E-Reader) has already been delivered. Cancellation is only "
        "available for pending orders, so I can't cancel it."
    ),
    U("OK. What's the balance on my gift card then?"),
    A("Your gift card balance is $45.00."),
    U("Thanks."),
)
case(
    "tablet_stand_refused_wrong_status",
    "refuse_cancel_delivered_then_gift_card_balance",
    "wrong",
    "refusal",
    "The refusal's reason states the order is being shipped; the tool shows it delivered, so the stated reason is false.",
    U("Cancel my order with the Tablet Stand, and tell me my gift card balance. samir.horvat5039@mail.test"),
    *HORVAT_LOOKUP,
    A(
        "Order #R2233239 is currently being shipped, so it can't be cancelled anymore. Your gift card balance is "
        "$45.00."
    ),
    U("ok"),
)
case(
    "tablet_stand_balance_first",
    "refuse_cancel_delivered_then_gift_card_balance",
    "right",
    "path",
    "The balance ($45.00) is given first, then the cancel is refused because the order is delivered; both goals handled in the other order.",
    U("samir.horvat5039@mail.test - gift card balance please, and I also want to cancel something"),
    *HORVAT_LOOKUP[:2],
    A("Your gift card has $45.00. Which order would you like to cancel?"),
    U("the one with the tablet stand"),
    HORVAT_LOOKUP[2],
    A(
        "That's #R2233239, and it shows as delivered. Only orders that are still pending can be cancelled, so "
        "this one can't be."
    ),
    U("fine"),
)
case(
    "tablet_stand_balance_never_given",
    "refuse_cancel_delivered_then_gift_card_balance",
    "wrong",
    "goals",
    "The cancel is rightly refused, but the gift card balance the user asked for is never told.",
    U("Two questions. Can you cancel the order with the Tablet Stand? And what's my gift card balance?"),
    A("Sure. What's your email?"),
    U("samir.horvat5039@mail.test"),
    *HORVAT_LOOKUP,
    A(
        "Order #R2233239 is delivered, so it can't be cancelled; only pending orders can. I'm glad I could help "
        "with your questions today!"
    ),
    U("Bye."),
)

# ---- tracking_yoga_mat_order: Rhea Jensen; #R4776131 tracking TRK7165046344 ----
RHEA_LOOKUP = [
    ("find_user_id_by_email", {"email": "rhea.jensen0505@mail.test"}),
    ("get_user_details", {"user_id": "rhea_jensen_0505"}),
    ("get_order_details", {"order_id": "#R4776131"}),
]
case(
    "yoga_mat_tracking_labelled",
    "tracking_yoga_mat_order",
    "right",
    "told_facts",
    "The tracking number is written as 'Tracking no. TRK7165046344' with the order's true status (delivered).",
    U("Could I get the tracking number for my order with the Yoga Mat?"),
    A("Certainly. What's the email address on your account?"),
    U("rhea.jensen0505@mail.test"),
    *RHEA_LOOKUP,
    A("Order R4776131 (Yoga Mat, Smart Watch), delivered. Tracking no. TRK7165046344."),
    U("Thank you!"),
)
case(
    "yoga_mat_tracking_digits_swapped",
    "tracking_yoga_mat_order",
    "wrong",
    "told_facts",
    "The agent gives TRK7165046434; the order's tracking number is TRK7165046344.",
    U("tracking number for the yoga mat order? rhea.jensen0505@mail.test"),
    *RHEA_LOOKUP,
    A("The tracking number for order #R4776131 is TRK7165046434."),
    U("thx"),
)
case(
    "yoga_mat_tracking_unverified_user_id",
    "tracking_yoga_mat_order",
    "wrong",
    "path",
    "The agent answers from the account using a user id the user typed, never verifying by email or name and zip as the policy requires.",
    U("Hi, my user id is rhea_jensen_0505. What's the tracking number of the order with the Yoga Mat?"),
    ("get_user_details", {"user_id": "rhea_jensen_0505"}),
    ("get_order_details", {"order_id": "#R4776131"}),
    A("The order with the Yoga Mat is #R4776131; its tracking number is TRK7165046344."),
    U("Thanks."),
)
case(
    "yoga_mat_tracking_and_delivery_question",
    "tracking_yoga_mat_order",
    "right",
    "goals",
    "The tracking number and the follow-up (was it delivered?) are both answered from the order record; nothing is claimed beyond it.",
    U("hello, I need the tracking number of the order with my yoga mat. also, did it arrive already?"),
    A("Happy to check both. Could you tell me your email address?"),
    U("rhea.jensen0505@mail.test"),
    *RHEA_LOOKUP,
    A(
        "Your order #R4776131 with the Yoga Mat (4mm, purple) and the Smart Watch has tracking number "
        "TRK7165046344, and its status is delivered."
    ),
    U("Perfect, thanks."),
)
