"""Many ways to say one request: second-person phrasings per goal kind, one drawn with the goal's rng.

A phrasing is a clause in the second person ("you would like ...") with named
fields. The spec fills its own fields (items, payment, address, ...) verbatim;
``{order}`` and ``{res}`` are left for ``order_goal`` / ``reservation_goal``,
which know the description. No phrasing starts with a field, so putting a
request at the start of a sentence (scenarios.py) capitalizes template text,
never a value the user and the verifier match. Phrasings stay clear of "you"
as an object ("tell you"), which the scripted user cannot turn into "me", and of
words the verifier reads as a decision in a user's turn (verifiers/decisions.py:
"changed my mind", "confirm", a clause ending "cancel it"): the scripted user
opens with the reason, before anything was proposed.

Kinds that make the same request (a payment change the policy allows or
refuses) share their phrasings.
"""

from __future__ import annotations

import random

from generators.synthesis.conditional_phrasings import CONDITIONAL_PHRASINGS

# Left in place for order_goal / reservation_goal to fill.
LATE_FIELDS = ("order", "res")

_PAY_WITH = (
    "you want to pay for {order} with {payment} instead",
    "you would like to switch the payment of {order} to {payment}",
    "you'd rather have {order} charged to {payment} than to the method you used",
    "you want {payment} to pay for {order} instead of the original method",
    "having second thoughts about how you paid for {order}, you want to use {payment} instead",
    "you need the payment for {order} moved over to {payment}",
    "you are hoping to change how {order} is paid, so that {payment} covers it instead",
    "instead of the current payment method, you'd like {payment} to be used for {order}",
)
_RETURN = (
    "you want to return {items} from {order}, with the refund going to {payment}",
    "you'd like to get {items} from {order} refunded to {payment}",
    "you are not happy with {items} from {order}, so you want a return, with the money going to {payment}",
    "you have decided to return {items} from {order}; the refund should go to {payment}",
    "returning {items} from {order} is what you want, with the money refunded to {payment}",
    "you'd like to send {items} from {order} back, and you want the refund paid to {payment}",
    "you want a return arranged for {items} from {order}, refunded to {payment}",
    "you need to make a return of {items} from {order}, refunded to {payment}",
)
_CANCEL_RESERVATION = (
    "you want to cancel {res}; the reason is {why}",
    "you'd like {res} cancelled, and the reason you give is {why}",
    "you need to cancel {res}. Your reason: {why}",
    "you have to call off {res}; when asked why, the reason is {why}",
    "the trip is off: you want to cancel {res}, the reason being {why}",
    "you are hoping to get {res} cancelled; the reason is simple: {why}",
    "you want {res} to be cancelled (reason: {why})",
    "cancelling {res} is what you need, and the reason is {why}",
)

_PLAIN: dict[str, tuple[str, ...]] = {
    # ---- retail reads ----
    "order_status": (
        "you want to find out the status of {order}",
        "you'd like an update on where {order} stands",
        "you are wondering what the status of {order} is",
        "you haven't heard anything about {order} for a while and want to know its status",
        "you want to check on {order} and learn its current status",
        "you're curious whether {order} has moved along, so you want its status",
        "you need to know the status of {order}",
        "what you want is the latest status of {order}",
    ),
    "order_total": (
        "you want to find out how much you paid for {order}",
        "you'd like to know the amount you were charged for {order}",
        "you can't remember what {order} cost and want to find out",
        "you are checking your spending and need the amount paid for {order}",
        "you want to know what you ended up paying for {order}",
        "you'd like someone to look up how much {order} cost",
        "the amount charged for {order} is what you want to learn",
        "you need the total you paid for {order}",
    ),
    "tracking_number": (
        "you want to get the tracking number of {order}",
        "you'd like the tracking number for {order} so you can follow the package",
        "you want to track {order} and need its tracking number",
        "you are waiting on {order} and would like its tracking number",
        "you need the tracking number of {order}",
        "to follow the shipment of {order}, you want its tracking number",
        "you'd like to know the tracking number that goes with {order}",
        "you lost the shipping email for {order} and want the tracking number again",
    ),
    "gift_card_balance": (
        "you want to find out the balance of {payment}",
        "you'd like to know how much is left on {payment}",
        "you are not sure how much money remains on {payment} and want to check",
        "you want to check the balance of {payment} before your next purchase",
        "you need to know what {payment} still holds",
        "you'd like someone to look up the remaining balance on {payment}",
        "the current balance of {payment} is what you want to know",
        "before shopping again, you want the balance of {payment}",
    ),
    # ---- retail writes ----
    "cancel_pending_order": (
        "you want to cancel {order}, because you {why}",
        "you {why}, so you would like {order} cancelled",
        "since you {why}, you want to cancel {order}",
        "you'd like to call off {order}: you {why}",
        "you have to cancel {order}; you {why}",
        "you are hoping to cancel {order}, as you {why}",
        "there is no point keeping {order}, since you {why}, so you want it cancelled",
        "you need {order} cancelled because you {why}",
    ),
    "return_delivered_order_items": _RETURN,
    "exchange_delivered_order_items": (
        "you want to exchange {swaps} from {order}, settling any price difference with {payment}",
        "you'd like to swap {swaps} from {order}; any price difference goes on {payment}",
        "you received {order} but want to exchange {swaps}, using {payment} for any difference in price",
        "you are after an exchange of {swaps} from {order}, with {payment} covering any price difference",
        "you need to trade {swaps} from {order}, and any difference in price should be settled with {payment}",
        "exchanging {swaps} from {order} is what you want, with {payment} covering any price difference",
        "you would rather have a different variant, so you want to exchange {swaps} from {order}, with any "
        "difference paid or refunded through {payment}",
        "you want {swaps} from {order} exchanged, settling the price difference, if any, with {payment}",
    ),
    "modify_pending_order_items": (
        "you want to change {swaps} in {order}, settling any price difference with {payment}",
        "before {order} ships, you'd like to change {swaps}, with {payment} covering any price difference",
        "you'd like to modify {order} by changing {swaps}, settling any difference in price with {payment}",
        "you had second thoughts about some items in {order} and want to change {swaps}, using {payment} for "
        "any price difference",
        "you need {swaps} changed in {order}; any price difference goes on {payment}",
        "you are hoping to switch {swaps} in {order} while it is still pending, settling any difference with {payment}",
        "changing {swaps} in {order} is what you want, with any price difference settled with {payment}",
        "you want {order} updated by changing {swaps}, with {payment} used for any difference in price",
    ),
    "modify_pending_order_address": (
        "you want {order} shipped to {address} (only this order, not your profile)",
        "you'd like {order} to go to {address} instead; only this order should change, not the address in your profile",
        "the delivery address of {order} needs to become {address}, but only for this order: your profile "
        "stays as it is",
        "you need {order} delivered to {address}, and only this order; your profile address must not change",
        "you want to redirect {order} to {address} without changing the default address in your profile",
        "you realised {order} is going to the wrong place and want it sent to {address} instead (just this "
        "order; your profile should not change)",
        "you would like to change where {order} ships to: {address}. This is only for this order, not your profile",
        "for {order} only, you want the shipping address changed to {address}; your profile address is not "
        "to be touched",
    ),
    "modify_pending_order_payment": _PAY_WITH,
    "modify_user_address": (
        "you want to change the default address in your profile to {address}",
        "you have moved and would like your profile address updated to {address}",
        "you'd like the address saved in your profile to become {address}",
        "you need your default address changed to {address}",
        "your address on file is out of date, and you want it replaced with {address}",
        "you want {address} to be the default address in your profile from now on",
        "updating the address in your profile to {address} is what you are after",
        "since you moved, you want to set your default address to {address}",
    ),
    # ---- retail refusals ----
    "refuse_cancel_not_pending": (
        "you want to cancel {order}",
        "you've had second thoughts about {order} and want it cancelled",
        "you'd like {order} cancelled",
        "you are hoping to call off {order}",
        "you no longer want {order}, so you would like it cancelled",
        "cancelling {order} is what you are after",
        "you want {order} to be cancelled before it goes any further",
        "you're looking to cancel {order}",
    ),
    "refuse_return_not_delivered": (
        "you want to return everything in {order}",
        "you'd like to send back all of {order}",
        "you have decided to return {order} in full",
        "you no longer want anything in {order} and want to return it all",
        "you need to return every item of {order}",
        "returning the whole of {order} is what you want",
        "you are hoping to return all the items in {order}",
        "you'd like a full return of {order}",
    ),
    "refuse_swap_other_product": (
        "you want to swap {swap} in {order}",
        "you'd like to exchange {swap} in {order}",
        "in {order}, you want to trade {swap}",
        "you are hoping to switch {swap} in {order}",
        "you need to replace {swap} in {order}",
        "on reflection, you want to swap {swap} in {order}",
        "swapping {swap} in {order} is what you want",
        "you'd rather have something else: you want to exchange {swap} in {order}",
    ),
    "refuse_return_refund_elsewhere": _RETURN,
    "refuse_payment_not_covered": _PAY_WITH,
    # ---- airline reads ----
    "membership_level": (
        "you want to find out your membership level",
        "you'd like to know which membership level you have",
        "you are not sure of your membership level and want to check",
        "you need to know your current membership level",
        "you want to check what membership tier your profile has",
        "you'd like someone to look up your membership level",
        "your membership level is what you want to find out",
        "before booking again, you want to know your membership level",
    ),
    "flight_status": (
        "you want to find out the status of flight {number} on {date}",
        "you'd like to know whether flight {number} on {date} is on schedule",
        "you are flying on flight {number} on {date} and want its status",
        "you need the current status of flight {number} on {date}",
        "you want to check on flight {number} on {date}",
        "you'd like an update on flight {number} on {date}",
        "the status of flight {number} on {date} is what you want to know",
        "someone you know is on flight {number} on {date}, and you want to know its status",
    ),
    "reservation_paid": (
        "you want to find out how much you paid for {res}",
        "you'd like to know the amount you were charged for {res}",
        "you can't remember what {res} cost and want to find out",
        "you are doing your expenses and need the amount paid for {res}",
        "you want to know what you paid in total for {res}",
        "you'd like someone to look up how much {res} cost",
        "the amount charged for {res} is what you want to learn",
        "you need the total you paid for {res}",
    ),
    "stored_value": (
        "you want to find out how much is left on {payment}",
        "you'd like to know the balance of {payment}",
        "you are not sure what {payment} is worth now and want to check",
        "you need to know how much {payment} still holds",
        "you want to check the value left on {payment} before booking",
        "you'd like someone to look up what remains on {payment}",
        "the amount left on {payment} is what you want to know",
        "before your next trip, you want to know what {payment} holds",
    ),
    # ---- airline writes ----
    "cancel_reservation": _CANCEL_RESERVATION,
    "update_reservation_baggages": (
        "you want to have {total} checked {bags} in total on {res}, paying any fee with {payment}",
        "you'd like {res} to include {total} checked {bags} in total; any fee goes on {payment}",
        "you are packing more than planned and want {total} checked {bags} in total on {res}, with {payment} "
        "paying any fee",
        "you need {res} to have {total} checked {bags} altogether, and any bag fee should be paid with {payment}",
        "you want {res} to carry {total} checked {bags} in total, paying any fee with {payment}",
        "bringing {total} checked {bags} in total on {res} is what you want, with any fee charged to {payment}",
        "you'd like to add bags so that {res} has {total} checked {bags} in total, any fee paid with {payment}",
        "for {res}, you want {total} checked {bags} in total, any fee paid with {payment}",
    ),
    "update_reservation_cabin": (
        "you want to move {res} to {cabin}, settling the fare difference with {payment}",
        "you'd like {res} changed to {cabin}, with {payment} covering the fare difference",
        "you want to fly {cabin} on {res} and settle the difference in fare with {payment}",
        "you need the cabin of {res} changed to {cabin}; the fare difference goes on {payment}",
        "you are hoping to switch {res} to {cabin}, using {payment} for the fare difference",
        "changing {res} to {cabin} is what you want, with the fare difference settled with {payment}",
        "you'd rather travel in {cabin} on {res}, using {payment} for the fare difference",
        "for {res}, you want the cabin to be {cabin}, settling the fare difference with {payment}",
    ),
    "update_reservation_passengers": (
        "you want to correct the passenger details on {res}: {passengers}",
        "a passenger on {res} has wrong details, and you want them corrected to {passengers}",
        "you'd like the passenger information on {res} fixed; it should read {passengers}",
        "you need to update the passenger details on {res} to {passengers}",
        "you noticed a mistake in the passengers of {res} and want it corrected: {passengers}",
        "the passenger details on {res} are wrong, so you want them changed to {passengers}",
        "you are hoping to fix the passenger details on {res}, which should be {passengers}",
        "correcting the passengers on {res} is what you want; the right details are {passengers}",
    ),
    "send_certificate": (
        "you want to ask for compensation for the cancelled flight of {res}",
        "you'd like compensation because the airline cancelled a flight of {res}",
        "a flight of {res} was cancelled, and you want to be compensated for it",
        "you are asking for compensation for the cancelled flight of {res}",
        "you feel you are owed compensation for the cancelled flight of {res}",
        "you need compensation for the flight of {res} that the airline cancelled",
        "since a flight of {res} was cancelled, you want compensation",
        "compensation for the cancelled flight of {res} is what you are after",
    ),
    # A certificate asked for without a reservation (backward construction of an explored call).
    "send_certificate_without_reservation": (
        "you want to ask for compensation",
        "you'd like to be compensated",
        "you are asking for compensation",
        "you feel you are owed compensation",
        "you need compensation from the airline",
        "compensation is what you are after",
        "you'd like the airline to give you compensation",
        "you want some compensation from the airline",
    ),
    # ---- airline refusals ----
    "refuse_cancel_not_allowed": _CANCEL_RESERVATION,
    "refuse_basic_economy_change": (
        "you want to move {res} to a flight one day later",
        "you'd like to push {res} back by one day",
        "you need to fly one day later than planned on {res}",
        "you are hoping to change {res} to a flight the day after",
        "your plans shifted, and you want {res} moved one day later",
        "you'd like the flights of {res} changed to ones a day later",
        "moving {res} to a flight one day later is what you want",
        "for {res}, you want to travel one day later instead",
    ),
    "refuse_remove_bags": (
        "you want to go from {now} to {wanted} checked bags on {res}",
        "you'd like to reduce the checked bags on {res} from {now} to {wanted}",
        "you packed lighter than planned and want {wanted} checked bags on {res} instead of {now}",
        "you need to remove one bag from {res}, going from {now} to {wanted} checked bags",
        "you are hoping to drop from {now} to {wanted} checked bags on {res}",
        "you want {res} to have {wanted} checked bags rather than {now}",
        "cutting the checked bags on {res} from {now} to {wanted} is what you want",
        "for {res}, you want {wanted} checked bags, not {now}",
    ),
    "refuse_compensation": (
        "you want to ask for compensation for {trouble} on {res}",
        "you'd like compensation for {trouble} on {res}",
        "you feel you deserve compensation for {trouble} on {res}",
        "you are asking to be compensated for {trouble} on {res}",
        "you need some compensation for {trouble} on {res}",
        "you were let down by {trouble} on {res} and want compensation",
        "compensation for {trouble} on {res} is what you are after",
        "after {trouble} on {res}, you want to be compensated",
    ),
    "refuse_add_passenger": (
        "you want to add your partner as one more passenger on {res}",
        "you'd like your partner to join {res} as an extra passenger",
        "your partner is coming along, so you want to add them as a passenger on {res}",
        "you need one more passenger, your partner, added to {res}",
        "you are hoping to add your partner to {res}",
        "adding your partner as a passenger on {res} is what you want",
        "you want {res} to include your partner as one more passenger",
        "for {res}, you'd like to add your partner as another passenger",
    ),
}
PHRASINGS = {**_PLAIN, **CONDITIONAL_PHRASINGS}


class _LateFields(dict):
    """The spec's fields; ``{order}`` and ``{res}`` stay as they are (any other missing field is an error)."""

    def __missing__(self, key: str) -> str:
        if key in LATE_FIELDS:
            return "{" + key + "}"
        raise KeyError(f"phrasing field {key!r} not given")


def phrase(kind: str, rng: random.Random, **fields: str) -> str:
    """One of ``kind``'s phrasings, drawn from ``rng``'s stream, its fields filled verbatim with ``fields``.

    The draw is a peek: ``rng``'s next 64 bits are read and its state put back, so it does not advance and a seed
    samples the same users, rows, goals and tasks (ids) whatever the wording (a peek, not ``copy.copy``: copying a
    Random seeds a new one from the OS first, which cost more than the rest of the phrasing). The bits go through
    a hash first: raw, they would be the very bits the next draw of ``rng`` reads (whether a task gets a second
    goal, say), and the wording would track it."""
    state = rng.getstate()
    bits = rng.getrandbits(64)
    rng.setstate(state)
    pick = random.Random(f"{kind}:{bits}")
    return pick.choice(PHRASINGS[kind]).format_map(_LateFields(fields))
