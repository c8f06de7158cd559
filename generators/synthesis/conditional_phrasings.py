"""Phrasings of the conditional goals (conditions.py): the condition and both branches, never which one holds.

The same rules as phrasings.py (second-person clauses, every field in every phrasing, no "you" as an object, no
word the verifier reads as a decision); each also says its condition with "if", "otherwise", "unless" or "in
case", the words bench/task_quality.py counts.
"""

CONDITIONAL_PHRASINGS: dict[str, tuple[str, ...]] = {
    "cancel_or_return": (
        "you want {order} cancelled because you {why} if it has not shipped yet; if it has already been delivered, "
        "you want to return {items} instead, with the refund going to {payment}",
        "you'd like to get rid of {order}, which you {why}: if it is still pending, it should be cancelled, otherwise "
        "you want to send back {items} and have the refund go to {payment}",
        "you want to find out whether {order} has shipped; if not, you want it cancelled (you {why}), and if it has "
        "already arrived, you want to return {items}, refunded to {payment}",
        "you'd like to undo {order} since you {why}: a cancellation if that is still possible, or, if it was already "
        "delivered, a return of {items} with the money going back to {payment}",
        "if {order} is still pending you want it cancelled, because you {why}; otherwise you want to return {items} "
        "with the refund paid to {payment}",
        "you need {order} dealt with because you {why}: cancelled if it has not left yet, or, if it has already "
        "arrived, {items} returned and refunded to {payment}",
        "you are hoping {order} can still be cancelled, as you {why}; if it was delivered, you would settle for "
        "returning {items}, refunded to {payment}",
        "you want {order} cancelled if it has not shipped (you {why}), or, once it is delivered, {items} returned "
        "with the money going to {payment}",
    ),
    "address_or_tracking": (
        "you want {order} shipped to {address} if it has not shipped yet; if it is already on its way, you just want "
        "its tracking number",
        "you'd like {order} redirected to {address}, but only if it has not left the warehouse; otherwise you want "
        "its tracking number so you can follow it",
        "you want to check whether {order} is still pending: if so, its delivery address should become {address}; "
        "if not, you want the tracking number",
        "you want {order} sent to your new home at {address} if it can still be changed; otherwise you need the "
        "tracking number",
        "if {order} has not been shipped, you want its address changed to {address}, and if it has, you'd like its "
        "tracking number instead",
        "you need {order} to go to {address} as long as it is still pending; if it has shipped, the tracking "
        "number is all you want",
        "you are hoping {order} can still be sent to {address}; if it is too late for that, you want its tracking "
        "number",
        "you want {order} delivered to {address} if it has not left yet, and otherwise its tracking number",
    ),
    "gift_card_if_covers": (
        "you want to pay for {order} with {gift} if its balance covers the whole order; otherwise you want it "
        "switched to {fallback}",
        "you'd like the payment of {order} moved to {gift}, as long as there is enough on it; if there is not, "
        "{fallback} should be used instead",
        "you want to use up {gift} on {order} if it holds enough for the full amount, and if it does not, you want "
        "to pay with {fallback}",
        "you want to change how {order} is paid: {gift} if the balance is high enough, else {fallback}",
        "if {gift} can cover all of {order}, you want it to pay for the order; if not, you'd like {fallback} to pay "
        "instead",
        "you need {order} paid with {gift} when its balance is enough, and otherwise with {fallback}",
        "you are hoping {gift} has enough on it to pay for {order}; in case it falls short, you want {fallback} to "
        "pay instead",
        "you'd like {order} charged to {gift} rather than the original method, unless the balance is too low, in "
        "which case {fallback} should pay",
    ),
    "bag_if_free": (
        "you want one more checked bag on {res} if it comes at no charge; if it would cost anything, the bags "
        "should stay as they are",
        "you'd like to take one extra checked bag on {res}, but only if your allowance covers it; otherwise you will "
        "travel with the bags you have",
        "you want to check whether another checked bag on {res} is free under your membership: if it is, you want "
        "it added, and if not, no change",
        "you want one more bag on {res} as long as there is no fee for it; if there is a fee, you will do without",
        "if an extra checked bag on {res} costs nothing, you want it added; if it costs anything, you want the bags "
        "left alone",
        "you need one more checked bag on {res} if it comes free; you are not willing to pay a bag fee",
        "you are hoping your allowance covers one more checked bag on {res}; unless it is free, you want no change",
        "you'd like an additional checked bag on {res} in case it is included for free, and otherwise nothing",
    ),
    "compensation_if_cancelled": (
        "you want to find out whether any flight of {res} was cancelled; if one was, you want the compensation you "
        "are due, and if not, the status of its first flight",
        "you want compensation if the airline cancelled a flight of {res}; otherwise you just want to learn how its "
        "first flight is doing",
        "you want {res} checked after hearing about cancellations, with compensation if one of its flights was "
        "cancelled, or else the status of the first flight",
        "you'd like to know what happened to {res}: compensation if a flight of it was cancelled, otherwise the "
        "status of its first flight",
        "if a flight of {res} was cancelled by the airline, you expect the compensation you are owed; if not, you "
        "want the status of its first flight",
        "you need to know whether {res} was hit by a cancellation; in case it was, you want compensation, and "
        "otherwise its first flight's status",
        "you are hoping for compensation if any flight of {res} was cancelled; if none was, you would like the "
        "status of its first flight",
        "you want compensation in case a flight of {res} was cancelled, and the status of its first flight otherwise",
    ),
}
