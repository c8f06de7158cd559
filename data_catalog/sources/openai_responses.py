"""OpenAI Responses API items, as NeMo Gym rollouts store them (and bare responses or item lists).

Layouts:

- a NeMo Gym rollout: ``{responses_create_params: {input, tools, instructions?}, response: {id,
  model, output, usage}, reward, <the resources server's own metrics>}``;
- a NeMo Gym task: a rollout's request alone (``responses_create_params``, no response yet);
- a Responses API response object ``{object: "response", id, output, ...}`` (its input unknown);
- a conversation as items: ``{input: [items], output?: [items], tools?}`` (a response saved
  without ``object``: its output is read all the same), or a bare JSON array of items.

Items, in order (the request's ``input``, then the response's ``output``):

- ``message`` (role system / developer / user / assistant; content a string or parts
  ``input_text`` / ``output_text`` / ``input_image``) -> a system or user TextObservation,
  or a MessageAction; ``instructions`` is the first system observation;
- ``reasoning`` (its ``summary`` / ``content`` texts) -> the reasoning of the next action;
  reasoning no action follows (the run ended, or a user message interrupted it) -> an empty
  MessageAction carrying it, where it happened; an encrypted or empty one says nothing and is
  counted in details;
- ``function_call`` / ``custom_tool_call`` -> ApiAction with its ``call_id`` (a shell tool's
  call: CodeAction(bash), as every format writes it); ``function_call_output`` /
  ``custom_tool_call_output`` -> TextObservation(source="tool") linked to its call;
- ``local_shell_call`` (its exec action) -> CodeAction(bash), ``local_shell_call_output`` its
  result; ``web_search_call`` -> ApiAction ``web_search`` with the search action (its results
  stay inside the API);
- any other item type (computer_call, file_search_call, ...) is refused by name.

v: a numeric ``reward`` is kind ``reward``, computed by the source: ``passed`` when a reward in
[0, 1] is 1, undecided for other scales; the rollout's other top-level fields (the server's
metrics) are its evidence.
"""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import ConversionError, Detected, each_object, register
from data_catalog.sources.chat_common import (
    ORPHANS_OPTION,
    Calls,
    ChatConverter,
    chat_data,
    keeps_orphans,
    parse_arguments,
    parse_tools,
)
from data_catalog.sources.step_dicts import api_call, call_step, image, message, observation
from schemas.agent_identity import agent_identity
from schemas.record import VerifierResult

_ROLLOUT = ("responses_create_params", "response")
_CALLS = {"function_call": "arguments", "custom_tool_call": "input"}
_OUTPUTS = ("function_call_output", "custom_tool_call_output", "local_shell_call_output")
_TEXT_PARTS = frozenset({"input_text", "output_text", "text", "summary_text", "reasoning_text", "refusal"})
_HOSTED = ("local_shell_call", "web_search_call")  # calls the API's own tools make
_ITEM_TYPES = frozenset({"message", "reasoning", *_CALLS, *_OUTPUTS, *_HOSTED})


def _text(content: Any, where: str) -> tuple[str, list[str]]:
    """A message's text and image URLs (content: a string or a list of parts)."""
    if isinstance(content, str):
        return content, []
    if content is None:
        return "", []
    if not isinstance(content, list):
        raise ConversionError(f"{where}: content is {type(content).__name__}, expected a string or a list of parts")
    texts, images = [], []
    for at, part in each_object(content, f"{where} content"):
        kind = part.get("type")
        if kind in _TEXT_PARTS:
            texts.append(part.get("text") or part.get("refusal") or "")
        elif kind == "input_image":
            images.append(part.get("image_url") or part.get("file_id") or "")
        else:
            raise ConversionError(f"{at}: unsupported content part {kind!r}")
    return "\n".join(texts), images


class Items:
    """The steps of a sequence of Responses items."""

    def __init__(self, keep_orphans: bool = False, raw_arguments: bool = False) -> None:
        self.steps: list[dict[str, Any]] = []
        self.calls = Calls(keep_orphans)
        # Whether arguments that are not JSON are kept as {"arguments": text}: a harness that logs what the
        # model wrote (Codex) records such a call, which failed; elsewhere it is a broken record.
        self.raw_arguments = raw_arguments
        self.unparsed_arguments = 0
        self.reasoning: list[str] = []  # reasoning items waiting for the action they lead to
        self.silent_reasoning = 0  # encrypted or empty reasoning items

    def add(self, item: dict[str, Any], where: str) -> None:
        kind = item.get("type", "message" if "role" in item else None)
        if kind == "message":
            if item.get("role") != "assistant":
                self.flush_reasoning()  # the turn was interrupted: its reasoning stays before the interruption
            self._message(item, where)
        elif kind == "reasoning":
            parts = [*(item.get("summary") or []), *(item.get("content") or [])]
            text = _text(parts, where)[0].strip()
            if text:
                self.reasoning.append(text)
            else:
                self.silent_reasoning += 1
        elif kind in _CALLS:
            name = item.get("name")
            if not isinstance(name, str):
                raise ConversionError(f"{where}: {kind} has no name")
            raw = item.get(_CALLS[kind])
            kwargs = self._arguments(raw, where) if kind == "function_call" else {"input": raw}
            self._call(name, kwargs, item.get("call_id") or item.get("id"))
        elif kind in _HOSTED:
            action = item.get("action") if isinstance(item.get("action"), dict) else {}
            kwargs = {k: v for k, v in action.items() if k != "type" and v is not None}
            if kind == "local_shell_call":  # its exec action: command, working_directory, timeout_ms, env
                self._call("shell", kwargs, item.get("call_id") or item.get("id"))
            else:  # the search runs inside the API: no output item follows
                self.steps.append(api_call("web_search", kwargs, item.get("id"), self._take_reasoning()))
        elif kind in _OUTPUTS:
            call_id, name = self.calls.answer(item.get("call_id"), where)
            output = item.get("output")
            text = output if isinstance(output, str) else _text(output, where)[0]
            self.steps.append(observation(text, "tool", name, call_id))
        else:
            raise ConversionError(f"{where}: unsupported item type {kind!r}")

    def _call(self, name: str, kwargs: dict[str, Any], call_id: Any) -> None:
        self.calls.add(call_id, name)
        self.steps.append(call_step(name, kwargs, call_id, self._take_reasoning()))

    def _arguments(self, raw: Any, where: str) -> dict[str, Any]:
        try:
            return parse_arguments(raw, where)
        except ConversionError:
            if not self.raw_arguments or not isinstance(raw, str):
                raise
            self.unparsed_arguments += 1
            return {"arguments": raw}

    def _message(self, item: dict[str, Any], where: str) -> None:
        role = item.get("role")
        text, images = _text(item.get("content"), where)
        if role == "assistant":
            if images:
                raise ConversionError(f"{where}: assistant message with image content")
            self.steps.append(message(text, self._take_reasoning()))
        elif role in ("system", "developer", "user"):
            source = "user" if role == "user" else "system"
            self.steps.append(observation(text, source))
            self.steps.extend(image(url, source) for url in images)
        else:
            raise ConversionError(f"{where}: unknown role {role!r}")

    def flush_reasoning(self) -> None:
        """Reasoning that no action followed (the run ended, or a user interrupted it) as an empty
        MessageAction carrying it: the model's thought is kept where it happened."""
        if self.reasoning:
            self.steps.append(message("", self._take_reasoning()))

    def _take_reasoning(self) -> str | None:
        text = "\n\n".join(self.reasoning) or None
        self.reasoning = []
        return text


def _typed_items(items: Any) -> bool:
    """Whether ``items`` is a list of Responses items: each typed (chat messages have no ``type``), and
    every type one this format reads or one a call, result or reasoning among them vouches for (an item
    type it does not read is then refused by name in the conversion)."""
    if not isinstance(items, list) or not items or not all(isinstance(i, dict) and "type" in i for i in items):
        return False
    types = {i["type"] for i in items}
    return types <= _ITEM_TYPES or bool(types & (_ITEM_TYPES - {"message"}))


def _whole_output(output: Any) -> Any:
    """A response's output items. Some agents (aviary) save the transcript as it grew, a list of lists
    each extending the last: the last one is the whole transcript."""
    if not isinstance(output, list) or not any(isinstance(item, list) for item in output):
        return output
    if not all(isinstance(item, list) for item in output):
        raise ConversionError("output mixes items and lists of items")
    for shorter, longer in zip(output, output[1:]):
        if longer[: len(shorter)] != shorter:
            raise ConversionError("output is a list of lists that are not one growing transcript")
    return output[-1]


def reward_verdict(reward: Any, evidence: dict[str, Any], verifier: str) -> dict[str, Any] | None:
    """A reward the source computed, as v (kind ``reward``); None when there is none."""
    if reward is None:
        return None
    if isinstance(reward, bool) or not isinstance(reward, (int, float)):
        raise ConversionError(f"field 'reward' is {type(reward).__name__}, expected a number")
    passed = reward >= 1.0 if 0.0 <= reward <= 1.0 else None
    result = VerifierResult(passed=passed, score=float(reward), evidence=evidence, verifier=verifier)
    return {"kind": "reward", "result": result.model_dump(mode="json")}


@register
class OpenAIResponsesConverter(ChatConverter):
    name = "openai_responses"
    description = "OpenAI Responses API items (NeMo Gym rollouts): function_call / function_call_output, reward as v."
    options = ORPHANS_OPTION
    layouts = (
        "NeMo Gym rollouts: {responses_create_params: {input, tools}, response: {output, usage, model}, reward, ...}"
        " (or the request alone: a task)",
        "a Responses API response {object: response, output: [items]}, or {input: [items], tools?}, "
        "or a JSON array of items",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if isinstance(value, dict) and all(isinstance(value.get(k), dict) for k in _ROLLOUT):
            return 3, "NeMo Gym rollout (Responses items)"
        request = value.get("responses_create_params") if isinstance(value, dict) else None
        if isinstance(request, dict) and isinstance(request.get("input"), (list, str)):
            return 3, "NeMo Gym task (a request, no response yet)"
        if isinstance(value, dict) and value.get("object") == "response" and isinstance(value.get("output"), list):
            return 3, "Responses API response"
        if isinstance(value, dict) and "input" in value and _typed_items(value.get("output")):
            return 3, "Responses input and output items"
        if _typed_items(value.get("input") if isinstance(value, dict) else value):
            return 3, "Responses items"
        return None

    def items(self, document: Any, source: str = "-") -> list[Any]:
        if isinstance(document, list) and document and self.sniff(document):
            return [{"input": document}]  # one conversation of items, not a list of records
        return super().items(document, source)

    def record_data(self, raw: Any) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise ConversionError(f"record is {type(raw).__name__}, expected an object")
        rollout = isinstance(raw.get("responses_create_params"), dict)
        request = raw["responses_create_params"] if rollout else raw
        # A response object, or {input, output} saved without "object": either way its output is read.
        own_output = raw.get("object") == "response" or isinstance(raw.get("output"), list)
        response = raw.get("response") if rollout else (raw if own_output else {})
        response = response if isinstance(response, dict) else {}
        inputs, outputs = request.get("input"), _whole_output(response.get("output"))
        if isinstance(inputs, str):  # the request's input as one user message
            inputs = [{"type": "message", "role": "user", "content": inputs}]
        if not isinstance(inputs, list) and not isinstance(outputs, list):
            raise ConversionError("no Responses items: expected input and/or output lists of items")
        conversation = Items(keeps_orphans(self.opts.extra))
        if isinstance(request.get("instructions"), str) and request["instructions"]:
            conversation.steps.append(observation(request["instructions"], "system"))
        for field, items in (("input", inputs), ("output", outputs)):
            for where, item in each_object(items or [], field):
                conversation.add(item, where)
        conversation.flush_reasoning()
        tools = parse_tools(request.get("tools") or response.get("tools"))
        consumed = (*_ROLLOUT, "reward", "input", "output", "tools", "instructions", "id", "object", "model", "usage")
        data = chat_data(self, {**raw, "id": response.get("id") or raw.get("id")}, conversation.steps, tools, consumed)
        evidence = {k: v for k, v in raw.items() if k not in consumed}
        verdict = reward_verdict(raw.get("reward"), evidence, "nemo-gym" if rollout else "source")
        if verdict is not None:  # the rollout's other fields are the reward's evidence, not details
            data["verifier"] = verdict
            data["details"] = {}
        data["details"].update(conversation.calls.note())
        if conversation.silent_reasoning:
            data["details"]["reasoning_items_without_text"] = conversation.silent_reasoning
        data["source"]["agent"] = agent_identity(None, response.get("model") or request.get("model"))
        data["lineage"] = {"usage": response.get("usage") or {}}
        return data
