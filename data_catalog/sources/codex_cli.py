"""OpenAI Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``): one record per session.

Each line is ``{timestamp, type, payload}``:

- ``session_meta`` (the first line): the session ``id`` (the original id), ``cli_version``,
  ``originator``, ``model_provider``, ``cwd``, ``git``; its ``base_instructions`` (or
  ``instructions``) text is the first system observation;
- ``response_item``: the Responses API items the model saw and wrote, read as
  openai_responses.py reads them (developer messages are system observations, reasoning
  summaries the reasoning of the next action, ``shell`` / ``local_shell_call`` a
  CodeAction(bash), function and custom tool calls ApiActions linked to their outputs).
  Arguments the model wrote that are not JSON are kept as ``{"arguments": text}`` (the call
  failed in the run; details count them). The ``<environment_context>`` / AGENTS.md turns Codex
  sends as user messages stay in the trajectory but do not state the task;
- ``turn_context``: the model of each turn -> source.agent (with ``cli_version``), its reasoning
  effort -> lineage.generator;
- ``event_msg``: the UI's copy of the same conversation (user_message, agent_message,
  agent_reasoning) and run events; not steps, counted by type in ``details["events_not_steps"]``;
  the last ``token_count`` total is lineage.usage;
- ``compacted``: the summary Codex replaced the earlier history with -> a system observation.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from data_catalog.sources.base import ConversionError, Detected, register
from data_catalog.sources.chat_common import ORPHANS_OPTION, chat_data, keeps_orphans
from data_catalog.sources.openai_responses import Items
from data_catalog.sources.session_logs import SessionLogConverter
from data_catalog.sources.step_dicts import observation
from schemas.agent_identity import agent_identity

_LINE_TYPES = frozenset({"session_meta", "response_item", "turn_context", "event_msg", "compacted"})
_META = ("cwd", "originator", "model_provider", "source", "git")


def _instructions(meta: dict[str, Any]) -> str | None:
    value = meta.get("base_instructions") or meta.get("instructions")
    if isinstance(value, dict):
        value = value.get("text")
    return value if isinstance(value, str) and value.strip() else None


@register
class CodexCliConverter(SessionLogConverter):
    name = "codex_cli"
    description = (
        "OpenAI Codex CLI rollouts ({timestamp, type, payload} lines of Responses items): one record per session."
    )
    options = ORPHANS_OPTION
    layouts = (
        "one line each: {timestamp, type: session_meta | response_item | turn_context | event_msg | compacted, "
        "payload}",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if isinstance(value, dict) and value.get("type") in _LINE_TYPES and isinstance(value.get("payload"), dict):
            return 3, "Codex CLI rollout line"
        return None

    def session_key(self, event: Any) -> Any:
        if isinstance(event, dict) and event.get("type") == "session_meta" and isinstance(event.get("payload"), dict):
            return event["payload"].get("id")
        return None

    def session_data(self, events: list[Any]) -> dict[str, Any]:
        items = Items(keeps_orphans(self.opts.extra), raw_arguments=True)
        meta: dict[str, Any] = {}
        models: dict[str, None] = {}
        efforts: dict[str, None] = {}
        skipped: Counter[str] = Counter()
        usage: dict[str, Any] = {}
        for i, event in enumerate(events):
            where = f"lines[{i}]"
            if not isinstance(event, dict) or not isinstance(event.get("payload"), dict):
                raise ConversionError(f"{where} is not a rollout line {{timestamp, type, payload}}")
            kind, payload = event.get("type"), event["payload"]
            if kind == "session_meta":
                meta = meta or payload
                if text := _instructions(payload):
                    items.steps.append(observation(text, "system"))
            elif kind == "response_item":
                items.add(payload, f"{where} payload")
            elif kind == "turn_context":
                if isinstance(payload.get("model"), str):
                    models[payload["model"]] = None
                if isinstance(payload.get("effort"), str):
                    efforts[payload["effort"]] = None
            elif kind == "compacted" and isinstance(payload.get("message"), str):
                items.flush_reasoning()
                items.steps.append(observation(payload["message"], "system"))
            else:
                skipped[f"{kind}:{payload.get('type')}" if kind == "event_msg" else str(kind)] += 1
                info = payload.get("info") if payload.get("type") == "token_count" else None
                if isinstance(info, dict) and isinstance(info.get("total_token_usage"), dict):
                    usage = info["total_token_usage"]
        items.flush_reasoning()
        details = {
            **{k: meta[k] for k in _META if meta.get(k)},
            **({"events_not_steps": dict(skipped)} if skipped else {}),
            **({"reasoning_items_without_text": items.silent_reasoning} if items.silent_reasoning else {}),
            **({"unparsed_arguments": items.unparsed_arguments} if items.unparsed_arguments else {}),
            **items.calls.note(),
        }
        data = chat_data(self, {"id": meta.get("id"), "events": events}, items.steps, [], ("events",), details)
        data["source"]["agent"] = agent_identity("codex", models, meta.get("cli_version"))
        effort = next(iter(efforts)) if len(efforts) == 1 else (list(efforts) or None)
        data["lineage"] = {"generator": {"reasoning_effort": effort} if effort else None, "usage": usage}
        return data
