"""Harbor's Agent Trajectory Interchange Format (ATIF v1.x), read with its own field names.

An ATIF trajectory is ``{schema_version: "ATIF-v1.N", session_id, agent: {name, version,
model_name?, tool_definitions?, extra?}, steps, notes?, final_metrics?, extra?}``; a step is
``{step_id, source: system | user | agent, message, reasoning_content?, tool_calls?: [{tool_call_id,
function_name, arguments}], observation?: {results: [{source_call_id?, content}]}, metrics?, ...}``.

Reading (one record per trajectory):

- a system step -> TextObservation(source="system"); a user step -> source "user";
- an agent step -> one ApiAction per tool call, carrying its id (a shell tool's call:
  CodeAction(bash)); its message and reasoning_content are the first call's reasoning, as
  in openai_chat; without calls, a MessageAction with reasoning_content as its reasoning;
- each observation result -> TextObservation(source="tool") linked by ``source_call_id``, or
  source "environment" when it names no call (a system step's events, an action without a call);
- per-step timestamps, models, metrics and extras go to ``details["steps"]`` by step_id;
  ``final_metrics`` is lineage.usage; the agent (name, version, model_name) is source.agent.

exporters/atif.py writes the inverse; what it keeps in ``extra.aceforge`` (E, q, v, the record's id)
is restored here, so converting an unchanged export back gives the same record.
"""

from __future__ import annotations

from typing import Any

import orjson

from data_catalog.sources.base import ConversionError, Detected, each_object, register, require
from data_catalog.sources.chat_common import ChatConverter, chat_data, content_parts, parse_arguments, parse_tools
from data_catalog.sources.step_dicts import call_step, message, observation
from schemas.agent_identity import agent_identity
from schemas.record import stable_id

SCHEMA_VERSION = "ATIF-v1.5"
_STEP_FIELDS = ("timestamp", "model_name", "reasoning_effort", "metrics", "extra")
_CONSUMED = ("schema_version", "session_id", "agent", "steps", "final_metrics", "extra")


def _text(value: Any, where: str) -> str:
    if value is None or isinstance(value, str):
        return value or ""
    if isinstance(value, list):  # content parts (ATIF 1.6: text and images)
        return content_parts(value, where)[0]
    return orjson.dumps(value).decode()  # a structured result


class _Steps:
    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self.calls: dict[str, str] = {}  # tool_call_id -> function name
        self.fields: dict[str, dict[str, Any]] = {}  # step_id -> what else the step says

    def add(self, step: dict[str, Any], where: str) -> None:
        source = step.get("source")
        text = _text(step.get("message"), where)
        if source in ("system", "user"):
            self.steps.append(observation(text, source))
        elif source == "agent":
            self._agent(step, text, where)
        else:
            raise ConversionError(f"{where}: unknown source {source!r}, expected system, user or agent")
        results = (step.get("observation") or {}).get("results") if isinstance(step.get("observation"), dict) else None
        for at, result in each_object(results or [], f"{where} observation.results"):
            content = result.get("content")
            if content is None and result.get("subagent_trajectory_ref"):
                content = result["subagent_trajectory_ref"]
            call_id = result.get("source_call_id")
            if call_id in self.calls:
                self.steps.append(observation(_text(content, at), "tool", self.calls[call_id], call_id))
            else:
                self.steps.append(observation(_text(content, at), "environment"))
        kept = {k: step[k] for k in _STEP_FIELDS if step.get(k) not in (None, {}, "")}
        if kept:
            self.fields[str(step.get("step_id", len(self.fields)))] = kept

    def _agent(self, step: dict[str, Any], text: str, where: str) -> None:
        reasoning = step.get("reasoning_content") or None
        calls = step.get("tool_calls") or []
        if not calls:
            self.steps.append(message(text, reasoning))
            return
        lead = "\n\n".join(part for part in (reasoning, text) if part) or None
        for at, call in each_object(calls, f"{where} tool_calls"):
            name = call.get("function_name")
            if not isinstance(name, str):
                raise ConversionError(f"{at} has no function_name")
            call_id = call.get("tool_call_id")
            self.calls[call_id] = name
            kwargs = parse_arguments(call.get("arguments"), at)
            self.steps.append(call_step(name, kwargs, call_id, lead))
            lead = None


@register
class AtifConverter(ChatConverter):
    name = "atif"
    description = "Harbor ATIF v1.x trajectories (schema_version ATIF-v1.N): steps with tool_calls and observations."
    layouts = (
        "one ATIF trajectory per JSON document (trajectory.json) or per JSONL line: {schema_version, session_id, "
        "agent, steps: [{step_id, source, message, reasoning_content?, tool_calls?, observation?}], final_metrics?}",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        version = value.get("schema_version") if isinstance(value, dict) else None
        if isinstance(version, str) and "ATIF" in version.upper() and isinstance(value.get("steps"), list):
            return 3, f"ATIF trajectory ({version})"
        return None

    def record_data(self, raw: Any) -> dict[str, Any]:
        version = require(raw, "schema_version", str)
        if not version.upper().startswith("ATIF-V1"):
            raise ConversionError(f"schema_version {version!r} is not ATIF v1.x")
        steps = _Steps()
        for where, step in each_object(require(raw, "steps", list), "steps"):
            steps.add(step, where)
        agent = raw.get("agent") if isinstance(raw.get("agent"), dict) else {}
        tools = parse_tools(agent.get("tool_definitions"), "agent.tool_definitions")
        extra = dict(raw.get("extra") or {})
        saved = extra.pop("aceforge", None)
        data = chat_data(self, {**raw, "id": raw.get("session_id")}, steps.steps, tools, _CONSUMED)
        details = data["details"]
        details.update({"schema_version": version, **({"extra": extra} if extra else {})})
        if steps.fields:
            details["steps"] = steps.fields
        for key in ("extra", "version"):
            if agent.get(key):
                details[f"agent_{key}"] = agent[key]
        data["source"]["agent"] = agent_identity(agent.get("name"), agent.get("model_name"), agent.get("version"))
        data["lineage"] = {"usage": raw.get("final_metrics") or {}}
        if isinstance(saved, dict):
            _restore(data, raw, saved)
        return data


def _restore(data: dict[str, Any], raw: dict[str, Any], saved: dict[str, Any]) -> None:
    """E, q, v and the id of an aceforge export, back from ``extra.aceforge`` (the id only while the
    trajectory is unchanged: its digest still matches)."""
    for part in ("task", "verifier"):
        if isinstance(saved.get(part), dict):
            data[part] = saved[part]
    if isinstance(saved.get("environment"), dict):
        data["environment"] = {**saved["environment"], "tools": data["environment"]["tools"]}
    unchanged = {**raw, "extra": {k: v for k, v in raw["extra"].items() if k != "aceforge"}}
    if saved.get("digest") == stable_id(unchanged) and isinstance(saved.get("id"), str):
        data["id"] = saved["id"]
