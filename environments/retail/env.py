"""The retail tool world: look up users, orders and products; cancel, modify, return, exchange.

What the code enforces (the rest of policy.md is for verifiers to check):

- Identity: the first successful lookup by email or by name + zip in a session
  verifies that user. Every write refuses to act before a verification, and on
  an order or profile of any other user. Later lookups of other users return
  their id but do not change the verified user. Reads are not restricted.
- Order state: cancel / modify only `pending` orders (a `pending (items
  modified)` order is frozen); return / exchange only `delivered` orders.
- Money: payment methods must belong to the order's user; a gift card must
  cover what it pays; refunds go to the original payment method (cancel,
  payment change) and, for returns, to the original method or a gift card;
  gift-card refunds are credited at once, card/PayPal refunds are recorded in
  the order's payment history.
- Items: a new item must be another variant of the same product and available.
"""

from __future__ import annotations

from pathlib import Path

from environments.common_tools import CustomerServiceTools
from environments.retail.generator import generate_retail_db
from environments.retail.order_actions import RetailOrderTools
from environments.tool_world import ToolError, UserDatabaseWorld, params, tool

POLICY = (Path(__file__).parent / "policy.md").read_text()
# What a small learner is shown instead (generators/rollouts/agent_prompt.py, rendering "compact").
COMPACT_POLICY = (Path(__file__).parent / "policy_compact.md").read_text()

ID = {"type": "string"}


class RetailWorld(RetailOrderTools, CustomerServiceTools, UserDatabaseWorld):
    """Online store support: users, orders (pending to delivered), products with variants."""

    name = "retail"
    policy = POLICY
    compact_policy = COMPACT_POLICY
    identity_tools = frozenset({"find_user_id_by_email", "find_user_id_by_name_zip"})
    account_tools = frozenset({"get_user_details", "get_order_details"})
    fact_groups = (
        (
            "pending (items modified)",
            "pending",
            "processed",
            "delivered",
            "cancelled",
            "return requested",
            "exchange requested",
        ),
    )
    fact_terms = fact_groups[0]
    money_keys = frozenset({"amount", "balance", "return_refund", "exchange_price_difference"})
    action_words = {
        "cancel_pending_order": ("cancel", "cancellation", "cancelling", "canceling", "cancelled", "canceled"),
        "return_delivered_order_items": ("return", "returning", "returned", "send back", "send it back"),
        "exchange_delivered_order_items": (
            "exchange",
            "exchanging",
            "swap",
            "switch",
            "replace",
            "replacement",
            "variant",
        ),
        "modify_pending_order_items": (
            "modify",
            "change",
            "swap",
            "switch",
            "replace",
            "exchange",
            "update",
            "variant",
            "item",
            "items",
            "version",
        ),
        "modify_pending_order_payment": ("payment method", "pay for it with", "pay for the order with", "billing"),
        "modify_pending_order_address": ("address", "ship", "shipping", "deliver to"),
        "modify_user_address": ("address", "profile", "default address", "address on file", "account address"),
    }
    object_words = frozenset({"item", "items", "variant", "version"})
    phrasings = {
        "processed": (
            # not said of money: "the refund is on its way" says nothing of the order
            r"(?<!refund )(?<!refunds )(?<!money )\b(?:is|it'?s|are) (?:already |still |now )?(?:being shipped|"
            r"in transit|on (?:its|the|their) way(?! back))",
            r"\bshipped but (?:not|hasn'?t|has not|isn'?t) (?:yet )?(?:been )?delivered",
        ),
        "delivered": (r"\b(?:has|have|had|was|were) (?:already )?(?:been )?delivered", r"\b(?:has|have) arrived\b"),
        "pending": (
            r"\b(?:has|have|had) not (?:yet )?(?:been )?shipped",
            r"\b(?:hasn'?t|haven'?t|isn'?t|is not|wasn'?t|not) (?:yet )?(?:been )?shipped",
            r"\byet to (?:be )?ship",
        ),
        "cancelled": (r"\bcanceled\b",),
        "same product": (
            r"\bsame (?:kind of |type of )?(?:product|item)",
            r"\b(?:another|a different|different|other) (?:product|item type|type of (?:product|item)|kind of "
            r"(?:product|item))",
            r"\b(?:variant|version|option|colou?r|size)s? of (?:the same|that|this|your|the) (?:product|item)",
            r"\b(?:only|just) (?:be )?(?:exchanged|swapped|changed|switched|replaced)\b[^.]{0,30}\b(?:variant|"
            r"version|option|colou?r|size|style)",
        ),
        "original payment method": (
            r"\boriginal (?:payment |form of payment|card|method|account)",
            r"\b(?:method|card|account) (?:that|which|you) (?:was )?(?:used|paid)",
            r"\b(?:card|method|account) (?:you|it was) paid (?:with|by|from)",
            r"\bsame (?:payment )?(?:method|card|account)\b",
            r"\bwhere (?:the|your) (?:money|payment) came from",
        ),
    }

    generate_db = staticmethod(generate_retail_db)

    # ---- identity ---------------------------------------------------------------------
    def _verified(self, user_id: str) -> str:
        if "verified_user_id" not in self.session:
            self.session["verified_user_id"] = user_id
        return user_id

    def require_owner(self, user_id: str, what: str) -> None:
        verified = self.session.get("verified_user_id")
        if verified is None:
            raise ToolError("user identity not verified: look the user up by email or by name and zip first")
        if verified != user_id:
            raise ToolError(f"{what} belongs to another user than the verified one")

    @tool(
        "Find a user's id by email address. Verifies the user's identity for this conversation.",
        params({"email": {"type": "string"}}),
    )
    def find_user_id_by_email(self, email: str) -> str:
        found = self.lookup("users", _email_key, email.strip().lower())
        if not found:
            raise ToolError("no user with this email")
        return self._verified(found[0])

    @tool(
        "Find a user's id by first name, last name and zip code. Verifies the user's identity for this conversation.",
        params({"first_name": {"type": "string"}, "last_name": {"type": "string"}, "zip": {"type": "string"}}),
    )
    def find_user_id_by_name_zip(self, first_name: str, last_name: str, zip: str) -> str:
        found = self.lookup(
            "users", _name_zip_key, (first_name.strip().lower(), last_name.strip().lower(), zip.strip())
        )
        if not found:
            raise ToolError("no user with this name and zip")
        return self._verified(found[0])

    # ---- reads ------------------------------------------------------------------------
    @tool(
        "Get a user's profile: name, email, address, payment methods (with gift card balances) and order ids.",
        params({"user_id": ID}),
    )
    def get_user_details(self, user_id: str) -> dict:
        return self.row("users", user_id, "user")

    @tool(
        "Get an order: user, address, items with prices, status, fulfillments and payment history.",
        params({"order_id": {"type": "string", "description": "e.g. '#R1234567'"}}),
    )
    def get_order_details(self, order_id: str) -> dict:
        return self.row("orders", order_id, "order")

    @tool(
        "Get a product type and all its variant items (item id, options, availability, price).",
        params({"product_id": ID}),
    )
    def get_product_details(self, product_id: str) -> dict:
        return self.row("products", product_id, "product")

    @tool("List all product types as {product name: product id}.")
    def list_product_types(self) -> dict:
        return {product["name"]: product_id for product_id, product in self.rows("products")}

    # ---- profile ----------------------------------------------------------------------
    @tool(
        "Change a user's default address. Needs the user's explicit confirmation.",
        params(
            {
                "user_id": ID,
                **{k: {"type": "string"} for k in ("address1", "address2", "city", "state", "country", "zip")},
            }
        ),
        access="write",
    )
    def modify_user_address(self, user_id: str, **address: str) -> dict:
        self.row("users", user_id, "user")
        self.require_owner(user_id, f"user '{user_id}'")
        user = self.edit("users", user_id, "user")
        user["address"] = address
        return user


def _email_key(user: dict) -> str:
    return user["email"].lower()


def _name_zip_key(user: dict) -> tuple[str, str, str]:
    return (user["name"]["first_name"].lower(), user["name"]["last_name"].lower(), user["address"]["zip"])
