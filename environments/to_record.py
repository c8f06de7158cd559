"""Describe a live environment as the E part of an AgentRecord."""

from __future__ import annotations

from typing import Any

from environments.base import ToolEnvironment
from schemas.record import Environment, StateRef


def to_record_environment(
    env: ToolEnvironment,
    snapshot_id: str | None = None,
    sandbox: dict[str, Any] | None = None,
    kind: str = "tool_world",
) -> Environment:
    """E with the env's tools, policy and its *current* state as the initial-state reference.

    Call it right after ``reset``. For a seeded tool world the defaults say how
    to rebuild it (as environments/from_record.py reads E): snapshot id
    "<name>-seed<S>-users<N>" and sandbox {"env_params": {...}, "seed": S}.
    For a world reset to a given state, name where that state is kept, e.g.
    ``snapshot_id="file:/data/retail_db.json"``. The content hash pins the state.
    """
    params = env.env_params() if hasattr(env, "env_params") else {}
    seed = getattr(env, "seed", None)
    if snapshot_id is None:
        if seed is None:
            raise ValueError("the environment was reset to a given state: say where it is kept (snapshot_id)")
        snapshot_id = "-".join([env.name, f"seed{seed}", *(f"{k}{v}" for k, v in sorted(params.items()))])
    if sandbox is None:
        sandbox = {"env_params": params, **({"seed": seed} if seed is not None else {})}
    return Environment(
        kind=kind,
        name=env.name,
        tools=env.tools(),
        policy=env.policy or None,
        initial_state=StateRef(snapshot_id=snapshot_id, content_hash=env.state_hash()),
        sandbox=sandbox,
    )
