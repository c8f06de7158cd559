"""Describe a live environment as the E part of an AgentRecord."""

from __future__ import annotations

from environments.base import ToolEnvironment
from schemas.record import Environment, StateRef


def to_record_environment(env: ToolEnvironment, snapshot_id: str, kind: str = "tool_world") -> Environment:
    """E with the env's tools, policy and its *current* state as the initial-state reference.

    Call it right after ``reset``; ``snapshot_id`` names where that state is kept
    (e.g. "retail-seed0-users500" or a DB file), the content hash pins it.
    """
    return Environment(
        kind=kind,
        name=env.name,
        tools=env.tools(),
        policy=env.policy or None,
        initial_state=StateRef(snapshot_id=snapshot_id, content_hash=env.state_hash()),
    )
