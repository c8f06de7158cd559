"""Inspect AI evaluation logs: one record per sample (and epoch).

Layouts: an eval log written as JSON (``inspect eval --log-format json``, or ``inspect log
convert --to json``): ``{version, status, eval, plan, results, stats, samples}``; or one sample
as a ``.eval`` archive stores it (``samples/<id>_epoch_<n>.json``: ``{id, epoch, input, target,
messages, output, scores, ...}``), without the run's header.

A sample's ``messages``, in order:

- ``system`` / ``user`` -> TextObservation (image parts -> ImageObservation);
- ``assistant``: ``reasoning`` content parts (and the older ``reasoning`` field) are the reasoning
  of its action, never text; with ``tool_calls`` (``{id, function, arguments}``) -> one ApiAction
  per call (``bash`` -> CodeAction(bash)), its text the first call's lead-in; else a MessageAction;
- ``tool`` (``tool_call_id``, ``function``, ``error?``) -> TextObservation(source="tool") linked to
  its call; an error the tool reported goes to ``details["tool_errors"]``. A call's ``view`` (how the
  viewer displays it) is not read.

q: the first user turn; ``target`` is ``task.expected_outputs``. v: kind ``reward`` from the first
scorer (``C`` / ``I`` / ``P`` / ``N`` read as 1 / 0 / 0.5 / 0, as Inspect's metrics read them), all
scores as evidence, computed by the source. The agent's identity is source.agent: inspect_ai,
its version (``eval.packages``) and ``eval.model``; the task and solvers are lineage.generator.
"""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import ConversionError, Detected, each_object, register, require
from data_catalog.sources.chat_common import ORPHANS_OPTION, Calls, ChatConverter, chat_data, keeps_orphans
from data_catalog.sources.openai_responses import reward_verdict
from data_catalog.sources.step_dicts import call_step, image, message, observation
from schemas.agent_identity import agent_identity

_LETTER_SCORES = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
# The sample's fields read into the record; the rest go to details. ``message_pool`` is the archive's copy of the
# messages (kept once, for deduplication), ``events`` the run's event log (the messages are what the model saw).
_SAMPLE_READ = (
    "id",
    "epoch",
    "input",
    "target",
    "messages",
    "scores",
    "output",
    "events",
    "attachments",
    "message_pool",
)


def _parts(content: Any, where: str) -> tuple[str, list[str], list[str]]:
    """A message's (text, image URLs, reasoning texts): content is a string or Inspect content parts."""
    if content is None or isinstance(content, str):
        return content or "", [], []
    if not isinstance(content, list):
        raise ConversionError(f"{where}: content is {type(content).__name__}, expected a string or parts")
    texts, images, reasoning = [], [], []
    for at, part in each_object(content, f"{where} content"):
        kind = part.get("type")
        if kind == "text":
            texts.append(part.get("text") or "")
        elif kind == "image":
            images.append(part.get("image") or "")
        elif kind == "reasoning":
            if part.get("reasoning") and not part.get("redacted"):
                reasoning.append(part["reasoning"])
        else:
            raise ConversionError(f"{at}: unsupported content part {kind!r}")
    return "\n".join(texts), images, reasoning


class _Messages:
    def __init__(self, keep_orphans: bool) -> None:
        self.steps: list[dict[str, Any]] = []
        self.calls = Calls(keep_orphans)
        self.errors: list[dict[str, Any]] = []

    def add(self, msg: dict[str, Any], where: str) -> None:
        role = msg.get("role")
        text, images, reasoning = _parts(msg.get("content"), where)
        if role in ("system", "user"):
            self.steps.append(observation(text, role))
            self.steps.extend(image(url, role) for url in images)
        elif role == "assistant":
            self._assistant(msg, text, [*reasoning, *([msg["reasoning"]] if msg.get("reasoning") else [])], where)
        elif role == "tool":
            call_id = msg.get("tool_call_id")
            call_id, name = self.calls.answer(None if call_id is None else str(call_id), where)
            self.steps.append(observation(text, "tool", msg.get("function") or name, call_id))
            self.steps.extend(image(url, "tool") for url in images)
            if isinstance(msg.get("error"), dict):
                self.errors.append({"tool_call_id": call_id, **msg["error"]})
        else:
            raise ConversionError(f"{where}: unknown role {role!r}")

    def _assistant(self, msg: dict[str, Any], text: str, reasoning: list[str], where: str) -> None:
        thought = "\n\n".join(reasoning) or None
        calls = msg.get("tool_calls") or []
        if not calls:
            self.steps.append(message(text, thought))
            return
        lead = "\n\n".join(part for part in (thought, text) if part) or None
        for at, call in each_object(calls, f"{where} tool_calls"):
            name, call_id = call.get("function"), call.get("id")
            if not isinstance(name, str):
                raise ConversionError(f"{at} has no function name")
            arguments = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
            self.calls.add(call_id, name)
            self.steps.append(call_step(name, arguments, call_id, lead))
            lead = None


def _verdict(scores: Any) -> dict[str, Any] | None:
    if not isinstance(scores, dict) or not scores:
        return None
    scorer, first = next(iter(scores.items()))
    value = first.get("value") if isinstance(first, dict) else None
    value = _LETTER_SCORES.get(value, value) if isinstance(value, str) else value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None  # a dict of values or a free-form string: kept as evidence in details
    return reward_verdict(value, {"scores": scores}, f"inspect:{scorer}")


@register
class InspectAiConverter(ChatConverter):
    name = "inspect_ai"
    description = "Inspect AI eval logs (JSON): one record per sample, its messages and tool calls, the scorer as v."
    options = ORPHANS_OPTION
    layouts = (
        "an eval log as JSON: {version, status, eval: {task, model, packages}, plan, results, samples: [{id, "
        "epoch, input, target, messages: [{role, content, tool_calls?: [{id, function, arguments}]}], scores}]}",
        "one sample of a .eval archive (samples/<id>_epoch_<n>.json): {id, epoch, input, target, messages, ...}",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if not isinstance(value, dict):
            return None
        if isinstance(value.get("eval"), dict) and "version" in value and ("samples" in value or "plan" in value):
            return 3, "Inspect AI eval log"
        if all(k in value for k in ("id", "epoch", "input", "messages")):
            return 3, "Inspect AI sample"
        return None

    def items(self, document: Any, source: str = "-") -> list[Any]:
        if isinstance(document, dict) and isinstance(document.get("eval"), dict) and "version" in document:
            run = {k: document[k] for k in ("eval", "plan") if k in document}
            return [{"sample": sample, **run} for sample in document.get("samples") or []]
        return list(super().items(document, source))

    def record_data(self, raw: Any) -> dict[str, Any]:
        if isinstance(raw, dict) and "sample" in raw:
            sample, run = require(raw, "sample", dict), raw.get("eval") or {}
            plan = raw.get("plan") or {}
        else:
            sample, run, plan = raw, {}, {}
        messages = _Messages(keeps_orphans(self.opts.extra))
        for where, msg in each_object(require(sample, "messages", list), "messages"):
            messages.add(msg, where)
        original = "/".join(str(p) for p in (run.get("task"), sample.get("id"), sample.get("epoch")) if p is not None)
        details = {k: v for k, v in sample.items() if k not in _SAMPLE_READ and v not in (None, {}, [])}
        if messages.errors:
            details["tool_errors"] = messages.errors
        details.update(messages.calls.note())
        data = chat_data(self, {"id": original, "sample": sample}, messages.steps, [], ("sample",), details)
        if sample.get("target") not in (None, "", []):
            data["task"]["expected_outputs"] = {"target": sample["target"]}
        if (verdict := _verdict(sample.get("scores"))) is not None:
            data["verifier"] = verdict
        elif sample.get("scores"):
            data["details"]["scores"] = sample["scores"]
        output = sample.get("output") if isinstance(sample.get("output"), dict) else {}
        version = (run.get("packages") or {}).get("inspect_ai")
        data["source"]["agent"] = agent_identity("inspect_ai", run.get("model") or output.get("model"), version)
        generator = {
            "task": run.get("task"),
            "solvers": [s.get("solver") for s in plan.get("steps") or [] if isinstance(s, dict)] or None,
        }
        data["lineage"] = {
            "generator": {k: v for k, v in generator.items() if v} or None,
            "usage": sample.get("model_usage") or output.get("usage") or {},
        }
        return data
