"""Fuzzy descriptions on a literal retail database: the vaguest unique description wins, ambiguity is a reason code."""

from __future__ import annotations

import random

import pytest

from environments.retail.env import RetailWorld
from generators.synthesis.fuzzify import (
    describe_item,
    describe_order,
    describe_payment,
    describe_user,
    describe_variant,
    resolve,
)
from generators.synthesis.goals import Rejected, World

LAMP_BLACK = {
    "item_id": "L1",
    "product_id": "P_LAMP",
    "name": "Desk Lamp",
    "options": {"color": "black"},
    "price": 30.0,
}
LAMP_WHITE = {
    "item_id": "L2",
    "product_id": "P_LAMP",
    "name": "Desk Lamp",
    "options": {"color": "white"},
    "price": 32.0,
}
MAT = {"item_id": "M1", "product_id": "P_MAT", "name": "Yoga Mat", "options": {"color": "teal"}, "price": 20.0}
ADDRESS = {
    "address1": "1 Elm Avenue",
    "address2": "",
    "city": "Austin",
    "state": "TX",
    "country": "USA",
    "zip": "78701",
}


def order(oid: str, items: list[dict], status: str = "delivered") -> dict:
    history = [{"kind": "payment", "payment_method_id": "gift_card_1", "amount": sum(i["price"] for i in items)}]
    return {
        "order_id": oid,
        "user_id": "ada",
        "address": ADDRESS,
        "items": items,
        "status": status,
        "fulfillments": [],
        "payment_history": history,
    }


def user(uid: str, first: str, email: str, zip_code: str, orders: list[str]) -> dict:
    methods = {
        "gift_card_1": {"id": "gift_card_1", "source": "gift_card", "balance": 50.0},
        "credit_card_1": {"id": "credit_card_1", "source": "credit_card", "brand": "visa", "last_four": "4242"},
        "credit_card_2": {"id": "credit_card_2", "source": "credit_card", "brand": "amex", "last_four": "0005"},
    }
    return {
        "user_id": uid,
        "name": {"first_name": first, "last_name": "Berg"},
        "email": email,
        "address": {**ADDRESS, "zip": zip_code},
        "payment_methods": methods,
        "orders": orders,
    }


@pytest.fixture
def world() -> World:
    variants = {
        v["item_id"]: {"item_id": v["item_id"], "options": v["options"], "available": True, "price": v["price"]}
        for v in (LAMP_BLACK, LAMP_WHITE)
    }
    state = {
        "products": {"P_LAMP": {"product_id": "P_LAMP", "name": "Desk Lamp", "variants": variants}},
        "users": {
            "ada": user("ada", "Ada", "ada@example.com", "78701", ["#R1", "#R2", "#R3", "#R4"]),
            # the same name and zip as ada: name + zip cannot tell them apart
            "ada2": user("ada2", "Ada", "ada.two@example.com", "78701", []),
        },
        "orders": {
            "#R1": order("#R1", [LAMP_BLACK, MAT]),
            "#R2": order("#R2", [LAMP_WHITE]),
            "#R3": order("#R3", [MAT], status="pending"),
            "#R4": order("#R4", [MAT], status="pending"),  # identical to #R3: no description can single it out
        },
    }
    return World(RetailWorld(state=state))


def test_an_order_gets_the_vaguest_unique_description(world):
    ref = describe_order(world, "#R2", random.Random(0))
    assert ref.text == "the order with the Desk Lamp (color white)"  # "Desk Lamp" alone also matches #R1
    assert resolve(world, ref.query) == ["#R2"]
    ref = describe_order(world, "#R1", random.Random(0))
    assert resolve(world, ref.query) == ["#R1"] and ref.key == "#R1"


def test_identical_orders_are_dropped_with_a_reason_code(world):
    with pytest.raises(Rejected) as caught:
        describe_order(world, "#R3", random.Random(0))
    assert caught.value.code == "ambiguous_order"


def test_a_user_shared_name_and_zip_falls_back_to_the_email(world):
    for seed in range(6):  # whichever description is tried first, the unique one comes back
        ref = describe_user(world, "ada", random.Random(seed))[0]
        assert ref.query == {"by": "email", "email": "ada@example.com"}
    assert sorted(resolve(world, {"by": "name_zip", "first_name": "ada", "last_name": "BERG", "zip": "78701"})) == [
        "ada",
        "ada2",
    ]


def test_items_variants_and_payments(world):
    assert describe_item(world, "#R1", "L1").text == "Desk Lamp"
    assert describe_variant(world, "P_LAMP", "L2").text == "Desk Lamp with color white"
    assert describe_payment(world, "ada", "gift_card_1").text == "my gift card"  # the only one
    ref = describe_payment(world, "ada", "credit_card_2")  # two cards: brand and last digits
    assert (ref.text, resolve(world, ref.query)) == ("my amex card ending in 0005", ["credit_card_2"])
