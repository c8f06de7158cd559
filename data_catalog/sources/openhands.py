"""OpenHands trajectories: evaluation output (``output.jsonl``) and event lists (saved or replayed).

Layouts:

- an evaluation output row: ``{instance_id, instruction, history: [events], test_result:
  {git_patch, report?}, metadata: {agent_class, llm_config: {model}}, metrics, error, instance}``;
- an event list: a JSON array of events (a saved trajectory, OpenHands' replay files);
- older outputs (the resolver's) write an action's args beside it and no ``source``: there the
  first message is the user's task and later ones the agent's.

An event is an action (``action``, ``args``) or an observation (``observation``,
``content``, ``cause``), from ``source`` user / agent / environment; a tool call's
events carry ``tool_call_metadata: {function_name, tool_call_id, model_response?}``.

- ``system`` -> TextObservation(source="system"); its ``args.tools`` are E's tools;
- ``message`` -> the user's TextObservation, or the agent's MessageAction;
- ``run`` -> CodeAction(bash), ``run_ipython`` -> CodeAction(python) (the shell command is
  a CodeAction in every format); ``finish`` -> MessageAction with its final thought;
- any other action (edit, read, browse, think, ...) -> the tool call the model made: its
  name and arguments from ``model_response`` when the event keeps it, else the action's
  name and arguments;
- an action's ``args.thought`` is its reasoning and its tool_call_id links its result;
- an observation -> TextObservation (source "tool" when it answers a call, else
  "environment"; the user's own messages are actions);
- bookkeeping events (agent state changes, recall of the workspace context, condensation,
  null observations) are not steps: their count is kept in details.

v: kind ``unit_tests`` when the output states a verdict (``report.resolved`` in
``test_result`` or beside it); the patch, the error and the instance go to details;
lineage: the model, the agent class, the accumulated cost and token usage.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from data_catalog.sources.base import ConversionError, Detected, each_object, register, require
from data_catalog.sources.chat_common import ChatConverter, chat_data, parse_arguments, parse_tools, resolved_verdict
from data_catalog.sources.step_dicts import call_step, code, message, observation
from schemas.agent_identity import agent_identity

_BOOKKEEPING = frozenset({"change_agent_state", "agent_state_changed", "recall", "condensation", "null", "pause"})
# What OpenHands adds to an action's args that the model did not write.
_ARGS_NOT_FROM_MODEL = frozenset(
    {
        "thought",
        "impl_source",
        "translated_ipython_code",
        "confirmation_state",
        "security_risk",
        "hidden",
        "blocking",
        "is_input",
        "is_confirmed",
        "include_extra",
        "kernel_init_code",
        "wait_for_response",
        "image_urls",
        "images_urls",
        "action_risk",
        "keep_prompt",
    }
)
_CONSUMED = ("instance_id", "instruction", "history", "test_result", "metadata", "metrics", "report")


def is_event(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("action") or value.get("observation"), str)
        and "role" not in value
    )


def _model_call(metadata: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The (name, arguments) of the call a model response made, found by the event's tool_call_id."""
    response = metadata.get("model_response")
    choices = response.get("choices") if isinstance(response, dict) else None
    if not choices or not isinstance(choices[0], dict):
        return None
    for call in (choices[0].get("message") or {}).get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict) and call.get("id") == metadata.get("tool_call_id"):
            return function.get("name") or metadata.get("function_name"), parse_arguments(
                function.get("arguments"), "model_response"
            )
    return None


class _Events:
    """The steps of one event stream."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self.tools: list = []
        self.calls: dict[str, str] = {}  # tool_call_id -> function name
        self.skipped: Counter[str] = Counter()
        self.messages = 0  # message actions so far: without a source, the first is the user's task

    def add(self, event: dict[str, Any], where: str) -> None:
        kind = event.get("action") or event.get("observation")
        if kind in _BOOKKEEPING:
            self.skipped[kind] += 1
        elif "action" in event:
            self._action(event, where)
        elif "observation" in event:
            self._observation(event)
        else:
            raise ConversionError(f"{where} is neither an action nor an observation")

    def _action(self, event: dict[str, Any], where: str) -> None:
        # Older outputs (the resolver's) write an action's args beside it, and no source.
        action, args = event["action"], event.get("args") if isinstance(event.get("args"), dict) else event
        source = event.get("source") or ("agent" if self.messages else "user")
        metadata = event.get("tool_call_metadata") if isinstance(event.get("tool_call_metadata"), dict) else {}
        call_id = metadata.get("tool_call_id")
        thought = args.get("thought") or None
        text = args.get("content") if isinstance(args.get("content"), str) else event.get("message") or ""
        if action == "system":
            self.tools = parse_tools(args.get("tools"), f"{where} args.tools")
            self.steps.append(observation(text, "system"))
        elif action == "message" and source == "user":
            self.messages += 1
            self.steps.append(observation(text, "user"))
        elif action == "message":
            self.messages += 1
            self.steps.append(message(text, thought))
        elif action == "finish":
            text = args.get("final_thought") or event.get("message") or thought or ""
            self.steps.append(message(text, thought if thought != text else None))
        elif action in ("run", "run_ipython"):
            language, field = ("bash", "command") if action == "run" else ("python", "code")
            self.steps.append(code(language, args.get(field) or "", thought, call_id))
        else:
            found = _model_call(metadata)
            if found is None and action == "think":  # the thought is the call's one argument
                found, thought = ("think", {"thought": thought or ""}), None
            if found is None:
                name = metadata.get("function_name") or action
                found = name, {k: v for k, v in args.items() if k not in _ARGS_NOT_FROM_MODEL and k != "action"}
            self.steps.append(call_step(found[0], found[1], call_id, thought))
        if call_id:
            self.calls[call_id] = metadata.get("function_name") or action

    def _observation(self, event: dict[str, Any]) -> None:
        metadata = event.get("tool_call_metadata") if isinstance(event.get("tool_call_metadata"), dict) else {}
        call_id = metadata.get("tool_call_id")
        content = event.get("content")
        text = content if isinstance(content, str) else event.get("message") or ""
        if call_id in self.calls:
            self.steps.append(observation(text, "tool", self.calls[call_id], call_id))
        else:
            self.steps.append(observation(text, "environment"))


@register
class OpenHandsConverter(ChatConverter):
    name = "openhands"
    description = "OpenHands evaluation output (output.jsonl, event-stream history) and event lists."
    layouts = (
        "evaluation output rows: {instance_id, instruction, history: [events], test_result, metadata, metrics, "
        "instance}",
        "an event list (a saved or replayed trajectory): [{id, source, action, args} | {id, source, observation, "
        "content, cause}, ...]",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        history = value.get("history") if isinstance(value, dict) else None
        if isinstance(history, list) and history and is_event(history[0]):
            return 3, "OpenHands evaluation output (event-stream history)"
        if isinstance(value, list) and value and all(is_event(e) for e in value[:20]):
            return 3, "OpenHands event stream"
        return None

    def items(self, document: Any, source: str = "-") -> list[Any]:
        if isinstance(document, list) and document and is_event(document[0]):
            return [{"history": document}]  # one trajectory, not a list of records
        return super().items(document, source)

    def record_data(self, raw: Any) -> dict[str, Any]:
        events = _Events()
        for where, event in each_object(require(raw, "history", list), "history"):
            events.add(event, where)
        data = chat_data(self, {**raw, "id": raw.get("instance_id")}, events.steps, events.tools, _CONSUMED)
        if isinstance(raw.get("instruction"), str) and raw["instruction"]:
            data["task"]["instruction"] = raw["instruction"]
        test_result = raw.get("test_result") if isinstance(raw.get("test_result"), dict) else {}
        report = test_result.get("report") or raw.get("report") or {}
        verdict = resolved_verdict(report.get("resolved") if isinstance(report, dict) else None)
        if verdict is not None:
            data["verifier"] = verdict
        details = data["details"]
        details.update((k, v) for k, v in test_result.items() if k != "report")
        if raw.get("instance_id") is not None:
            details["instance_id"] = raw["instance_id"]
        if events.skipped:
            details["events_not_steps"] = dict(events.skipped)
        metadata = raw.get("metadata") if isinstance(raw.get("metadata"), dict) else {}
        llm = metadata.get("llm_config") if isinstance(metadata.get("llm_config"), dict) else {}
        metrics = raw.get("metrics") if isinstance(raw.get("metrics"), dict) else {}
        data["source"]["agent"] = agent_identity("openhands", llm.get("model"))
        agent_class = metadata.get("agent_class")
        usage = {k: metrics[k] for k in ("accumulated_cost", "accumulated_token_usage") if metrics.get(k) is not None}
        data["lineage"] = {"generator": {"agent_class": agent_class} if agent_class else None, "usage": usage}
        if "git_patch" in test_result:  # a repository the agent patched (SWE-bench and its kin)
            data["environment"]["kind"] = "swe_repo"
        return data
