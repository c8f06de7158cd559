"""Synthetic but realistic curation input for bench/curation.py: support conversations with planted duplicates.

Each record is a retail or airline customer request (about 40 templates with
their own tool-call skeletons, filled with names, order ids, products, cities,
dates and reasons), a short trajectory (the user's turn, 1-6 tool calls with
results, a closing message) and a verdict (about 70% passed). A share of the
records repeat an earlier one: an exact copy under a new id, a copy with one
word changed, or the same request in another template's words.
"""

from __future__ import annotations

import random

from schemas.record import AgentRecord, Environment, Source, Task, Tool, Verifier, VerifierResult
from schemas.steps import ApiAction, MessageAction, TextObservation

FIRST = [
    "Ana",
    "Ben",
    "Chen",
    "Dana",
    "Eli",
    "Femi",
    "Gita",
    "Hugo",
    "Ines",
    "Jon",
    "Kemal",
    "Lea",
    "Mira",
    "Noor",
    "Omar",
    "Pia",
    "Quinn",
    "Rosa",
    "Sami",
    "Tara",
    "Uma",
    "Vik",
    "Wen",
    "Yara",
    "Zoe",
]
LAST = [
    "Silva",
    "Okafor",
    "Nguyen",
    "Müller",
    "Rossi",
    "Kowalski",
    "Haddad",
    "Sato",
    "Ivanova",
    "Garcia",
    "Brown",
    "Dubois",
    "Novak",
    "Jensen",
    "Costa",
    "Ahmed",
]
PRODUCTS = [
    "mechanical keyboard",
    "wireless mouse",
    "desk lamp",
    "water bottle",
    "hiking backpack",
    "coffee grinder",
    "yoga mat",
    "bluetooth speaker",
    "office chair",
    "running shoes",
    "e-reader",
    "tea kettle",
    "smart watch",
    "air purifier",
    "camera tripod",
]
VARIANTS = [
    "black",
    "white",
    "red",
    "size M",
    "size L",
    "the clicky switches",
    "the quiet switches",
    "the 2 litre one",
    "the blue one",
]
CITIES = [
    "New York",
    "Seattle",
    "Boston",
    "Denver",
    "Chicago",
    "Austin",
    "Miami",
    "Atlanta",
    "Phoenix",
    "Portland",
    "Dallas",
    "Detroit",
]
REASONS = [
    "it arrived damaged",
    "I ordered it twice by mistake",
    "I found it cheaper elsewhere",
    "it no longer fits my needs",
    "the delivery takes too long",
    "my plans changed",
    "it is the wrong colour",
    "a friend gave me one",
]
CABINS = ["economy", "premium economy", "business", "basic economy"]
PAYMENTS = ["gift card", "credit card", "PayPal account", "original payment method"]

RETAIL = [
    ("I want to cancel order #{order} because {reason}.", "find_user get_order cancel_order"),
    ("Please cancel my pending order #{order}; {reason}.", "find_user get_order cancel_order"),
    ("Can you change the address of order #{order} to {street} in {city}?", "find_user get_order modify_address"),
    ("Ship order #{order} to {street}, {city} instead, please.", "find_user get_order modify_address"),
    (
        "My {product} from order #{order} came broken; exchange it for {variant}.",
        "find_user get_order get_product exchange_items",
    ),
    ("I'd like to swap the {product} in #{order} for {variant}.", "find_user get_order get_product exchange_items"),
    ("Return the {product} from order #{order} and refund my {payment}.", "find_user get_order return_items"),
    ("I need a refund to my {payment} for the {product} in order #{order}.", "find_user get_order return_items"),
    ("What is the status of my order #{order}? I am {name}.", "find_user get_order"),
    ("Where is my {product}? Order #{order}, name {name}.", "find_user get_order"),
    ("Update my default address to {street}, {city}.", "find_user modify_user_address"),
    ("Please change the payment method on #{order} to my {payment}.", "find_user get_order modify_payment"),
    ("How much did I pay for the {product} in order #{order}?", "find_user get_order"),
    ("List the orders on my account, I am {name} from {city}.", "find_user list_orders"),
    ("Cancel #{order} and #{order2}, {reason}.", "find_user get_order cancel_order get_order cancel_order"),
    ("Is the {product} available in {variant}?", "get_product"),
    (
        "Exchange the {product} in order #{order} for {variant} and ship it to {city}.",
        "find_user get_order exchange_items modify_address",
    ),
    ("I was charged twice for order #{order}; please check it.", "find_user get_order transfer_to_human"),
    ("Please talk to me like a human: my {product} order #{order} is a mess.", "transfer_to_human"),
    ("Return everything in order #{order}; {reason}.", "find_user get_order return_items"),
]
AIRLINE = [
    (
        "Book a {cabin} flight from {city} to {city2} on {date} for {n} passengers.",
        "get_user search_flights book_reservation",
    ),
    ("I need {n} seats in {cabin} from {city} to {city2}, leaving {date}.", "get_user search_flights book_reservation"),
    ("Cancel my reservation {code}; {reason}.", "get_user get_reservation cancel_reservation"),
    ("Please cancel booking {code} and refund it to my {payment}.", "get_user get_reservation cancel_reservation"),
    (
        "Change reservation {code} to the {date} flight from {city} to {city2}.",
        "get_user get_reservation search_flights update_flights",
    ),
    ("Move my trip {code} to {date}, same route, {cabin}.", "get_user get_reservation search_flights update_flights"),
    ("Upgrade reservation {code} to {cabin}.", "get_user get_reservation update_cabin"),
    ("Add {n} checked bags to booking {code}.", "get_user get_reservation update_baggages"),
    ("What is the status of flight {flight} on {date}?", "get_flight_status"),
    ("Is flight {flight} from {city} delayed today?", "get_flight_status"),
    ("Add travel insurance to my reservation {code}.", "get_user get_reservation update_insurance"),
    ("I am {name}; which reservations do I have?", "get_user list_reservations"),
    ("My flight {flight} was cancelled; I want compensation.", "get_user get_reservation send_certificate"),
    ("Change the passenger on {code} to {name}.", "get_user get_reservation update_passengers"),
    ("Book the cheapest {cabin} seat from {city} to {city2} next {day}.", "get_user search_flights book_reservation"),
    ("I want to speak to a supervisor about booking {code}.", "transfer_to_human"),
    (
        "Cancel {code} and book {city} to {city2} on {date} instead.",
        "get_user get_reservation cancel_reservation search_flights book_reservation",
    ),
    ("How many bags can I take on reservation {code} in {cabin}?", "get_user get_reservation"),
    ("Remove the insurance from booking {code}, {reason}.", "get_user get_reservation update_insurance"),
    ("Split reservation {code} for {n} passengers into two bookings.", "get_user get_reservation transfer_to_human"),
]
WRITES = {
    "cancel_order", "modify_address", "exchange_items", "return_items", "modify_user_address", "modify_payment",
    "book_reservation", "cancel_reservation", "update_flights", "update_cabin", "update_baggages",
    "update_insurance", "send_certificate", "update_passengers",
}  # fmt: skip
# Said around the request, as real customers do; most records carry one or two.
CONTEXT = [
    "I am travelling for a wedding next week.", "This is the third time I am writing about this.",
    "My daughter placed the order for me.", "I have been a customer for ten years.", "Sorry for my English.",
    "I am in a hurry, my battery is low.", "The app keeps crashing when I try it myself.",
    "Your chatbot could not help me yesterday.", "I need this sorted before the weekend.",
    "My account is under my work email.", "I moved house last month.", "I am writing from my phone.",
    "The tracking page shows nothing.", "My bank flagged the payment.", "I got a confusing email about it.",
    "It was a birthday present.", "I am quite upset, to be honest.", "Thanks in advance for your help.",
    "I already tried calling the hotline.", "A colleague recommended your shop.", "Please be quick.",
    "I read your policy but I am not sure it applies.", "The website showed a different price.",
    "I want to avoid any fees if possible.", "My previous agent promised a callback.",
]  # fmt: skip
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _environment(name: str, templates: list) -> Environment:
    names = sorted({tool for _, skeleton in templates for tool in skeleton.split()})
    tools = [Tool(name=n, access="write" if n in WRITES else "read") for n in names]
    return Environment(kind="tool_world", name=name, tools=tools)


ENVIRONMENTS = {"retail": _environment("retail", RETAIL), "airline": _environment("airline", AIRLINE)}


def _slots(rng: random.Random) -> dict[str, str]:
    city, city2 = rng.sample(CITIES, 2)
    return {
        "name": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
        "order": f"W{rng.randrange(10**6, 10**7)}",
        "order2": f"W{rng.randrange(10**6, 10**7)}",
        "product": rng.choice(PRODUCTS),
        "variant": rng.choice(VARIANTS),
        "reason": rng.choice(REASONS),
        "street": f"{rng.randrange(1, 9999)} {rng.choice(LAST)} Street",
        "city": city,
        "city2": city2,
        "payment": rng.choice(PAYMENTS),
        "cabin": rng.choice(CABINS),
        "date": f"May {rng.randrange(1, 31)}",
        "day": rng.choice(DAYS),
        "n": str(rng.randrange(1, 6)),
        "code": "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6)),
        "flight": f"HAT{rng.randrange(1, 400):03d}",
    }


def _trajectory(rng: random.Random, text: str, skeleton: str, slots: dict[str, str]) -> list:
    calls = skeleton.split()
    if rng.random() < 0.2:  # agents differ: an extra look-up, or a skipped one
        calls = calls[1:] if len(calls) > 1 and rng.random() < 0.5 else [calls[0], *calls]
    steps: list = [TextObservation(content=text, source="user")]
    for index, tool in enumerate(calls):
        arguments = {"order_id": slots["order"]} if "order" in tool else {"user": slots["name"]}
        if tool in WRITES:
            arguments["reason"] = slots["reason"]
        call_id = f"call_{index}"
        steps.append(ApiAction(function=tool, kwargs=arguments, tool_call_id=call_id))
        steps.append(TextObservation(content=f'{{"ok": true, "tool": "{tool}"}}', source="tool", tool_call_id=call_id))
    steps.append(MessageAction(content=f"Done: {calls[-1].replace('_', ' ')} for {slots['name']}."))
    return steps


def _record(index: int, text: str, env: str, skeleton: str, slots: dict[str, str], rng: random.Random) -> AgentRecord:
    passed = rng.random() < 0.7
    return AgentRecord(
        id=f"bench-{index:07d}",
        environment=ENVIRONMENTS[env],
        task=Task(instruction=text),
        trajectory=_trajectory(rng, text, skeleton, slots),
        verifier=Verifier(kind="reward", result=VerifierResult(passed=passed, score=float(passed))),
        source=Source(dataset=f"bench_{env}", format="synthetic"),
    )


def _one_word_changed(text: str, rng: random.Random) -> str:
    words = text.split()
    position = rng.randrange(len(words))
    words[position] = rng.choice(["really", "kindly", "now", "today", "asap"])
    return " ".join(words)


def bench_records(n: int, seed: int = 0, duplicate_share: float = 0.09):
    """``n`` records; about ``duplicate_share`` of them repeat an earlier one (a third each: exact, edited, reworded)."""
    rng = random.Random(seed)
    made: list[tuple[str, str, str, dict[str, str]]] = []  # text, env, skeleton, slots
    for index in range(n):
        draw = rng.random()
        if made and draw < duplicate_share:
            text, env, skeleton, slots = made[rng.randrange(len(made))]
            if draw < duplicate_share / 3:
                pass  # an exact copy under a new id
            elif draw < 2 * duplicate_share / 3:
                text = _one_word_changed(text, rng)
            else:  # the same request in the words of a template with the same skeleton
                templates = RETAIL if env == "retail" else AIRLINE
                twins = [t for t, s in templates if s == skeleton]
                text = rng.choice(twins).format(**slots)
        else:
            env = "retail" if rng.random() < 0.55 else "airline"
            template, skeleton = rng.choice(RETAIL if env == "retail" else AIRLINE)
            slots = _slots(rng)
            text = template.format(**slots)
            for sentence in rng.sample(CONTEXT, rng.choice([0, 1, 1, 2])):
                text = f"{sentence} {text}" if rng.random() < 0.5 else f"{text} {sentence}"
        made.append((text, env, skeleton, slots))
        yield _record(index, text, env, skeleton, slots, rng)
