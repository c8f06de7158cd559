"""``source.agent``, the identity of the agent that made an imported trajectory, as plain data from what its file
says (the readers of data_catalog/sources/ and the 1.2 -> 1.3 conversion of schemas/upgrades.py build it)."""

from __future__ import annotations

from typing import Any

TAU2 = "tau2-bench"


def agent_identity(framework: str | None, models: Any = None, version: Any = None) -> dict[str, Any] | None:
    """``source.agent`` from what a file says: ``models`` one model name or several (first the main one), in the
    order the file names them; None when the file says nothing of its agent."""
    names = [models] if isinstance(models, str) else list(models or ())
    names = [name for name in dict.fromkeys(names) if isinstance(name, str) and name]
    version = version if isinstance(version, str) and version else None
    if not (framework or names or version):
        return None
    return {
        "framework": framework or None,
        "model": names[0] if names else None,
        "version": version,
        "other_models": names[1:],
    }
