"""Hand-labelled retail trajectories: each labelled by reading its task's instruction and policy.md.

Tally (kind: right / wrong):
TALLY
"""

from __future__ import annotations

from labelled.cases import A, U, Case

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
    U("Fine, I'll think about it. I also need my default address changed to 4902 Granite Drive, Columbus, OH 43299, USA."),
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
    ("return_delivered_order_items", {**RETURN_FARID, "item_ids": ["0478724998", "9866841414", "0631585858", "6184554803"]}),
    ("return_delivered_order_items", RETURN_FARID),
    A(
        "Your return is requested for all four items. Once they arrive, $416.29 will be credited to your gift "
        "card."
    ),
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
