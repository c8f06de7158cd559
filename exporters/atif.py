"""Export records as Harbor ATIF trajectories (Agent Trajectory Interchange Format v1.5), one a line.

The inverse of the atif format's reader (data_catalog/sources/atif.py, which describes the format): the
actions of one agent turn are one step with their results as its observation. E, q, v and the record's id go to
``extra.aceforge`` (ATIF has no field for them), so converting an unchanged export back gives the same record.
Image and web observations are written as their text (an image as its reference).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from data_catalog.sources.atif import SCHEMA_VERSION
from exporters.per_record import write_each
from schemas.record import AgentIdentity, AgentRecord, stable_id


def export(source: Path, output: Path) -> dict[str, Any]:
    """The registry's entry (exporters/registry.py): every record of ``source`` as one ATIF line of ``output``."""
    return {"format": "atif", **write_each(source, output, record_to_atif)}


def record_to_atif(record: AgentRecord) -> dict[str, Any]:
    """A record as an ATIF trajectory (see the module docstring)."""
    steps: list[dict[str, Any]] = []
    open_calls: list[str] = []  # ids of calls without a result yet, oldest first
    for index, step in enumerate(record.trajectory):
        kind = step.class_
        if kind in ("api_action", "code_action"):
            call_id = step.tool_call_id or f"call_{index}"
            if kind == "api_action":
                call = {"tool_call_id": call_id, "function_name": step.function, "arguments": step.kwargs}
            elif step.language == "bash":
                call = {"tool_call_id": call_id, "function_name": "bash", "arguments": {"command": step.content}}
            else:
                call = {"tool_call_id": call_id, "function_name": step.language, "arguments": {"code": step.content}}
            last = steps[-1] if steps else None
            if last and last["source"] == "agent" and "tool_calls" in last and "observation" not in last:
                last["tool_calls"].append(call)
            else:
                steps.append({"source": "agent", "message": "", "tool_calls": [call]})
                if step.reasoning:
                    steps[-1]["reasoning_content"] = step.reasoning
            open_calls.append(call_id)
        elif kind == "message_action":
            steps.append({"source": "agent", "message": step.content})
            if step.reasoning:
                steps[-1]["reasoning_content"] = step.reasoning
        elif kind == "text_observation" and step.source in ("system", "user"):
            steps.append({"source": step.source, "message": step.content})
        else:
            _attach_result(steps, open_calls, step)
    for number, step in enumerate(steps, start=1):
        step["step_id"] = number
    identity = record.source.agent or AgentIdentity()
    agent: dict[str, Any] = {"name": identity.framework or "aceforge", "version": identity.version or "unknown"}
    if identity.model:
        agent["model_name"] = identity.model
    if record.environment.tools:
        agent["tool_definitions"] = [
            {"type": "function", "function": tool.model_dump(mode="json")} for tool in record.environment.tools
        ]
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "session_id": record.source.original_id or record.id,
        "agent": agent,
        "steps": [{"step_id": s.pop("step_id"), **s} for s in steps],
        "extra": {},
    }
    if record.lineage.usage:
        document["final_metrics"] = {"extra": record.lineage.usage}
    environment = record.environment.model_dump(mode="json", exclude={"tools"})
    saved = {
        "id": record.id,
        "digest": stable_id(document),
        "environment": environment,
        "task": record.task.model_dump(mode="json"),
        "verifier": record.verifier.model_dump(mode="json"),
    }
    document["extra"]["aceforge"] = saved
    return document


def _attach_result(steps: list[dict[str, Any]], open_calls: list[str], step: Any) -> None:
    """An observation that is not a system or user turn: a result in the last agent step's observation."""
    if step.class_ == "text_observation":
        content = step.content
    elif step.class_ == "web_observation":
        content = step.axtree or step.html or step.url or ""
    else:
        content = f"[image] {step.content}"
    call_id = getattr(step, "tool_call_id", None)
    if call_id is None and step.class_ == "text_observation" and step.source == "tool" and open_calls:
        call_id = open_calls[0]
    if call_id in open_calls:
        open_calls.remove(call_id)
    result = {"content": content, **({"source_call_id": call_id} if call_id else {})}
    if not steps or steps[-1]["source"] != "agent":
        steps.append({"source": "system", "message": ""})
    steps[-1].setdefault("observation", {"results": []})["results"].append(result)
