"""Environments by name: `get_environment("retail", users=500)`, `list_environments()`.

``ENVIRONMENTS`` is the environment registry (runtime/plugins.py): the
built-ins are imported on first use (a "module:Class" path), so importing the
registry stays cheap; code adds one with `register_environment(name, factory)`
and an installed package through the ``aceforge.environments`` entry points.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from environments.base import ToolEnvironment
from runtime.plugins import Registry

EnvironmentFactory = Callable[..., ToolEnvironment]


def _check_factory(name: str, factory: Any) -> None:
    if not callable(factory):
        raise TypeError(f"{factory!r} is not a class or function that makes an environment")


ENVIRONMENTS: Registry[EnvironmentFactory] = Registry(
    "environments",
    "environment",
    {
        "retail": "environments.retail.env:RetailWorld",
        "airline": "environments.airline.env:AirlineWorld",
        "code": "environments.code.env:CodeEnvironment",
    },
    check=_check_factory,
)


def register_environment(name: str, factory: EnvironmentFactory) -> None:
    """Make `get_environment(name, **kwargs)` call `factory(**kwargs)`."""
    ENVIRONMENTS.register(name, factory)


def list_environments() -> list[str]:
    return ENVIRONMENTS.names()


def environment_class(name: str) -> EnvironmentFactory:
    return ENVIRONMENTS.get(name)


def get_environment(name: str, **kwargs: Any) -> ToolEnvironment:
    """A fresh environment, reset to its default seeded state unless kwargs say otherwise."""
    return environment_class(name)(**kwargs)
