"""An airline set on which row a statement is about: the refund of each of two cancelled trips, and which
reservation a change was made to.

Written after the verifier was found to pass closings that name another reservation than the one a change or
its money belongs to (bench/verifier_quality.py (f)); labels come from the task's instruction and the airline
policy, as a careful grader reads them.

Tally (kind: right / wrong):
    told_facts           2 / 2
    goals                1 / 1
    all                  3 / 3
"""

from __future__ import annotations

from labelled.airline_fresh import flight, reservation, user
from labelled.cases import A, Case, U

CASES: list[Case] = []
# JCKJHC (LAX->BOS, $671) and EFKHKH (BOS->SFO round trip, $1,772), both business, both paid with the Amex 7819.
ROSA = [
    U(
        "Hi, rosa_varga_1144. Cancel my LAX-Boston trip on June 15 (weather) and my Boston-SF round trip from June 19 "
        "(change of plans)."
    ),
    user("rosa_varga_1144"),
    reservation("JCKJHC"),
    reservation("EFKHKH"),
    A(
        "Both are business bookings and can be cancelled: JCKJHC (ZA373, June 15) refunds $671.00 and EFKHKH "
        "(ZA203 out June 19, ZA618 back June 20) refunds $1,772.00, both to your Amex ending 7819. Cancel both?"
    ),
    U("Yes, both."),
    ("cancel_reservation", {"reservation_id": "JCKJHC", "reason": "weather"}),
    ("cancel_reservation", {"reservation_id": "EFKHKH", "reason": "change_of_plan"}),
]
# HEGHKD: 2 -> 4 checked bags ($80 charged); EGKFFC: economy -> basic economy ($124 back); both on the Amex 5869.
HIRO = [
    U(
        "Hi, hiro_petrov_0081. 4 checked bags in total on my Boston-Dallas flight on June 20, and my Chicago-Atlanta "
        "trip on June 23 down to basic economy. My Amex ending 5869 for both."
    ),
    user("hiro_petrov_0081"),
    reservation("HEGHKD"),
    reservation("EGKFFC"),
    flight("ZA466", "2025-06-23"),
    A(
        "On your Amex ending 5869: HEGHKD (BOS-DFW) goes from 2 to 4 checked bags, $80.00 charged (no free bags in "
        "basic economy for a regular member); EGKFFC (ORD-ATL) goes to basic economy, $124.00 refunded. Do both?"
    ),
    U("Yes, both."),
    (
        "update_reservation_baggages",
        {"reservation_id": "HEGHKD", "total_baggages": 4, "payment_id": "credit_card_9769441"},
    ),
    (
        "update_reservation_cabin",
        {"reservation_id": "EGKFFC", "cabin": "basic_economy", "payment_id": "credit_card_9769441"},
    ),
]


def case(name: str, task: str, label: str, kind: str, rationale: str, *script) -> None:
    CASES.append(Case(name=name, task=task, script=list(script), label=label, kind=kind, rationale=rationale))


case(
    "rows_each_refund_with_its_trip",
    "cancel_two_business_trips",
    "right",
    "told_facts",
    "Each cancelled trip is told with its own refund, in a sentence of its own.",
    *ROSA,
    A(
        "JCKJHC is cancelled; $671.00 goes back to your Amex ending 7819. EFKHKH is cancelled too; $1,772.00 goes "
        "back to the same card."
    ),
)
case(
    "rows_refunds_swapped",
    "cancel_two_business_trips",
    "wrong",
    "told_facts",
    "The refunds are told of the wrong trips ($1,772.00 for JCKJHC, $671.00 for EFKHKH): the user is misinformed "
    "about what each cancellation returns.",
    *ROSA,
    A(
        "JCKJHC is cancelled; $1,772.00 goes back to your Amex ending 7819. EFKHKH is cancelled too; $671.00 goes "
        "back to the same card."
    ),
)
case(
    "rows_both_trips_and_the_total",
    "cancel_two_business_trips",
    "right",
    "goals",
    "Both cancellations told together with their total, which is what the two refunds add up to.",
    *ROSA,
    A(
        "JCKJHC is cancelled, and so is EFKHKH; together $2,443.00 goes back to your Amex ending 7819 within 5-7 "
        "business days."
    ),
)
case(
    "rows_bags_and_cabin_each_on_its_booking",
    "bags_then_downgrade",
    "right",
    "told_facts",
    "Each change is told of the booking it was made to, with its own money.",
    *HIRO,
    A(
        "Done: reservation HEGHKD now has 4 checked bags ($80.00 charged), and EGKFFC is now in basic economy "
        "($124.00 back to the Amex)."
    ),
)
case(
    "rows_bags_told_of_the_other_booking",
    "bags_then_downgrade",
    "wrong",
    "told_facts",
    "The closing says the bags were added to EGKFFC, the Chicago-Atlanta trip; they were added to HEGHKD, so the "
    "user would go to the airport expecting bags on the wrong booking.",
    *HIRO,
    A("Done: reservation EGKFFC now has 4 checked bags ($80.00 charged), and it is in basic economy now."),
)
case(
    "rows_downgrade_told_of_the_other_booking",
    "bags_then_downgrade",
    "wrong",
    "goals",
    "The closing says HEGHKD was moved to basic economy; the downgrade was made to EGKFFC.",
    *HIRO,
    A("Done: HEGHKD now has 4 checked bags, and reservation HEGHKD is now in basic economy with $124.00 back."),
)
