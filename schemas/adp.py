"""ADP v1 import and export.

ADP v1 trajectories are ``{"id", "content": [steps], "details": {str: str}}``.
Import keeps everything; export writes what ADP v1 can hold:

- ``reasoning`` becomes ADP's ``description``;
- observation sources ADP does not know are mapped: ``tool`` -> ``environment``;
  a ``system`` observation (ADP drops system prompts) goes to
  ``details["system_prompt"]`` instead of the step list;
- ``details`` values become strings (ADP v1 declares ``dict[str, str]``).

What ADP v1 has no field for goes to ``details`` too, as JSON text under
``aceforge.*`` keys, and import puts it back, so a record survives a round
trip through ADP: E, q and v (the reward and verdict) when they say more than
an import would infer, the lineage, the steps' ``tool_call_id`` and true
source, the system prompts at their places, and which details were not strings.
"""

from __future__ import annotations

from typing import Any

import orjson

from schemas.record import AgentRecord, Environment, Lineage, Source, Task, Verifier, record_id, stable_id
from schemas.steps import ACTION_CLASSES, TextObservation

_ADP_SOURCES = {"user": "user", "agent": "agent", "environment": "environment", "tool": "environment"}
EXTRA = "aceforge."  # details keys of what ADP v1 has no field for
# Record parts kept whole when they differ from what an import without them gives.
_PARTS = {"environment": Environment, "verifier": Verifier, "lineage": Lineage}


def step_from_adp(step: dict[str, Any]) -> dict[str, Any]:
    out = dict(step)
    if "description" in out and out["class_"] in ACTION_CLASSES:
        out["reasoning"] = out.pop("description")
    return out


def step_to_adp(step: dict[str, Any]) -> dict[str, Any]:
    """One step (as a dict from model_dump) in ADP v1 shape."""
    kind = step["class_"]
    if kind in ACTION_CLASSES:
        out = {k: v for k, v in step.items() if k not in ("reasoning", "tool_call_id")}
        out["description"] = step.get("reasoning")
        return out
    if kind == "text_observation":
        return {
            "class_": kind,
            "content": step["content"],
            "name": step.get("name"),
            "source": _ADP_SOURCES[step["source"]],
        }
    if kind == "image_observation":
        return {
            "class_": kind,
            "content": step["content"],
            "source": _ADP_SOURCES.get(step.get("source") or "environment", "environment"),
            "annotations": step.get("annotations"),
        }
    image = step.get("image_observation")
    return {
        "class_": kind,
        "html": step.get("html"),
        "axtree": step.get("axtree"),
        "url": step.get("url"),
        "image_observation": step_to_adp(image) if image else None,
        "viewport_size": list(step["viewport_size"]) if step.get("viewport_size") else None,
    }


def _json_text(value: Any) -> str:
    from schemas.arrow_schema import json_text  # here, not at the top: converters import this module, not pyarrow

    return json_text(value)


def _as_str(value: Any) -> str:
    return value if isinstance(value, str) else _json_text(value)


def _step_fields(steps: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """What ADP loses of each step, by its index in ADP's content: the tool_call_id, a source it maps."""
    lost: dict[str, dict[str, Any]] = {}
    for i, step in enumerate(steps):
        fields = {"tool_call_id": step["tool_call_id"]} if step.get("tool_call_id") else {}
        if step.get("source") and _ADP_SOURCES.get(step["source"], step["source"]) != step["source"]:
            fields["source"] = step["source"]
        if fields:
            lost[str(i)] = fields
    return lost


def record_to_adp(record: AgentRecord) -> dict[str, Any]:
    dumped = record.model_dump(mode="json")
    steps = dumped["trajectory"]
    details = {k: _as_str(v) for k, v in record.details.items()}
    system = [(i, s["content"]) for i, s in enumerate(steps) if _is_system(s)]
    if system:
        details["system_prompt"] = "\n\n".join(text for _, text in system)
    kept = [s for s in steps if not _is_system(s)]
    extra: dict[str, Any] = {
        "steps": _step_fields(kept),
        "system": system,
        "json_keys": [k for k, v in record.details.items() if not isinstance(v, str)],
    }
    for part, model in _PARTS.items():
        if dumped[part] != model().model_dump(mode="json"):
            extra[part] = dumped[part]
    if dumped["task"] != Task(instruction=first_user_text(record.trajectory)).model_dump(mode="json"):
        extra["task"] = dumped["task"]
    details.update((EXTRA + key, _json_text(value)) for key, value in extra.items() if value)
    content = [step_to_adp(s) for s in kept]
    adp = {"id": record.source.original_id or record.id, "content": content, "details": details}
    # The record's id, with a digest of what was exported: an unchanged export converts back to the same id.
    # A record read from ADP needs none: its export is its input again, which gives the same id.
    if record.source.format != "adp":
        details[EXTRA + "id"] = _json_text({"id": record.id, "digest": stable_id(adp)})
    return adp


def exported_id(raw: dict[str, Any]) -> str | None:
    """The aceforge id an ``export-adp`` record carries, when the record is unchanged since (its digest
    still matches); None otherwise, and the importer keys a new id by the content as usual."""
    details = raw.get("details")
    stored = details.get(EXTRA + "id") if isinstance(details, dict) else None
    if not isinstance(stored, str):
        return None
    try:
        value = orjson.loads(stored)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        return None
    unchanged = {**raw, "details": {k: v for k, v in details.items() if k != EXTRA + "id"}}
    return value["id"] if stable_id(unchanged) == value.get("digest") else None


def _is_system(step: dict[str, Any]) -> bool:
    return step["class_"] == "text_observation" and step["source"] == "system"


def first_user_text(steps: list[Any]) -> str:
    for step in steps:
        if isinstance(step, TextObservation) and step.source == "user":
            return step.content
    return ""


def record_from_adp(
    raw: dict[str, Any], dataset: str | None = None, license: str | None = None, id: str | None = None
) -> AgentRecord:
    """An ADP v1 standardized trajectory as an AgentRecord (steps kept as ADP labelled them, unless the
    ``aceforge.*`` details of an aceforge export say more); ``id`` defaults to one keyed by the ADP id."""
    details = dict(raw.get("details") or {})
    extra = {key[len(EXTRA) :]: orjson.loads(details.pop(key)) for key in list(details) if key.startswith(EXTRA)}
    for key in extra.get("json_keys", ()):
        details[key] = orjson.loads(details[key])
    steps = [step_from_adp(s) for s in raw["content"]]
    for index, fields in extra.get("steps", {}).items():
        steps[int(index)].update(fields)
    if extra.get("system"):
        details.pop("system_prompt", None)
        for position, text in extra["system"]:
            steps.insert(position, {"class_": "text_observation", "content": text, "source": "system"})
    dataset = dataset or details.get("source") or "adp"
    original_id = str(raw["id"])
    record = AgentRecord.model_validate(
        {
            "id": id or record_id(dataset, "adp", original_id),
            "trajectory": steps,
            "source": Source(dataset=dataset, format="adp", original_id=original_id, license=license),
            "details": details,
            **{part: extra[part] for part in ("environment", "verifier", "lineage", "task") if part in extra},
        }
    )
    if "task" not in extra:
        record.task = Task(instruction=first_user_text(record.trajectory))
    return record
