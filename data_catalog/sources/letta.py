"""Letta agent files (``.af``, ``letta export``): one record per agent, its message history as τ.

Two layouts, both JSON:

- the AgentFileSchema of Letta >= 0.8 ``{agents: [...], groups, blocks, files, sources, tools, mcp_servers,
  metadata: {revision_id}, created_at}``: each agent ``{id, name, agent_type, system, llm_config, tool_ids,
  messages, ...}``, its tools found by id in the file's ``tools``; every agent is a record (a sleeptime
  agent beside its main one too);
- the single-agent file of Letta 0.6-0.7 ``{name, agent_type, version, system, llm_config, tools,
  messages, core_memory, ...}``;
- either written as one JSON string (some of letta-ai/agent-file's own examples are).

Messages are chat-completions messages with Letta's content parts (``{type: text | reasoning |
omitted_reasoning | redacted_reasoning}``), read as openai_chat reads a message once the parts are
unpacked: ``reasoning`` parts -> reasoning, never text; an assistant's text beside its ``tool_calls``
is its inner monologue, the first call's reasoning; every call is an ApiAction (``send_message``, by
which a MemGPT agent speaks to the user, too); ``tool`` messages are the linked results. A user
message that is a JSON event from Letta (``{"type": "user_message", "message": ...}``) is the user's
``message``; the other events (``login``, ``heartbeat``, ``system_alert``) are Letta's own, so system
observations. The tools are E's tools (their ``json_schema``); memory blocks and tool source code stay
in the file (details name the blocks). source.agent is letta, the file's ``version`` and
``llm_config.model``; lineage.generator is ``{schema_revision, agent_type, agent_name}``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import orjson

from data_catalog.sources.base import ConversionError, Detected, each_object, register, require
from data_catalog.sources.chat_common import ChatConverter, chat_data, parse_tools
from data_catalog.sources.openai_chat import message_steps
from schemas.agent_identity import agent_identity

_LETTA_EVENTS = frozenset({"login", "heartbeat", "system_alert"})  # user-role messages Letta itself writes
_HIDDEN_REASONING = frozenset({"omitted_reasoning", "redacted_reasoning"})


def _user_event(text: str) -> dict[str, Any] | None:
    """The Letta event a user message's text is (``{"type": ..., ...}``), else None."""
    if not text.startswith("{"):
        return None
    try:
        event = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return event if isinstance(event, dict) and isinstance(event.get("type"), str) else None


def _chat_message(msg: dict[str, Any], where: str, hidden: Counter[str]) -> dict[str, Any]:
    """One Letta message as the chat-completions message it stands for."""
    role = msg.get("role")
    texts, reasoning = [], []
    content = msg.get("content")
    parts = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
    for at, part in each_object(parts, f"{where} content"):
        kind = part.get("type")
        if kind == "text" and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif kind == "reasoning" and isinstance(part.get("reasoning"), str):
            reasoning.append(part["reasoning"])
        elif kind in _HIDDEN_REASONING:
            hidden[kind] += 1
        else:
            raise ConversionError(f"{at}: unsupported content part {kind!r}")
    text = "\n".join(texts).strip() if role == "assistant" else "\n".join(texts)
    if role == "user" and (event := _user_event(text)) is not None:
        if event["type"] == "user_message" and isinstance(event.get("message"), str):
            text = event["message"]
        elif event["type"] in _LETTA_EVENTS:
            role = "system"
    out: dict[str, Any] = {"role": role, "content": text}
    if role == "assistant":
        out["tool_calls"] = msg.get("tool_calls") or []
        out["reasoning_content"] = "\n\n".join(reasoning) or None
    elif role == "tool":
        out["tool_call_id"] = msg.get("tool_call_id")
    return out


def _tools(agent: dict[str, Any], file_tools: list[Any]) -> list[dict[str, Any]]:
    """The agent's tools as ``{name, description, parameters}`` (their json_schema)."""
    if "tool_ids" in agent and file_tools:
        by_id = {t.get("id"): t for t in file_tools if isinstance(t, dict)}
        tools = [by_id[i] for i in agent["tool_ids"] if i in by_id]
    else:
        tools = agent.get("tools") or []
    return [t.get("json_schema") or t for _, t in each_object(tools, "tools")]


@register
class LettaConverter(ChatConverter):
    name = "letta"
    description = "Letta agent files (.af): one record per agent, its messages, tool calls and tools."
    layouts = (
        "an agent file of Letta >= 0.8: {agents: [{name, agent_type, llm_config, tool_ids, messages: [{role, "
        "content: [text | reasoning parts], tool_calls?, tool_call_id?}]}], tools, blocks, groups, metadata}",
        "an agent file of Letta 0.6-0.7: {name, agent_type, version, llm_config, tools, messages, core_memory}",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if isinstance(value, str) and value.lstrip().startswith("{") and '"agents"' in value[:200]:
            return 3, "Letta agent file (JSON-encoded twice)"
        if not isinstance(value, dict):
            return None
        agents = value.get("agents")
        if isinstance(agents, list) and agents and isinstance(agents[0], dict) and "agent_type" in agents[0]:
            return 3, "Letta agent file"
        if "agent_type" in value and "llm_config" in value and isinstance(value.get("messages"), list):
            return 3, "Letta agent file (0.6-0.7)"
        return None

    def items(self, document: Any, source: str = "-") -> list[Any]:
        if isinstance(document, str) and document.lstrip().startswith("{"):
            document = orjson.loads(document)  # a file holding its JSON as one JSON string (agent-file's examples)
        if isinstance(document, dict) and isinstance(document.get("agents"), list):
            shared = {k: document.get(k) for k in ("tools", "metadata", "created_at")}
            return [{"agent": agent, **shared} for agent in document["agents"]]
        return list(super().items(document, source))

    def record_data(self, raw: Any) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise ConversionError(f"record is {type(raw).__name__}, expected an agent file")
        agent = require(raw, "agent", dict) if "agent" in raw else raw
        hidden: Counter[str] = Counter()
        messages = [
            _chat_message(msg, where, hidden)
            for where, msg in each_object(require(agent, "messages", list), "messages")
        ]
        steps, _, _ = message_steps(messages)
        tools = parse_tools(_tools(agent, raw.get("tools") or []))
        blocks = agent.get("core_memory") or agent.get("memory_blocks") or []
        details = {
            k: agent[k] for k in ("description", "created_at", "updated_at", "tags", "tool_rules") if agent.get(k)
        }
        labels = [b.get("label") for b in blocks if isinstance(b, dict)]
        details.update(
            {"memory_blocks": labels} if labels else {}, **({"hidden_reasoning": dict(hidden)} if hidden else {})
        )
        data = chat_data(
            self, {"id": agent.get("name") or agent.get("id"), "file": raw}, steps, tools, ("file",), details
        )
        data["environment"]["policy"] = agent.get("system") or None
        llm = agent.get("llm_config") if isinstance(agent.get("llm_config"), dict) else {}
        revision = (raw.get("metadata") or {}).get("revision_id")
        data["source"]["agent"] = agent_identity("letta", llm.get("model"), agent.get("version"))
        generator = {
            "schema_revision": revision,
            "agent_type": agent.get("agent_type"),
            "agent_name": agent.get("name"),
        }
        data["lineage"] = {"generator": {k: v for k, v in generator.items() if v} or None}
        return data
