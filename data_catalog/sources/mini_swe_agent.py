"""mini-swe-agent trajectories (mini-coder): ``{id, instance_id, model, messages, patch, verified}``.

- system -> TextObservation(source="system"); the first user turn is the task
  (q.instruction is its ``<pr_description>`` when it has one).
- assistant: ``THOUGHT: ...`` and exactly one ```` ```bash ```` block ->
  CodeAction(bash) with the thought as reasoning; a ``<function=NAME>`` call
  with ``<parameter=...>`` values -> ApiAction (``bash`` -> CodeAction); a
  turn with no action or several is a MessageAction (mini-swe-agent rejects it).
- later user turns (``<returncode>`` / ``<output>``, format errors) ->
  TextObservation(source="environment"), kept as the agent saw them.
- v: kind ``unit_tests``; ``verified`` (the patch passed the tests) is ``passed``.
"""

from __future__ import annotations

import re
from typing import Any

from data_catalog.sources.base import ConversionError, Converter, each_object, register, require
from data_catalog.sources.text_actions import text_around
from schemas.record import AgentRecord, Environment, Lineage, Source, Task, Verifier, VerifierResult, record_id
from schemas.steps import ApiAction, CodeAction, MessageAction, TextObservation

_BASH_BLOCK = re.compile(r"```bash[ \t]*\n(.*?)\n?```", re.DOTALL)
_FUNCTION = re.compile(r"<function=([\w.-]+)>(.*?)</function>", re.DOTALL)
_PARAMETER = re.compile(r"<parameter=([\w.-]+)>\n?(.*?)\n?</parameter>", re.DOTALL)
_PR_DESCRIPTION = re.compile(r"<pr_description>(.*?)</pr_description>", re.DOTALL)
_THOUGHT = "THOUGHT:"

_CONSUMED = ("id", "instance_id", "model", "messages", "patch", "verified")


def _reasoning(text: str, start: int, end: int) -> str | None:
    return text_around(text, start, end).removeprefix(_THOUGHT).lstrip() or None


def assistant_step(text: str) -> ApiAction | CodeAction | MessageAction:
    blocks = list(_BASH_BLOCK.finditer(text))
    calls = list(_FUNCTION.finditer(text))
    if len(blocks) + len(calls) != 1:
        return MessageAction(content=text)
    if blocks:
        block = blocks[0]
        return CodeAction(language="bash", content=block[1], reasoning=_reasoning(text, block.start(), block.end()))
    call = calls[0]
    kwargs = dict(_PARAMETER.findall(call[2]))
    reasoning = _reasoning(text, call.start(), call.end())
    if call[1] == "bash" and set(kwargs) == {"command"}:
        return CodeAction(language="bash", content=kwargs["command"], reasoning=reasoning)
    return ApiAction(function=call[1], kwargs=kwargs, reasoning=reasoning)


def message_steps(messages: list[Any]) -> tuple[list, str]:
    """The steps of a mini-swe-agent conversation and its task text."""
    steps: list = []
    task = None
    for where, msg in each_object(messages, "messages"):
        content = msg.get("content")
        if not isinstance(content, str):
            raise ConversionError(f"{where}: content is {type(content).__name__}, expected a string")
        role = msg.get("role")
        if role == "system":
            steps.append(TextObservation(content=content, source="system"))
        elif role == "user":
            steps.append(TextObservation(content=content, source="environment" if task is not None else "user"))
            task = content if task is None else task
        elif role == "assistant":
            steps.append(assistant_step(content))
        else:
            raise ConversionError(f"{where}: unknown role {role!r}")
    if task is None:
        raise ConversionError("messages have no user turn (the task)")
    description = _PR_DESCRIPTION.search(task)
    return steps, description[1].strip() if description else task


@register
class MiniSweAgentConverter(Converter):
    name = "mini_swe_agent"
    description = "mini-swe-agent trajectories (mini-coder): THOUGHT + one bash block per turn as CodeAction, verified as unit-test verdict."

    def convert(self, raw: Any) -> AgentRecord:
        steps, instruction = message_steps(require(raw, "messages", list))
        original = raw.get("id") or raw.get("instance_id")
        original_id = None if original in (None, "") else str(original)
        verified = raw.get("verified")
        if verified is not None and not isinstance(verified, bool):
            raise ConversionError(f"field 'verified' is {type(verified).__name__}, expected bool")
        result = (
            None
            if verified is None
            else VerifierResult(
                passed=verified, score=float(verified), evidence={"verified": verified}, verifier="swe-bench"
            )
        )
        details = {k: v for k, v in raw.items() if k not in _CONSUMED}
        for key in ("instance_id", "patch"):
            if raw.get(key) is not None:
                details[key] = raw[key]
        return AgentRecord(
            id=record_id(self.dataset, self.name, original_id, fallback=raw),
            environment=Environment(kind="swe_repo"),
            task=Task(instruction=instruction),
            trajectory=steps,
            verifier=Verifier(kind="unit_tests" if result else "none", result=result),
            source=Source(dataset=self.dataset, format=self.name, original_id=original_id, license=self.opts.license),
            lineage=Lineage(generator={"agent": "mini-swe-agent", "model": raw.get("model")}),
            details=details,
        )
