"""Synatra: synthetic web-agent steps ``{prompt, response}``, one step per record.

The prompt is a Python-like program: a docstring (the instruction), ``website = "..."``,
``observation = \"\"\"<axtree>\"\"\"``, ``objective = "..."`` and ``def solve():`` with the
past actions as commented calls. The response is comments (sub-task, step, summary),
free chain-of-thought lines and one call such as ``click(element_id="93")``.

A record: the docstring (source "system"), the objective (source "user", also
q.instruction), a WebObservation with the axtree (and the website as url), and the
action: ApiAction with the call's keyword arguments as real values, ``stop`` as a
MessageAction with the answer; the rest of the response is the reasoning. The past
actions go to ``details["past_actions"]``. Records carry no id: the id is a hash of
the prompt and response.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from data_catalog.sources.base import ConversionError, Converter, Detected, register, require
from data_catalog.sources.text_actions import text_around
from schemas.record import AgentRecord, Environment, Source, Task
from schemas.steps import ApiAction, MessageAction, TextObservation, WebObservation

_DOCSTRING = re.compile(r'\A\s*"""(.*?)"""', re.DOTALL)
_WEBSITE = re.compile(r'^website = "(.*)"$', re.MULTILINE)
_OBJECTIVE = re.compile(r'^objective = "(.*)"$', re.MULTILINE)
_OBSERVATION_START = 'observation = """'
_PAST_ACTIONS = "# past actions\n"
_CALL_LINE = re.compile(r"^\s*(\w+)\(.*\)\s*$", re.MULTILINE)


def parse_call(line: str) -> tuple[str, dict[str, Any]] | None:
    """``name(key=literal, ...)`` as (name, kwargs); None when the line is not such a call."""
    try:
        node = ast.parse(line.strip(), mode="eval").body
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.args:
            return None
        return node.func.id, {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg}
    except (SyntaxError, ValueError):
        return None


def response_action(response: str) -> ApiAction | MessageAction:
    """The last call line of a response is the action; everything else is its reasoning."""
    for match in reversed(list(_CALL_LINE.finditer(response))):
        call = parse_call(match[0])
        if call is None:
            continue
        reasoning = text_around(response, match.start(), match.end()) or None
        name, kwargs = call
        if name == "stop":
            return MessageAction(content=str(kwargs.get("answer", "")), reasoning=reasoning)
        return ApiAction(function=name, kwargs=kwargs, reasoning=reasoning)
    return MessageAction(content=response)


def parse_prompt(prompt: str) -> dict[str, str | None]:
    """The instruction, website, axtree, objective and past actions of a Synatra prompt."""
    start = prompt.find(_OBSERVATION_START)
    end = prompt.find('"""', start + len(_OBSERVATION_START)) if start >= 0 else -1
    objective = _OBJECTIVE.search(prompt, max(end, 0))
    if end < 0 or objective is None:
        raise ConversionError('prompt lacks the observation = """...""" or objective = "..." of a Synatra program')
    docstring = _DOCSTRING.match(prompt)
    website = _WEBSITE.search(prompt, 0, start)
    past_at = prompt.find(_PAST_ACTIONS, objective.end())
    return {
        "instruction": docstring[1].strip() if docstring else None,
        "website": website[1] if website else None,
        "axtree": prompt[start + len(_OBSERVATION_START) : end],
        "objective": objective[1],
        "past_actions": prompt[past_at + len(_PAST_ACTIONS) :].strip() if past_at >= 0 else None,
    }


@register
class SynatraConverter(Converter):
    name = "synatra"
    description = (
        "Synatra web-agent steps ({prompt, response}): objective, axtree WebObservation and one action per record."
    )
    layouts = ("a JSON array (or JSONL) of {prompt: a Python-like program with the axtree, response}",)

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if isinstance(value, dict) and isinstance(value.get("prompt"), str) and isinstance(value.get("response"), str):
            return (3, "synatra {prompt, response}") if "messages" not in value else None
        return None

    def convert(self, raw: Any) -> AgentRecord:
        prompt = require(raw, "prompt", str)
        response = require(raw, "response", str)
        page = parse_prompt(prompt)
        steps: list = [TextObservation(content=page["instruction"], source="system")] if page["instruction"] else []
        steps.append(TextObservation(content=page["objective"], source="user"))
        steps.append(WebObservation(axtree=page["axtree"], url=page["website"] or None))
        steps.append(response_action(response))
        details = {k: v for k, v in raw.items() if k not in ("prompt", "response")}
        if page["past_actions"]:
            details["past_actions"] = page["past_actions"]
        return AgentRecord(
            id=self.record_id(None, raw),
            environment=Environment(kind="web", name=page["website"] or None),
            task=Task(instruction=page["objective"]),
            trajectory=steps,
            source=Source(dataset=self.dataset, format=self.name, license=self.opts.license),
            details=details,
        )
