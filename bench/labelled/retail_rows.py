"""A retail set on which row a statement is about: statuses, changes and money told of one order when the
conversation holds several.

Written after the verifier was found to pass closings that name another order than the one a fact or a change
is about (bench/verifier_quality.py (f)); labels come from the task's instruction and the retail policy, as a
careful grader reads them: a true statement about another order than the one the user asked about does not
answer the user, and a change told as another change misleads them.

Tally (kind: right / wrong):
    told_facts           2 / 2
    goals                1 / 1
    all                  3 / 3
"""

from __future__ import annotations

from labelled.cases import A, Case, U
from labelled.retail import CHIARA_BACKPACK, CHIARA_LOOKUP, EXCHANGE_CHIARA

CASES: list[Case] = []
TASK = "exchange_water_bottle_then_refuse_return"  # exchange in #R4650454; #R5980984 (Backpack) is pending
OPENING = [
    U(
        "Hi, two things: swap the Water Bottle in my Garden Hose order for the 750ml steel one, and return my "
        "Backpack order. My email is chiara.garcia6602@example.com."
    ),
    *CHIARA_LOOKUP,
    A(
        "Order #R4650454: your 750ml glass Water Bottle ($14.42) can be exchanged for the 750ml steel one "
        "($44.97), $30.55 more, on your Discover card ending 7921. Shall I request that exchange?"
    ),
    U("Yes, go ahead."),
    ("exchange_delivered_order_items", EXCHANGE_CHIARA),
    *CHIARA_BACKPACK,
]


def case(name: str, label: str, kind: str, rationale: str, *script) -> None:
    CASES.append(Case(name=name, task=TASK, script=[*OPENING, *script], label=label, kind=kind, rationale=rationale))


case(
    "rows_two_statuses_one_clause_each",
    "right",
    "told_facts",
    "The Backpack order's status is told in its own clause; the other order's status beside it is true and "
    "labelled as the other order.",
    A(
        "The exchange for order #R4650454 is requested; $30.55 goes on your Discover card. Your Backpack order "
        "#R5980984 is still pending, unlike #R8486429, which is processed; only delivered orders can be returned, "
        "so I can't return it."
    ),
    U("OK, thanks."),
)
case(
    "rows_status_of_the_other_order",
    "wrong",
    "told_facts",
    "The user asked to return the Backpack order (#R5980984, pending); the agent gives #R8486429's status as the "
    "reason, so the user never learns why their Backpack order cannot be returned.",
    A(
        "The exchange for order #R4650454 is requested; $30.55 goes on your Discover card. Order #R8486429 is "
        "processed, and only delivered orders can be returned, so I can't do the return."
    ),
    U("OK, thanks."),
)
case(
    "rows_exchange_told_in_other_words",
    "right",
    "goals",
    "The exchange is told as what it is, with its items and money; the return is refused with the true status.",
    A(
        "All set on the bottle: the 750ml steel Water Bottle replaces the glass one in order #R4650454 (exchange "
        "requested), and the $30.55 difference is charged to your Discover card. Order #R5980984 hasn't been "
        "delivered yet; it is pending, and returns are only for delivered orders."
    ),
    U("Got it."),
)
case(
    "rows_exchange_told_as_return",
    "wrong",
    "goals",
    "An exchange was written, but the closing tells the user a return of the order is requested: they would "
    "expect a refund and no new bottle.",
    A(
        "The return of the Water Bottle from order #R4650454 is requested. Order #R5980984 is pending; only "
        "delivered orders can be returned."
    ),
    U("Got it."),
)
case(
    "rows_money_with_its_order",
    "right",
    "told_facts",
    "One sentence per order: the exchange's $30.55 is said with the order it belongs to.",
    A(
        "Done: order #R4650454 now has the exchange requested, and you pay $30.55 more on the Discover card. "
        "Order #R5980984 is pending, so it can't be returned yet."
    ),
    U("Thanks."),
)
case(
    "rows_change_said_of_the_other_order",
    "wrong",
    "told_facts",
    "The closing says the Backpack order was exchanged and charged; the exchange was made in #R4650454 and the "
    "Backpack order is unchanged.",
    A(
        "Order #R5980984 is pending, so it can't be returned. The exchange for order #R5980984 is requested; you "
        "pay $30.55 more on the Discover card."
    ),
    U("Thanks."),
)
