"""LLM judge: an optional last check that asks a model whether τ accomplished q.

It takes any object with a generation interface, by duck typing (verifiers
never import generators/):

- a callable ``f(list_of_message_lists) -> list[str]``;
- an object with ``.generate(list_of_message_lists) -> list``, whose items are
  strings or have ``.texts`` (a list) or ``.text``;
- a batch backend whose ``generate`` takes request objects and sampling
  params: pass ``make_request`` (e.g. ``ChatRequest``, called as
  ``make_request(messages=...)``) and ``params``.

The model must answer with JSON ``{"score": 0..1, "reason": "..."}`` (a bare
``PASS``/``FAIL`` is accepted too). ``passed`` = score >= ``threshold``
(``v.spec["judge"]["threshold"]``, default 0.5). Reason codes:
``judge_failed``, ``judge_unparseable``, ``judge_error``, ``judge_unavailable``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import orjson

from schemas.record import AgentRecord, VerifierResult
from verifiers.base import CheckContext, RecordVerifier

MAX_TRANSCRIPT = 6000
_JSON_OBJECT = re.compile(r"\{.*?\}", re.DOTALL)
_VERDICT = re.compile(r"\b(PASS|FAIL)\b")
DEFAULT_RUBRIC = "Did the agent fully and correctly accomplish the task while following the policy?"


def transcript(record: AgentRecord) -> str:
    lines = []
    for step in record.trajectory:
        data = step.model_dump(exclude_none=True)
        kind = data.pop("class_")
        lines.append(f"[{kind}] " + orjson.dumps(data).decode())
    text = "\n".join(lines)
    return text if len(text) <= MAX_TRANSCRIPT else "…" + text[-MAX_TRANSCRIPT:]


def judge_messages(record: AgentRecord, rubric: str) -> list[dict[str, str]]:
    return [
        {
            "role": "system",
            "content": "You grade AI agent trajectories. Answer only with JSON: "
            '{"score": <number from 0 to 1>, "reason": "<one sentence>"}.',
        },
        {
            "role": "user",
            "content": f"Task:\n{record.task.instruction}\n\nCriterion: {rubric}\n\nTrajectory:\n{transcript(record)}",
        },
    ]


def parse_verdict(text: str) -> tuple[float, str] | None:
    for match in _JSON_OBJECT.finditer(text):
        try:
            data = orjson.loads(match.group(0))
        except orjson.JSONDecodeError:
            continue
        if (
            isinstance(data, dict)
            and isinstance(data.get("score"), (int, float))
            and not isinstance(data["score"], bool)
        ):
            return min(1.0, max(0.0, float(data["score"]))), str(data.get("reason", ""))
    found = _VERDICT.findall(text.upper())
    if found:
        return (1.0 if found[-1] == "PASS" else 0.0), ""
    return None


def _first_text(item: Any) -> str:
    if isinstance(item, str):
        return item
    texts = getattr(item, "texts", None)
    if texts:
        return texts[0]
    return str(getattr(item, "text", ""))


class LLMJudge(RecordVerifier):
    name = "llm_judge"
    version = "1"

    def __init__(self, backend: Any = None, make_request: Callable[..., Any] | None = None, params: Any = None):
        self.backend, self.make_request, self.params = backend, make_request, params

    def generate(self, conversations: list[list[dict]]) -> list[str]:
        backend = self.backend
        if self.make_request is not None:
            requests = [self.make_request(messages=messages) for messages in conversations]
            outputs = backend.generate(requests, *([self.params] if self.params is not None else []))
        elif hasattr(backend, "generate"):
            outputs = backend.generate(conversations)
        else:
            outputs = backend(conversations)
        return [_first_text(item) for item in outputs]

    def check(self, ctx: CheckContext) -> VerifierResult:
        if self.backend is None:
            return VerifierResult(
                passed=None, score=None, reasons=["judge_unavailable"], verifier=self.name, version=self.version
            )
        options = ctx.spec.get("judge") if isinstance(ctx.spec.get("judge"), dict) else {}
        messages = judge_messages(ctx.record, options.get("rubric", DEFAULT_RUBRIC))
        try:
            text = self.generate([messages])[0]
        except Exception as exc:  # any backend failure is a failed judgement, not a crashed run
            return self.result(
                False, reasons=["judge_error"], evidence={"detail": f"{type(exc).__name__}: {exc}"[:300]}
            )
        verdict = parse_verdict(text)
        if verdict is None:
            return self.result(False, reasons=["judge_unparseable"], evidence={"output": text[:300]})
        score, reason = verdict
        passed = score >= float(options.get("threshold", 0.5))
        return self.result(
            passed,
            score=score,
            reasons=[] if passed else ["judge_failed"],
            evidence={"judge_reason": reason[:300], "output": text[:300]},
        )
