"""Claude Code session logs (``~/.claude/projects/<project>/<session id>.jsonl``): one record per session.

Each line is one event ``{type, uuid, parentUuid, sessionId, version, cwd, gitBranch,
timestamp, message?, isSidechain?, isMeta?, ...}``:

- ``user`` / ``assistant`` events carry an Anthropic message (``message.role``,
  ``message.content``: a string or content blocks), read as anthropic_blocks.py says:
  thinking -> reasoning, text -> MessageAction or user turn, tool_use -> ApiAction (``Bash``
  -> CodeAction(bash)), tool_result -> the tool observation linked to its call. Claude Code
  writes one event per block of one API message (same ``message.id``): they are one turn.
  A user event marked ``isMeta`` (a note the harness adds, such as a local command's caveat) or
  ``isCompactSummary`` (the summary that replaced the history when the context was compacted) is a
  system observation;
- events of a subagent run inside the session (``isSidechain: true``) are not steps of the
  main trajectory; they are counted. A subagent's own file (every message a sidechain one) converts
  as a session of its own, with ``agentId`` in details;
- ``summary`` events' texts go to ``details["summaries"]``; every other event (progress,
  file-history-snapshot, queue-operation, system notices) is no step and is counted by type
  in ``details["events_not_steps"]``.

The agent's identity is source.agent: claude-code, the ``version`` of its first message and the
``model`` of its assistant messages (the others in other_models, when a session used several);
lineage.usage sums each API message's usage once.
The session id is the original id; the working directory and git branch go to details.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from data_catalog.sources.anthropic_blocks import AnthropicTurns
from data_catalog.sources.base import ConversionError, Detected, register
from data_catalog.sources.chat_common import ORPHANS_OPTION, Calls, chat_data, keeps_orphans
from data_catalog.sources.session_logs import SessionLogConverter
from schemas.agent_identity import agent_identity

_MESSAGE_EVENTS = ("user", "assistant")
_OTHER_EVENTS = frozenset({"summary", "system", "progress", "file-history-snapshot", "queue-operation"})
_TOKENS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def _usage(messages: dict[str, dict[str, Any]]) -> dict[str, int]:
    """Token totals over API messages, each counted once (its events repeat the same usage)."""
    totals: Counter[str] = Counter()
    for usage in messages.values():
        totals.update({k: v for k, v in usage.items() if k in _TOKENS and isinstance(v, int)})
    return dict(totals)


@register
class ClaudeCodeConverter(SessionLogConverter):
    name = "claude_code"
    description = "Claude Code session logs (JSONL events with Anthropic messages): one record per session."
    options = ORPHANS_OPTION
    layouts = (
        "one event per line: {type: user | assistant | summary | progress | ..., uuid, parentUuid, sessionId, "
        "version, message: {role, content: str | [text | thinking | tool_use | tool_result | image blocks]}}",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            return None
        kind = value["type"]
        if kind in _MESSAGE_EVENTS and isinstance(value.get("message"), dict) and "sessionId" in value:
            return 3, "Claude Code session event"
        if kind in _OTHER_EVENTS and ("sessionId" in value or "leafUuid" in value or "messageId" in value):
            return 3, "Claude Code session event"
        return None

    def session_key(self, event: Any) -> Any:
        return event.get("sessionId") if isinstance(event, dict) else None

    def session_data(self, events: list[Any]) -> dict[str, Any]:
        turns = AnthropicTurns(Calls(keeps_orphans(self.opts.extra)))
        skipped: Counter[str] = Counter()
        summaries: list[str] = []
        models: dict[str, None] = {}
        usage: dict[str, dict[str, Any]] = {}
        first: dict[str, Any] = {}
        # A subagent's own file (subagents/agent-<id>.jsonl) is all sidechain: then those are its messages.
        subagent_file = not any(
            isinstance(e, dict) and e.get("type") in _MESSAGE_EVENTS and not e.get("isSidechain") for e in events
        )
        for i, event in enumerate(events):
            where = f"events[{i}]"
            if not isinstance(event, dict):
                raise ConversionError(f"{where} is {type(event).__name__}, expected an object")
            kind = event.get("type")
            if kind not in _MESSAGE_EVENTS or not isinstance(event.get("message"), dict):
                if kind == "summary" and isinstance(event.get("summary"), str):
                    summaries.append(event["summary"])
                skipped[str(kind)] += 1
                continue
            if event.get("isSidechain") and not subagent_file:
                skipped["sidechain"] += 1
                continue
            first = first or event
            msg = event["message"]
            harness = event.get("isMeta") or event.get("isCompactSummary")  # written by Claude Code, not the user
            role = "system" if kind == "user" and harness else msg.get("role", kind)
            turns.add(role, msg.get("content"), f"{where} message", msg.get("id"))
            if role == "assistant":
                if isinstance(msg.get("model"), str) and msg["model"] != "<synthetic>":
                    models[msg["model"]] = None
                if isinstance(msg.get("usage"), dict):
                    usage[str(msg.get("id"))] = msg["usage"]
        turns.flush()
        session = first.get("sessionId")
        details = {
            **{k: first[k] for k in ("cwd", "gitBranch", "agentId") if first.get(k)},
            **({"summaries": summaries} if summaries else {}),
            **({"events_not_steps": dict(skipped)} if skipped else {}),
            **turns.notes(),
        }
        data = chat_data(self, {"id": session, "events": events}, turns.steps, [], ("events",), details)
        data["source"]["agent"] = agent_identity("claude-code", models, first.get("version"))
        data["lineage"] = {"usage": _usage(usage)}
        return data
