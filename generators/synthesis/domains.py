"""The domains tasks can be synthesized in, by environment name."""

from __future__ import annotations

from environments.registry import list_environments
from generators.synthesis.goals import Domain

SYNTHESIZABLE = ("retail", "airline")


def get_domain(name: str) -> Domain:
    if name == "retail":
        from generators.synthesis.retail.tasks import DOMAIN
    elif name == "airline":
        from generators.synthesis.airline.tasks import DOMAIN
    else:
        known = "has no task synthesizer" if name in list_environments() else "is unknown"
        raise KeyError(f"environment {name!r} {known}; synthesizable: {', '.join(SYNTHESIZABLE)}")
    return DOMAIN
