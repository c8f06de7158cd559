"""OpenAI Agents SDK run state (``RunState.to_json()``, as saved to resume a run): one record per run.

``{$schemaVersion, current_agent: {name}, original_input, generated_items: [{type, raw_item, agent}],
model_responses: [{output, usage, response_id}], current_turn, max_turns, trace?, ...}``:

- ``original_input`` (a string: the user's message; or a list of Responses items) comes first;
- each generated item's ``raw_item`` is a Responses API item, read as openai_responses.py reads
  them: ``message_output_item`` -> MessageAction, ``tool_call_item`` / ``handoff_call_item`` ->
  the call (a handoff is the call of its ``transfer_to_...`` tool), ``tool_call_output_item`` /
  ``handoff_output_item`` -> the tool observation linked to it, ``reasoning_item`` -> the reasoning
  of the next action;
- a ``tool_approval_item`` repeats a call that waits for a human's approval: not a step; its call id is
  in ``details["pending_approvals"]`` (the run stopped there).

The agent's identity is source.agent, openai-agents (the run state says neither the model nor the SDK's
version); the agent's name and the state's schema version are lineage.generator; the model responses'
token counts, summed, are lineage.usage.
"""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import ConversionError, Detected, each_object, register
from data_catalog.sources.chat_common import ORPHANS_OPTION, ChatConverter, chat_data, keeps_orphans
from data_catalog.sources.openai_responses import Items
from schemas.agent_identity import agent_identity

_APPROVAL = "tool_approval_item"
_TOKENS = ("input_tokens", "output_tokens", "total_tokens")


def _usage(responses: Any) -> dict[str, int]:
    totals: dict[str, int] = {}
    for response in responses if isinstance(responses, list) else []:
        usage = response.get("usage") if isinstance(response, dict) else None
        for key in _TOKENS:
            value = (usage or {}).get(key)
            if isinstance(value, int):
                totals[key] = totals.get(key, 0) + value
    return totals


@register
class OpenAIAgentsConverter(ChatConverter):
    name = "openai_agents"
    description = "OpenAI Agents SDK run state (RunState.to_json(): original_input, generated_items with raw_item)."
    options = ORPHANS_OPTION
    layouts = (
        "{$schemaVersion, current_agent: {name}, original_input: str | [items], generated_items: [{type, raw_item: "
        "Responses item, agent}], model_responses: [{output, usage, response_id}], ...}",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if isinstance(value, dict) and "original_input" in value and isinstance(value.get("generated_items"), list):
            return 3, "OpenAI Agents SDK run state"
        return None

    def record_data(self, raw: Any) -> dict[str, Any]:
        if not isinstance(raw, dict) or not isinstance(raw.get("generated_items"), list):
            raise ConversionError("not an Agents SDK run state: expected original_input and generated_items")
        items = Items(keeps_orphans(self.opts.extra))
        original = raw.get("original_input")
        if isinstance(original, str):
            original = [{"type": "message", "role": "user", "content": original}]
        for where, item in each_object(original or [], "original_input"):
            items.add(item, where)
        pending = []
        for where, generated in each_object(raw["generated_items"], "generated_items"):
            raw_item = generated.get("raw_item")
            if not isinstance(raw_item, dict):
                raise ConversionError(f"{where} has no raw_item")
            if generated.get("type") == _APPROVAL:
                pending.append(raw_item.get("call_id"))
            else:
                items.add(raw_item, f"{where}.raw_item")
        items.flush_reasoning()
        trace = raw.get("trace") if isinstance(raw.get("trace"), dict) else {}
        details = {
            **({"pending_approvals": pending} if pending else {}),
            **({"reasoning_items_without_text": items.silent_reasoning} if items.silent_reasoning else {}),
            **{k: raw[k] for k in ("current_turn", "max_turns") if raw.get(k) is not None},
            **items.calls.note(),
        }
        original_id = trace.get("trace_id") or raw.get("conversation_id")
        data = chat_data(self, {"id": original_id, "state": raw}, items.steps, [], ("state",), details)
        agent = raw.get("current_agent") if isinstance(raw.get("current_agent"), dict) else {}
        data["source"]["agent"] = agent_identity("openai-agents")
        generator = {
            "agent_name": agent.get("name"),
            "state_schema": raw.get("$schemaVersion"),
        }
        data["lineage"] = {
            "generator": {k: v for k, v in generator.items() if v} or None,
            "usage": _usage(raw.get("model_responses")),
        }
        return data
