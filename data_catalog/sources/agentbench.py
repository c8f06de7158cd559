"""AgentBench run outputs (``outputs/<time>/<agent>/<task>/runs.jsonl``): one record per sample.

Each line is what AgentBench's assigner writes when a sample finishes:
``{index, error, info, output: {index, status, result, history: [{role: user | agent, content}]}, time}``
(``error.jsonl`` lines have the same shape, with ``error`` set). The history is a text conversation:
the task's instructions and one-shot example, then the agent's turns in the task's own ReAct dialect
(``Think: ... Act: bash`` + a fenced block, ``Act: answer(...)``; ``Action: Operation`` + ```` ```sql ````)
and the environment's replies (``The output of the OS:``). It is read as a ShareGPT conversation in the
``auto`` dialect (sharegpt.py, text_actions.py): a fenced bash block is CodeAction(bash), an answer is
the final MessageAction, framed output and replies to actions are environment observations. The task
is the first user turn, or, after os_interaction's solved example, the problem its
"Now, I will start a new problem" turn states.

``output.status`` (completed, agent context limit, task limit reached, ...) and ``output.result``
(the task's own verdict; ``{"result": true}`` for os_interaction) go to details; a boolean
``result.result`` is also v (kind ``reward``: AgentBench computed it). The file names neither the
agent nor the task (the folder does): source.agent says only the framework, agentbench.
"""

from __future__ import annotations

import re
from typing import Any

from data_catalog.sources.base import ConversionError, Detected, each_object, register, require
from data_catalog.sources.openai_responses import reward_verdict
from data_catalog.sources.sharegpt import ShareGPTConverter
from schemas.agent_identity import agent_identity

_ROLES = {"user": "user", "agent": "assistant"}
# os_interaction opens with its instructions and a solved example; the sample's own problem comes after this.
_NEW_PROBLEM = re.compile(r"\ANow, I will start a new problem in a new OS\. My problem is:\s*")


def _history(output: dict[str, Any]) -> list[dict[str, str]]:
    messages = []
    for where, item in each_object(require(output, "history", list), "output.history"):
        role = _ROLES.get(item.get("role"))
        if role is None or not isinstance(item.get("content"), str):
            raise ConversionError(f"{where}: expected {{role: user | agent, content: str}}, got {sorted(item)}")
        messages.append({"role": role, "content": item["content"]})
    if not messages:
        raise ConversionError("output.history is empty (the sample never started)")
    return messages


@register
class AgentBenchConverter(ShareGPTConverter):
    name = "agentbench"
    description = "AgentBench run outputs (runs.jsonl): each sample's history of user / agent turns, its result as v."
    layouts = (
        "one finished sample per line: {index, error, info, output: {index, status, result, history: "
        "[{role: user | agent, content}]}, time: {timestamp, str}}",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if not isinstance(value, dict) or "index" not in value or not isinstance(value.get("output"), dict):
            return None
        history = value["output"].get("history")
        if isinstance(history, list) and history and isinstance(history[0], dict) and "role" in history[0]:
            return 3, "AgentBench run output"
        return None

    def items(self, document: Any, source: str = "-") -> list[Any]:
        return document if isinstance(document, list) else [document]

    def record_data(self, raw: Any) -> dict[str, Any]:
        output = require(raw, "output", dict)
        index = raw.get("index", output.get("index"))
        history = _history(output)
        data = super().record_data({"id": index, "messages": history})
        data["id"] = self.record_id(index, raw)  # keyed by the whole line: its result and time too
        result = output.get("result")
        data["details"].update(
            {k: v for k, v in (("status", output.get("status")), ("result", result)) if v is not None},
            **{k: raw[k] for k in ("error", "info", "time") if raw.get(k) is not None},
        )
        verdict = result.get("result") if isinstance(result, dict) else None
        if isinstance(verdict, bool):
            data["verifier"] = reward_verdict(float(verdict), {"result": result}, "agentbench")
        problem = next((m for m in (_NEW_PROBLEM.match(t["content"]) for t in history[1:]) if m), None)
        if problem is not None:
            data["task"]["instruction"] = problem.string[problem.end() :]
        data["source"]["agent"] = agent_identity("agentbench")
        return data
