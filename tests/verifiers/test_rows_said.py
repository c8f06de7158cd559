"""Which row a statement is about: a fact a goal asks for is told of the goal's row, a change is told of the row
it was made to, and money said to move with a row is that row's (the closing-message holes found by
bench/verifier_quality.py (f): a true statement about another order passed as the answer)."""

from __future__ import annotations

import json

from schemas.steps import TextObservation
from tests.verifiers.labelled_tasks import (
    NILS_ADDRESS,
    A,
    assert_right,
    assert_wrong,
    bags_task,
    nils_bags,
    nils_two_goals,
    two_goal_task,
)
from verifiers.claims import Seen
from verifiers.constraint_checks import Outcome, message_contains, said_of
from verifiers.grounding import changes_elsewhere, movements_elsewhere, unread_rows

USER = {"user_id": "ana_7", "orders": ["#R1000001", "#R1000002"]}
ORDER_1 = {"order_id": "#R1000001", "user_id": "ana_7", "status": "delivered", "total": 40.5}
ORDER_2 = {"order_id": "#R1000002", "user_id": "ana_7", "status": "pending", "total": 99.0}


def seen_after(*results: dict) -> Seen:
    """What the tools showed: each result a JSON row."""
    seen = Seen()
    for result in results:
        seen.add(TextObservation(content=json.dumps(result), source="tool"))
    return seen


WORDS = {
    "cancel_pending_order": ("cancel", "cancelled"),
    "return_delivered_order_items": ("return",),
    "modify_pending_order_items": ("modify", "item", "items"),
    "modify_pending_order_address": ("address", "ship", "shipping"),
}
OBJECTS = frozenset({"item", "items"})


def test_a_clause_that_names_only_another_row_says_nothing_of_the_goals_row():
    assert said_of("Order #R1000002 is cancelled.", ("#R1000001",)) == "Order "
    assert "pending" not in said_of("It is cancelled; order #R1000002 is pending.", ("#R1000001",))
    # one clause naming both, or naming no row, or naming rows of another kind: left whole
    for whole in (
        "Orders #R1000001 and #R1000002 are both cancelled.",
        "Your puzzle order is cancelled.",
        "Order #R1000001 is cancelled; TRK2220002222 is the tracking number.",
    ):
        assert said_of(whole, ("#R1000001",)) == whole


def test_a_status_told_of_another_order_does_not_meet_the_goals_constraint():
    constraint = {"id": "g0.status", "check": "message_contains", "text": "cancelled"}
    outcome = Outcome(final=None, initial=None, messages=["Order #R1000002 is cancelled."], calls=[])
    assert message_contains(constraint, outcome)  # no goal rows known: any occurrence counts, as before
    outcome.rows = {"g0.status": ("#R1000001",)}
    assert not message_contains(constraint, outcome)
    outcome.messages = ["Order #R1000001 (the Jigsaw Puzzle) is cancelled, like #R1000002."]
    assert message_contains(constraint, outcome)


def test_a_change_is_told_of_the_row_it_was_made_to():
    seen = seen_after(USER, ORDER_1, ORDER_2)
    changed = {"#R1000001": {"return_delivered_order_items"}}

    def problems(text: str) -> list:
        return changes_elsewhere(5, text, seen, changed, tuple(WORDS.items()), OBJECTS)

    assert problems("The return of 2 items from order #R1000001 is requested.") == []
    assert problems("Order #R1000001 is updated.") == []  # no change named: any write on it will do
    wrong = [{"step": 5, "kind": "unchanged_row", "value": "#R1000002"}]
    assert problems("The return of 2 items from order #R1000002 is requested.") == wrong  # no write on #R1000002
    wrong_change = [{"step": 5, "kind": "unchanged_row", "value": "#R1000001"}]
    assert problems("Order #R1000001 will now be shipped to 1 Elm Street.") == wrong_change
    assert problems("Order #R1000001 now has the new items.") == wrong_change  # "items": a change of items
    assert problems("If you like, order #R1000002 could be updated.") == []


def test_money_said_with_one_changed_row_is_what_its_write_moved():
    seen = seen_after(USER, ORDER_1, ORDER_2)
    moved = {"#R1000001": {4050}, "#R1000002": {9900}}
    assert movements_elsewhere(7, "Order #R1000001 is cancelled; $40.50 is refunded.", seen, moved) == []
    swapped = movements_elsewhere(7, "Order #R1000001 is cancelled; $99.00 is refunded.", seen, moved)
    assert swapped == [{"step": 7, "kind": "misattributed", "value": "#R1000001: 99.0"}]
    # both rows in one sentence, or the amount named with no row: not attributed
    both = "Orders #R1000001 and #R1000002 are cancelled; $99.00 and $40.50 are refunded."
    assert movements_elsewhere(7, both, seen, moved) == []
    assert movements_elsewhere(7, "$99.00 is refunded to your card.", seen, moved) == []


def test_a_denial_about_a_row_never_read_is_ungrounded():
    seen = seen_after(USER, ORDER_1)  # #R1000002: listed by the profile, never read
    terms = ("pending", "delivered", "cancelled")
    assert unread_rows(4, "Order #R1000002 was not cancelled.", terms, seen) == [
        {"step": 4, "kind": "unread_row", "value": "#R1000002"}
    ]
    assert unread_rows(4, "Order #R1000001 was not cancelled.", terms, seen) == []


def test_a_closing_that_tells_the_address_change_of_the_cancelled_order_fails():
    """Nils's profile address was changed and #R1497173 cancelled; the closing says #R1497173 ships elsewhere."""
    script = nils_two_goals()
    assert_right(two_goal_task(), script)
    address = f"{NILS_ADDRESS['address1']}, {NILS_ADDRESS['address2']}, {NILS_ADDRESS['city']}"
    told = f"Your address is now {address}, and order #R1497173 is cancelled with $231.01 refunded."
    wrong = [*script[:-1], A(f"{told} Order #R1497173 will now be shipped to {address}.")]
    assert_wrong(two_goal_task(), wrong, "ungrounded_unchanged_row")


def test_money_said_to_move_is_what_a_write_moved_not_any_sum_the_policy_names():
    """The bag fee was $80 (2 paid bags at $40); $25 is the policy's insurance price, no fee of this trajectory."""
    script = nils_bags()
    assert_right(bags_task(), script)
    told = [*script[:-1], A("Reservation GFFGGB now has 4 checked bags; the bag fee is $25.00.")]
    assert_wrong(bags_task(), told, "ungrounded_amount")
    rate = [
        *script[:-1],
        A("Reservation GFFGGB now has 4 checked bags; 2 of them cost $40 each, so the fee is $80.00."),
    ]
    assert_right(bags_task(), rate)
