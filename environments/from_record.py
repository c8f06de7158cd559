"""Where a record's initial environment state comes from, and building the environment from it.

E (``record.environment``) says it, first match wins:

1. ``E.sandbox["initial_state"]``: the state itself, inline (small worlds, tests);
2. ``E.sandbox["state_path"]``, or ``E.initial_state.snapshot_id`` of the form
   ``file:<path>``: a JSON (or .json.gz) file with the state, as written by
   ``aceforge env make-db``;
3. otherwise the environment's seeded generator: ``E.sandbox["seed"]`` (default 0).

The environment itself is ``get_environment(E.name, **E.sandbox["env_params"])``
(e.g. ``{"users": 500}``). When ``E.initial_state.content_hash`` is set, the
built state must hash to it; a different hash means the snapshot or the
generator changed since the trajectory was recorded.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

from environments.base import ToolEnvironment
from environments.db_files import load_db
from environments.registry import EnvironmentFactory
from schemas.record import Environment


class InitialStateError(Exception):
    """The initial environment cannot be built; ``code`` is the stable reason code."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code


@lru_cache(maxsize=8)
def _load_state_file(path: str, mtime_ns: int) -> dict[str, Any]:
    # The same dict object for every record of one snapshot file lets tool worlds share
    # one snapshot (and its precomputed hashes) across replays.
    return load_db(path)


def load_state_file(path: str) -> dict[str, Any]:
    try:
        return _load_state_file(os.path.abspath(path), os.stat(path).st_mtime_ns)
    except (OSError, ValueError) as exc:
        raise InitialStateError("initial_state_unavailable", f"{path}: {exc}") from None


def state_source(env: Environment) -> tuple[str, Any]:
    """("inline", state) | ("file", path) | ("seed", seed)."""
    sandbox = env.sandbox or {}
    if isinstance(sandbox.get("initial_state"), dict):
        return "inline", sandbox["initial_state"]
    snapshot = env.initial_state.snapshot_id if env.initial_state else ""
    if sandbox.get("state_path") or snapshot.startswith("file:"):
        return "file", sandbox.get("state_path") or snapshot[len("file:") :]
    return "seed", int(sandbox.get("seed", 0))


def build_environment(env: Environment, factory: EnvironmentFactory) -> ToolEnvironment:
    """A fresh environment in the record's initial state (hash-checked when E pins one)."""
    if not env.name:
        raise InitialStateError("no_environment", "E.name is empty: nothing to replay in")
    try:
        live = factory(env.name, **dict((env.sandbox or {}).get("env_params", {})))
    except KeyError as exc:
        raise InitialStateError("unknown_environment", str(exc)) from None
    kind, value = state_source(env)
    if kind == "inline":
        live.reset(state=value)
    elif kind == "file":
        live.reset(state=load_state_file(value))
    else:
        live.reset(seed=value)
    expected = env.initial_state.content_hash if env.initial_state else None
    if expected and live.state_hash() != expected:
        raise InitialStateError(
            "initial_state_mismatch", f"initial state hashes to {live.state_hash()}, E pins {expected}"
        )
    return live
