"""Environments by name: `get_environment("retail", users=500)`, `list_environments()`.

Built-in environments are imported on first use (a "module:Class" path), so
importing the registry stays cheap; others can be added with
`register_environment(name, factory)`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from environments.base import ToolEnvironment

_BUILTIN = {
    "retail": "environments.retail.env:RetailWorld",
    "airline": "environments.airline.env:AirlineWorld",
    "code": "environments.code.env:CodeEnvironment",
}
_FACTORIES: dict[str, Callable[..., ToolEnvironment]] = {}


def register_environment(name: str, factory: Callable[..., ToolEnvironment]) -> None:
    """Make `get_environment(name, **kwargs)` call `factory(**kwargs)`."""
    _FACTORIES[name] = factory


def list_environments() -> list[str]:
    return sorted(set(_BUILTIN) | set(_FACTORIES))


def environment_class(name: str) -> Callable[..., ToolEnvironment]:
    if name in _FACTORIES:
        return _FACTORIES[name]
    if name not in _BUILTIN:
        raise KeyError(f"unknown environment {name!r}; known: {', '.join(list_environments())}")
    module, _, attr = _BUILTIN[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def get_environment(name: str, **kwargs: Any) -> ToolEnvironment:
    """A fresh environment, reset to its default seeded state unless kwargs say otherwise."""
    return environment_class(name)(**kwargs)
