"""The `airline` tool world: flights, reservations, changes, cancellations and certificates (policy.md)."""

from environments.airline.env import AirlineWorld
from environments.airline.generator import generate_airline_db

__all__ = ["AirlineWorld", "generate_airline_db"]
