"""Conversions of records of an earlier schema version whose values moved: each takes a record as that version
stored it (a JSON object, or a Parquet row's parts) and returns it as the next version stores it.

schemas/versions.py names each one beside the version that needs it; ``load_record`` applies those of every
version after the record's own, so a record of any version reads as the current one.
"""

from __future__ import annotations

from typing import Any

from schemas.agent_identity import TAU2, agent_identity

# The readers that put the agent's identity in lineage.generator up to schema 1.2, and the framework each one
# reads (None: the file's own name for its agent, ``generator.agent``; "": a format no framework is named by).
_IDENTITY_IN_GENERATOR = {
    "agentbench": "agentbench",
    "aider": "aider",
    "anthropic_messages": "",
    "atif": None,
    "claude_code": "claude-code",
    "codex_cli": "codex",
    "gemini_cli": "gemini-cli",
    "inspect_ai": "inspect_ai",
    "letta": "letta",
    "mini_swe_agent": "mini-swe-agent",
    "openai_agents": "openai-agents",
    "openai_responses": "",
    "openhands": "openhands",
    "smolagents": "smolagents",
    "swe_agent": "swe-agent",
}


def move_agent_identity(data: dict[str, Any]) -> dict[str, Any]:
    """1.2 -> 1.3: the agent's identity (framework, model, version) a reader wrote in lineage.generator goes to
    ``source.agent``; the generator keeps the rest (an edit format, a reasoning effort), or is None when nothing
    is left. Records of other formats (aceforge's own, whose generator is its backend) are left as they were."""
    source, lineage = data.get("source"), data.get("lineage") or {}
    if not isinstance(source, dict) or not isinstance(lineage, dict):
        return data  # not a record: left for validation to say so
    fmt, generator = source.get("format"), lineage.get("generator")
    if not isinstance(generator, dict) or source.get("agent") is not None:
        return data
    if fmt == "tau2_results":  # the agent's model is in the run's own agent_info, kept there as the file has it
        info = generator.get("agent_info")
        return {**data, "source": {**source, "agent": agent_identity(TAU2, _get(info, "llm"))}}
    if fmt not in _IDENTITY_IN_GENERATOR:
        return data
    generator = dict(generator)
    framework, named = _IDENTITY_IN_GENERATOR[fmt], generator.pop("agent", None)
    if fmt == "openhands" and isinstance(named, str) and named != "openhands":
        generator["agent_class"] = named  # the reader named the agent by its class (CodeActAgent)
    identity = agent_identity(
        named if framework is None else framework, generator.pop("model", None), generator.pop("version", None)
    )
    return {**data, "source": {**source, "agent": identity}, "lineage": {**lineage, "generator": generator or None}}


def _get(value: Any, key: str) -> Any:
    return value.get(key) if isinstance(value, dict) else None
