"""The `retail` tool world: users, orders and products; cancel, modify, return, exchange (policy.md)."""

from environments.retail.env import RetailWorld
from environments.retail.generator import generate_retail_db

__all__ = ["RetailWorld", "generate_retail_db"]
