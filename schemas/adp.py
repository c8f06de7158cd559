"""ADP v1 import and export.

ADP v1 trajectories are ``{"id", "content": [steps], "details": {str: str}}``.
Import keeps everything; export writes what ADP v1 can hold:

- ``reasoning`` becomes ADP's ``description``;
- ``tool_call_id`` has no ADP v1 field and is left out;
- observation sources ADP does not know are mapped: ``tool`` -> ``environment``;
  a ``system`` observation (ADP drops system prompts) goes to
  ``details["system_prompt"]`` instead of the step list;
- ``details`` values become strings (ADP v1 declares ``dict[str, str]``).
"""

from __future__ import annotations

from typing import Any

from schemas.arrow_schema import json_text
from schemas.record import AgentRecord, Source, Task, record_id
from schemas.steps import ACTION_CLASSES, TextObservation

_ADP_SOURCES = {"user": "user", "agent": "agent", "environment": "environment", "tool": "environment"}


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


def _as_str(value: Any) -> str:
    return value if isinstance(value, str) else json_text(value)


def record_to_adp(record: AgentRecord) -> dict[str, Any]:
    steps = record.model_dump(mode="json")["trajectory"]
    details = {k: _as_str(v) for k, v in record.details.items()}
    system = [s["content"] for s in steps if s["class_"] == "text_observation" and s["source"] == "system"]
    if system:
        details["system_prompt"] = "\n\n".join(system)
    content = [step_to_adp(s) for s in steps if not (s["class_"] == "text_observation" and s["source"] == "system")]
    return {"id": record.source.original_id or record.id, "content": content, "details": details}


def first_user_text(steps: list[Any]) -> str:
    for step in steps:
        if isinstance(step, TextObservation) and step.source == "user":
            return step.content
    return ""


def record_from_adp(raw: dict[str, Any], dataset: str | None = None, license: str | None = None) -> AgentRecord:
    """An ADP v1 standardized trajectory as an AgentRecord (steps kept as ADP labelled them)."""
    details = dict(raw.get("details") or {})
    dataset = dataset or details.get("source") or "adp"
    original_id = str(raw["id"])
    record = AgentRecord(
        id=record_id(dataset, "adp", original_id),
        trajectory=[step_from_adp(s) for s in raw["content"]],
        source=Source(dataset=dataset, format="adp", original_id=original_id, license=license),
        details=details,
    )
    record.task = Task(instruction=first_user_text(record.trajectory))
    return record
