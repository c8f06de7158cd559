"""Arrow rows straight from the plain data a chat converter builds, without model objects on the way.

Validating a record into pydantic models and reading the models back into a
row costs about 60 µs of a chat record's ~250. The chat formats build every
part of a record from the typed builders of step_dicts.py and values they
have checked, so their rows are written from that data directly (the same
row ``record_to_row`` makes of the validated record; a test keeps the two
equal). Arrow's typed conversion still checks every value when a chunk's rows
become a batch; a chunk that fails it is converted again record by record
through the models (convert_chunks.py), which names the bad record and field.

The data is what ``AgentRecord.model_validate`` takes: ``id``, ``trajectory``
(step dicts), ``source`` and ``details``, and optionally ``environment`` (its
``tools`` as Tool models), ``task``, ``verifier`` and ``lineage`` as dicts of
their top-level fields; what is left out has its model default.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson

from schemas.record import SCHEMA_VERSION, Environment, Lineage, Task, Tool, Verifier

_PARTS = {"environment": Environment, "task": Task, "verifier": Verifier, "lineage": Lineage}
_SCORES = {"accuracy": None, "complexity": None, "diversity": None, "extra": "{}", "learner": None}


@cache
def _default(part: str) -> dict[str, Any]:
    return _PARTS[part]().model_dump(mode="json")


def _models(value: Any) -> dict[str, Any]:
    if type(value) is Tool:  # a tool list's items are validated Tool models, plain JSON field by field
        return value.__dict__
    raise TypeError(f"{type(value).__name__} is not plain JSON")


def _json(value: Any) -> str:
    return orjson.dumps(value, default=_models).decode()


def _part(data: dict[str, Any], part: str) -> dict[str, Any]:
    given = data.get(part)
    return {**_default(part), **given} if given else _default(part)


@cache
def _default_json(part: str) -> str:
    """The JSON text of a part left at its default (most records' verifier and lineage), written once."""
    return _json(_default(part))


def api_step_row(step: dict[str, Any]) -> dict[str, Any]:
    """An ApiAction's step dict as a STEP_TYPE row, its kwargs as JSON. Every other step dict is its row as it is
    (Arrow fills the fields a step kind lacks with null)."""
    return {**step, "kwargs": _json(step["kwargs"])}


def row_from_data(data: dict[str, Any]) -> dict[str, Any]:
    """The Arrow row of a record given as plain data (see the module docstring)."""
    environment, task, verifier = _part(data, "environment"), _part(data, "task"), _part(data, "verifier")
    result = verifier["result"]
    trajectory = data["trajectory"]
    return {
        "id": data["id"],
        "schema_version": SCHEMA_VERSION,
        "env_kind": environment["kind"],
        "environment": _json(environment),
        "instruction": task["instruction"],
        "task": _json(task),
        "trajectory": [api_step_row(s) if s["class_"] == "api_action" else s for s in trajectory],
        "num_steps": len(trajectory),
        "verifier_kind": verifier["kind"],
        "verifier_passed": result.get("passed") if result else None,
        "verifier_score": result.get("score") if result else None,
        "verifier": _json(verifier) if data.get("verifier") else _default_json("verifier"),
        "source": {"uri": None, "agent": None, **data["source"]},
        "lineage": _json(_part(data, "lineage")) if data.get("lineage") else _default_json("lineage"),
        "scores": _SCORES,
        "details": _json(data.get("details") or {}),
    }
