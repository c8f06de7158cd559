"""Gemini CLI sessions (``~/.gemini/tmp/<project hash>/chats/session-<time>-<id>.json[l]``): one record each.

Two layouts, both read:

- a JSON document ``{sessionId, projectHash, startTime, lastUpdated, messages, summary?}``;
- a JSONL log (newer CLIs): a header line ``{sessionId, projectHash, startTime, ...}``, then one
  message per line (a line with a known ``id`` rewrites that message), ``{"$set": {...}}`` lines
  that update session fields, and ``{"$rewindTo": id}`` lines that drop that message and every
  later one; replayed as gemini-cli's own loader replays it (see ``_messages``).

Messages (``{id, timestamp, type, content, ...}``):

- ``user`` -> TextObservation(source="user") (content: a string or ``[{text}]`` parts);
- ``gemini`` / ``model``: its ``thoughts`` (``{subject, description}``) are reasoning, never text;
  with ``toolCalls`` (``{id, name, args, result: [{functionResponse: {response: {output | error}}}
  | {text}], status}``) -> one ApiAction per call (``run_shell_command`` -> CodeAction(bash)), the
  thoughts and the message's text as the first call's reasoning, then each call's result as a tool
  observation linked by id (a call that has no result says its ``status``); without calls, a
  MessageAction;
- ``info`` / ``warning`` / ``error``: the CLI's notices to the user, not seen by the model: counted
  in ``details["events_not_steps"]``.

The agent's identity is source.agent: gemini-cli and the ``model`` of its replies (the file does not
say the CLI's version); the summed ``tokens`` are lineage.usage.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import orjson

from data_catalog.sources.base import ConversionError, Detected, each_object, register
from data_catalog.sources.chat_common import chat_data
from data_catalog.sources.session_logs import SessionLogConverter
from data_catalog.sources.step_dicts import call_step, message, observation
from schemas.agent_identity import agent_identity

_HEADER = ("sessionId", "projectHash")
_REPLIES = ("gemini", "model")
_NOTICES = ("info", "warning", "error")


def _text(content: Any, where: str) -> str:
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list):
        return "\n".join(part.get("text") or "" for _, part in each_object(content, f"{where} content"))
    raise ConversionError(f"{where}: content is {type(content).__name__}, expected a string or parts")


def _result(call: dict[str, Any], where: str) -> str:
    """What a call returned: its function response's output (or error), then any text parts after it."""
    texts = []
    for _, part in each_object(call.get("result") or [], f"{where} result"):
        response = (part.get("functionResponse") or {}).get("response")
        if isinstance(response, dict):
            value = response.get("output", response.get("error", response))
            texts.append(value if isinstance(value, str) else orjson.dumps(value).decode())
        elif isinstance(part.get("text"), str):
            texts.append(part["text"])
    return "\n".join(texts) if texts else f"[no result: status {call.get('status')!r}]"


def _messages(events: list[Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The session's metadata and its messages, the log replayed as gemini-cli's own loader does
    (``loadConversationRecord``): a message line upserts by id (a rewrite keeps its place); ``$rewindTo``
    drops that message and every later one (all of them when the id is unknown); ``$set`` and header
    lines merge into the metadata, and messages the metadata holds (a whole legacy session, or a
    ``$set`` of them) are the session's messages in place of the lines'."""
    metadata: dict[str, Any] = {}
    messages: dict[str, dict[str, Any]] = {}  # by id, in first-seen order
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            raise ConversionError(f"lines[{i}] is {type(event).__name__}, expected an object")
        if isinstance(event.get("$rewindTo"), str):
            ids = list(messages)
            kept = ids[: ids.index(event["$rewindTo"])] if event["$rewindTo"] in ids else []
            messages = {k: messages[k] for k in kept}
        elif isinstance(event.get("id"), str) and "type" in event:
            messages[event["id"]] = event
        elif isinstance(event.get("$set"), dict):
            metadata.update(event["$set"])
        else:
            metadata.update(event)
        if "type" in event and not isinstance(event.get("id"), str):
            raise ConversionError(f"lines[{i}]: a message without an id")
    listed = metadata.pop("messages", None)
    return metadata, list(listed) if isinstance(listed, list) and listed else list(messages.values())


@register
class GeminiCliConverter(SessionLogConverter):
    name = "gemini_cli"
    description = "Gemini CLI chat sessions (messages of type user / gemini with toolCalls and thoughts)."
    layouts = (
        "one session per JSON document: {sessionId, projectHash, startTime, lastUpdated, messages: [{id, type: "
        "user | gemini | info | error, content, thoughts?, toolCalls?, model?, tokens?}]}",
        "a JSONL session log: a {sessionId, projectHash, ...} header, message lines, $set and $rewindTo lines",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if not isinstance(value, dict):
            return None
        if all(k in value for k in _HEADER):
            return 3, "Gemini CLI session" if "messages" in value else "Gemini CLI session log header"
        if "$set" in value or "$rewindTo" in value:
            return 2, "Gemini CLI session log line"
        if value.get("type") in (*_REPLIES, "user", *_NOTICES) and "id" in value and "timestamp" in value:
            return 2 if value["type"] in _REPLIES or "toolCalls" in value else 1, "Gemini CLI session log line"
        return None

    def session_key(self, event: Any) -> Any:
        return event.get("sessionId") if isinstance(event, dict) else None

    def session_data(self, events: list[Any]) -> dict[str, Any]:
        header, messages = _messages(events)
        steps: list[dict[str, Any]] = []
        notices: Counter[str] = Counter()
        models: dict[str, None] = {}
        usage: Counter[str] = Counter()
        for where, msg in each_object(messages, "messages"):
            kind = msg.get("type")
            if kind == "user":
                steps.append(observation(_text(msg.get("content"), where), "user"))
            elif kind in _REPLIES:
                steps.extend(_reply(msg, where))
                if isinstance(msg.get("model"), str):
                    models[msg["model"]] = None
                tokens = msg.get("tokens") if isinstance(msg.get("tokens"), dict) else {}
                usage.update({k: v for k, v in tokens.items() if isinstance(v, int)})
            elif kind in _NOTICES:
                notices[kind] += 1
            else:
                raise ConversionError(f"{where}: unknown message type {kind!r}")
        details = {k: header[k] for k in ("projectHash", "startTime", "lastUpdated", "summary") if header.get(k)}
        if notices:
            details["events_not_steps"] = dict(notices)
        data = chat_data(self, {"id": header.get("sessionId"), "events": events}, steps, [], ("events",), details)
        data["source"]["agent"] = agent_identity("gemini-cli", models)
        data["lineage"] = {"usage": dict(usage)}
        return data


def _reply(msg: dict[str, Any], where: str) -> list[dict[str, Any]]:
    thoughts = [
        "\n".join(part for part in (t.get("subject"), t.get("description")) if isinstance(part, str) and part)
        for _, t in each_object(msg.get("thoughts") or [], f"{where} thoughts")
    ]
    reasoning = "\n\n".join(t for t in thoughts if t) or None
    text = _text(msg.get("content"), where)
    calls = list(each_object(msg.get("toolCalls") or [], f"{where} toolCalls"))
    if not calls:
        return [message(text, reasoning)]
    lead = "\n\n".join(part for part in (reasoning, text.strip()) if part) or None
    steps, results = [], []
    for at, call in calls:
        name, call_id = call.get("name"), call.get("id")
        if not isinstance(name, str):
            raise ConversionError(f"{at} has no name")
        args = call.get("args") if isinstance(call.get("args"), dict) else {}
        steps.append(call_step(name, args, call_id, None if steps else lead))
        results.append(observation(_result(call, at), "tool", name, call_id))
    return steps + results  # the model's calls, then what each returned (as the API exchanges them)
