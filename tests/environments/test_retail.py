"""Retail tool world: every tool's success and error paths, identity rules, generator, DB files."""

from __future__ import annotations

import pytest

from environments.db_files import load_db, save_db
from environments.retail.env import RetailWorld
from environments.retail.generator import generate_retail_db
from tests.environments.tool_calls import refused, succeed


@pytest.fixture
def env() -> RetailWorld:
    return RetailWorld(users=500, seed=0)


def _orders(env, status, paid_by=None):
    """(order, user) pairs of the seed-0 DB with the given status (and payment source)."""
    state = env.snapshot().tables
    for order in state["orders"].values():
        user = state["users"][order["user_id"]]
        source = user["payment_methods"][order["payment_history"][0]["payment_method_id"]]["source"]
        if order["status"] == status and paid_by in (None, source):
            yield order, user


def _login(env, user):
    assert env.call("find_user_id_by_email", {"email": user["email"]}).content == user["user_id"]


def _swap_target(env, item, available=True):
    """Another variant of the item's product with the given availability."""
    variants = env.snapshot().tables["products"][item["product_id"]]["variants"]
    return next(v for v in variants.values() if v["item_id"] != item["item_id"] and v["available"] is available)


# ---- lookups and reads -----------------------------------------------------------------
def test_lookups_find_the_user_and_verify_only_the_first(env):
    order, user = next(_orders(env, "pending"))
    name = user["name"]
    assert succeed(env, "find_user_id_by_email", email=user["email"].upper()) == user["user_id"]
    assert (
        succeed(
            env,
            "find_user_id_by_name_zip",
            first_name=name["first_name"],
            last_name=name["last_name"],
            zip=user["address"]["zip"],
        )
        == user["user_id"]
    )
    other = next(u for u in env.snapshot().tables["users"].values() if u["user_id"] != user["user_id"])
    assert succeed(env, "find_user_id_by_email", email=other["email"]) == other["user_id"]
    assert env.session["verified_user_id"] == user["user_id"]
    assert refused(env, "find_user_id_by_email", email="nobody@nowhere.test") == "no user with this email"
    assert (
        refused(env, "find_user_id_by_name_zip", first_name="No", last_name="Body", zip="00000")
        == "no user with this name and zip"
    )


def test_reads_return_rows_and_copies(env):
    order, user = next(_orders(env, "delivered"))
    details = succeed(env, "get_user_details", user_id=user["user_id"])
    assert details["email"] == user["email"] and order["order_id"] in details["orders"]
    details["email"] = "changed@example.com"  # editing a result must not reach the database
    assert succeed(env, "get_user_details", user_id=user["user_id"])["email"] == user["email"]
    assert succeed(env, "get_order_details", order_id=order["order_id"])["items"] == order["items"]
    product_id = order["items"][0]["product_id"]
    assert succeed(env, "get_product_details", product_id=product_id)["name"] == order["items"][0]["name"]
    types = succeed(env, "list_product_types")
    assert len(types) == 30 and types[order["items"][0]["name"]] == product_id
    assert refused(env, "get_user_details", user_id="ghost_0000") == "user 'ghost_0000' not found"
    assert refused(env, "get_order_details", order_id="#R0") == "order '#R0' not found"
    assert refused(env, "get_product_details", product_id="1") == "product '1' not found"
    assert (
        refused(env, "get_order_details", order_id=12)
        == "invalid arguments for get_order_details: argument 'order_id' must be of type string"
    )


# ---- cancel ----------------------------------------------------------------------------
def test_cancel_refunds_a_gift_card_at_once(env):
    order, user = next(_orders(env, "pending", paid_by="gift_card"))
    card_id = order["payment_history"][0]["payment_method_id"]
    balance = user["payment_methods"][card_id]["balance"]
    _login(env, user)
    result = succeed(env, "cancel_pending_order", order_id=order["order_id"], reason="no longer needed")
    assert result["status"] == "cancelled" and result["cancel_reason"] == "no longer needed"
    assert result["payment_history"][-1] == {
        "kind": "refund",
        "payment_method_id": card_id,
        "amount": order["payment_history"][0]["amount"],
    }
    card = env.state()["users"][user["user_id"]]["payment_methods"][card_id]
    assert card["balance"] == round(balance + order["payment_history"][0]["amount"], 2)
    assert env.action_log[-1]["writes"] == [["orders", order["order_id"]], ["users", user["user_id"]]]


def test_cancel_refuses_wrong_status_reason_identity_and_other_users(env):
    delivered, user = next(_orders(env, "delivered"))
    pending, owner = next(o for o in _orders(env, "pending") if o[1]["user_id"] != user["user_id"])
    assert (
        refused(env, "cancel_pending_order", order_id=pending["order_id"], reason="ordered by mistake")
        == "user identity not verified: look the user up by email or by name and zip first"
    )
    _login(env, user)
    assert (
        refused(env, "cancel_pending_order", order_id=delivered["order_id"], reason="ordered by mistake")
        == f"order '{delivered['order_id']}' is 'delivered'; only pending orders can be cancelled"
    )
    assert (
        refused(env, "cancel_pending_order", order_id=pending["order_id"], reason="ordered by mistake")
        == f"order '{pending['order_id']}' belongs to another user than the verified one"
    )
    assert refused(env, "cancel_pending_order", order_id=delivered["order_id"], reason="too expensive").startswith(
        "invalid arguments for cancel_pending_order: argument 'reason' must be one of"
    )
    assert refused(env, "cancel_pending_order", order_id="#R0", reason="ordered by mistake") == "order '#R0' not found"


# ---- modify pending orders ---------------------------------------------------------------
def test_modify_items_swaps_variants_settles_the_difference_and_freezes_the_order(env):
    order, user = next(o for o in _orders(env, "pending") if "paypal" in str(o[1]["payment_methods"]))
    paypal = next(m for m in user["payment_methods"] if m.startswith("paypal"))
    item = order["items"][0]
    new = _swap_target(env, item)
    _login(env, user)
    result = succeed(
        env,
        "modify_pending_order_items",
        order_id=order["order_id"],
        item_ids=[item["item_id"]],
        new_item_ids=[new["item_id"]],
        payment_method_id=paypal,
    )
    difference = round(new["price"] - item["price"], 2)
    assert result["status"] == "pending (items modified)"
    assert result["items"][0] == {**item, "item_id": new["item_id"], "options": new["options"], "price": new["price"]}
    assert result["payment_history"][-1] == {
        "kind": "payment" if difference > 0 else "refund",
        "payment_method_id": paypal,
        "amount": abs(difference),
    }
    assert (
        refused(
            env,
            "modify_pending_order_items",
            order_id=order["order_id"],
            item_ids=[new["item_id"]],
            new_item_ids=[item["item_id"]],
            payment_method_id=paypal,
        )
        == f"order '{order['order_id']}' is 'pending (items modified)'; only pending orders can be modified"
    )


def test_modify_items_refusals(env):
    order, user = next(_orders(env, "pending"))
    item, method = order["items"][0], order["payment_history"][0]["payment_method_id"]
    other_product = next(
        i for i in env.snapshot().tables["orders"].values() for i in i["items"] if i["product_id"] != item["product_id"]
    )
    _login(env, user)

    def modify(new_ids, item_ids=(item["item_id"],), pay=method):
        return refused(
            env,
            "modify_pending_order_items",
            order_id=order["order_id"],
            item_ids=list(item_ids),
            new_item_ids=list(new_ids),
            payment_method_id=pay,
        )

    assert (
        modify([other_product["item_id"]])
        == f"item '{other_product['item_id']}' is not a variant of product '{item['name']}'"
    )
    assert modify([item["item_id"]]) == f"new item '{item['item_id']}' is the same as the old item"
    unavailable = _swap_target(env, item, available=False)
    assert modify([unavailable["item_id"]]) == f"item '{unavailable['item_id']}' is not available"
    assert modify(["1", "2"]) == "item_ids and new_item_ids must have the same length"
    assert (
        modify(["1"], item_ids=["0000000000"])
        == f"item '0000000000' is not in order '{order['order_id']}' (or not that many times)"
    )
    assert (
        modify([_swap_target(env, item)["item_id"]], pay="paypal_0")
        == "payment method 'paypal_0' is not in the user's profile"
    )
    assert (
        modify([]) == "invalid arguments for modify_pending_order_items: argument 'new_item_ids' is invalid: "
        "[] should be non-empty"
    )


def test_modify_items_needs_a_gift_card_that_covers_the_difference(env):
    for order, user in _orders(env, "pending"):
        cards = [m for m in user["payment_methods"].values() if m["source"] == "gift_card" and m["balance"] < 20]
        pricier = [
            (i, v)
            for i in order["items"]
            for v in env.snapshot().tables["products"][i["product_id"]]["variants"].values()
            if v["available"] and v["price"] - i["price"] > 20
        ]
        if cards and pricier:
            break
    (item, new), card = pricier[0], cards[0]
    _login(env, user)
    assert (
        refused(
            env,
            "modify_pending_order_items",
            order_id=order["order_id"],
            item_ids=[item["item_id"]],
            new_item_ids=[new["item_id"]],
            payment_method_id=card["id"],
        )
        == f"gift card '{card['id']}' balance {card['balance']:.2f} does not cover {new['price'] - item['price']:.2f}"
    )


def _user_with(env, first, second):
    """An order of status `first` and one of status `second` of the same user."""
    seconds = {u["user_id"]: o for o, u in _orders(env, second)}
    return next((o, seconds[u["user_id"]], u) for o, u in _orders(env, first) if u["user_id"] in seconds)


def test_modify_address_of_a_pending_order(env):
    order, delivered, user = _user_with(env, "pending", "delivered")
    address = {
        "address1": "1 Test Street",
        "address2": "",
        "city": "Boise",
        "state": "ID",
        "country": "USA",
        "zip": "83700",
    }
    _login(env, user)
    assert succeed(env, "modify_pending_order_address", order_id=order["order_id"], **address)["address"] == address
    assert "only pending orders can be modified" in refused(
        env, "modify_pending_order_address", order_id=delivered["order_id"], **address
    )
    assert (
        refused(env, "modify_pending_order_address", order_id=order["order_id"], **{**address, "city": 3})
        == "invalid arguments for modify_pending_order_address: argument 'city' must be of type string"
    )


def test_modify_payment_pays_with_the_new_method_and_refunds_the_old(env):
    order, user = next(
        o
        for o in _orders(env, "pending", paid_by="credit_card")
        if any(m["source"] == "paypal" for m in o[1]["payment_methods"].values())
    )
    original = order["payment_history"][0]
    paypal = next(m for m in user["payment_methods"] if m.startswith("paypal"))
    _login(env, user)
    assert (
        refused(
            env,
            "modify_pending_order_payment",
            order_id=order["order_id"],
            payment_method_id=original["payment_method_id"],
        )
        == "the new payment method is the same as the original one"
    )
    history = succeed(env, "modify_pending_order_payment", order_id=order["order_id"], payment_method_id=paypal)[
        "payment_history"
    ]
    assert history[1:] == [
        {"kind": "payment", "payment_method_id": paypal, "amount": original["amount"]},
        {"kind": "refund", "payment_method_id": original["payment_method_id"], "amount": original["amount"]},
    ]
    assert (
        refused(
            env,
            "modify_pending_order_payment",
            order_id=order["order_id"],
            payment_method_id=original["payment_method_id"],
        )
        == f"order '{order['order_id']}' has 2 payments; only a single payment can be replaced"
    )


# ---- delivered orders ------------------------------------------------------------------
def test_return_to_the_original_method_or_a_gift_card_only(env):
    order, user = next(
        o
        for o in _orders(env, "delivered", paid_by="paypal")
        if any(m["source"] == "credit_card" for m in o[1]["payment_methods"].values())
    )
    card = next(m for m in user["payment_methods"] if m.startswith("credit_card"))
    items = [order["items"][0]["item_id"]]
    _login(env, user)
    assert (
        refused(env, "return_delivered_order_items", order_id=order["order_id"], item_ids=items, payment_method_id=card)
        == "a return refund must go to the original payment method or a gift card"
    )
    result = succeed(
        env,
        "return_delivered_order_items",
        order_id=order["order_id"],
        item_ids=items,
        payment_method_id=order["payment_history"][0]["payment_method_id"],
    )
    assert result["status"] == "return requested" and result["return_items"] == items
    assert result["return_refund"] == order["items"][0]["price"]
    assert "only delivered orders can be returned" in refused(
        env,
        "return_delivered_order_items",
        order_id=order["order_id"],
        item_ids=items,
        payment_method_id=order["payment_history"][0]["payment_method_id"],
    )


def test_exchange_a_delivered_item_and_refuse_a_processed_order(env):
    order, processed, user = _user_with(env, "delivered", "processed")
    item = order["items"][0]
    new = _swap_target(env, item)
    method = order["payment_history"][0]["payment_method_id"]
    _login(env, user)
    result = succeed(
        env,
        "exchange_delivered_order_items",
        order_id=order["order_id"],
        item_ids=[item["item_id"]],
        new_item_ids=[new["item_id"]],
        payment_method_id=method,
    )
    assert result["status"] == "exchange requested"
    assert result["exchange_price_difference"] == round(new["price"] - item["price"], 2)
    assert "only delivered orders can be exchanged" in refused(
        env,
        "exchange_delivered_order_items",
        order_id=processed["order_id"],
        item_ids=[processed["items"][0]["item_id"]],
        new_item_ids=["1"],
        payment_method_id=method,
    )


def test_modify_user_address_only_for_the_verified_user(env):
    _, user = next(_orders(env, "pending"))
    other = next(u for u in env.snapshot().tables["users"].values() if u["user_id"] != user["user_id"])
    address = {**user["address"], "address2": "Apt 1"}
    assert refused(env, "modify_user_address", user_id=user["user_id"], **address).startswith(
        "user identity not verified"
    )
    _login(env, user)
    assert (
        refused(env, "modify_user_address", user_id=other["user_id"], **address)
        == f"user '{other['user_id']}' belongs to another user than the verified one"
    )
    assert succeed(env, "modify_user_address", user_id=user["user_id"], **address)["address"] == address
    assert env.action_log[-1]["writes"] == [["users", user["user_id"]]]


def test_transfer_and_calculate(env):
    assert succeed(env, "transfer_to_human_agents", summary="wants a refund in cash") == "Transfer successful"
    assert succeed(env, "calculate", expression="129.99 - 20") == 109.99


# ---- generator and DB files --------------------------------------------------------------
def test_generator_is_deterministic_per_seed():
    assert generate_retail_db(users=50, seed=3) == generate_retail_db(users=50, seed=3)
    same = RetailWorld(users=50, seed=3).state_hash()
    assert same == RetailWorld(users=50, seed=3).state_hash()
    assert same != RetailWorld(users=50, seed=4).state_hash()
    assert same != RetailWorld(users=51, seed=3).state_hash()


def test_db_round_trips_through_json_and_gzip(env, tmp_path):
    _login(env, next(_orders(env, "pending"))[1])
    for path in (tmp_path / "db.json", tmp_path / "db.json.gz"):
        save_db(env.state(), path)
        assert RetailWorld(state=load_db(path)).state_hash() == env.state_hash()
    assert (tmp_path / "db.json.gz").read_bytes() == save_db(env.state(), tmp_path / "again.json.gz").read_bytes()


def test_fifty_thousand_users():
    db = generate_retail_db(users=50_000, seed=0)
    users = db["users"].values()
    assert len(db["users"]) == 50_000
    assert len({u["email"] for u in users}) == 50_000
    assert len({(u["name"]["first_name"], u["name"]["last_name"], u["address"]["zip"]) for u in users}) == 50_000
    assert sum(len(u["orders"]) for u in users) == len(db["orders"])
    env = RetailWorld(state=db)
    user = next(iter(users))
    assert succeed(env, "find_user_id_by_email", email=user["email"]) == user["user_id"]
