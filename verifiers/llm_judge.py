"""LLM judge: an optional last check that asks a model whether τ accomplished q.

It declares ``needs_model``: the runner hands it ``ctx.model``, any
``schemas.generation.Generator`` (a generators/ backend, or one behind the
cache), and runs it only when every earlier check passed. It sends one
ChatRequest per record with its own SamplingParams (greedy, seed 0: the same
record and model give the same verdict).

The model must answer with JSON ``{"score": 0..1, "reason": "..."}`` (a bare
``PASS``/``FAIL`` is accepted too); an answer that is neither is asked for once
more, with the bad answer shown (schemas.structured_output). ``passed`` = score >= ``threshold``
(``v.spec["judge"]["threshold"]``, default 0.5). Reason codes:
``judge_failed``, ``judge_unparseable``, ``judge_error`` (no verdict, passed None: the model raised or
refused the request), ``judge_unavailable`` (no model given: no verdict).
Evidence names the model (``evidence["model"]`` = the generator's model_id).
"""

from __future__ import annotations

import re

import orjson

from schemas.generation import ChatRequest, Generator, SamplingParams
from schemas.record import AgentRecord, VerifierResult
from schemas.structured_output import BACKEND_ERROR, Parsed, StructuredOutput, generate_structured
from verifiers.base import CheckContext, RecordVerifier

MAX_TRANSCRIPT = 6000
VERDICT_SCHEMA = {"type": "object", "properties": {"score": {"type": "number"}}, "required": ["score"]}
_JSON_VERDICT = StructuredOutput(VERDICT_SCHEMA)
_VERDICT = re.compile(r"\b(PASS|FAIL)\b")
DEFAULT_RUBRIC = "Did the agent fully and correctly accomplish the task while following the policy?"
# A verdict is one short JSON object: 128 tokens hold it with room to spare.
JUDGE_PARAMS = SamplingParams(max_tokens=128)
EXCERPT = 300


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


def read_verdict(text: str) -> Parsed:
    """The verdict (score clamped to 0..1, reason) from the JSON object, else from the last PASS/FAIL word."""
    parsed = _JSON_VERDICT.parse(text)
    if parsed.ok:
        data = parsed.value
        return Parsed(value=(min(1.0, max(0.0, float(data["score"]))), str(data.get("reason", ""))), text=text)
    found = _VERDICT.findall(text.upper())
    if found:
        return Parsed(value=(1.0 if found[-1] == "PASS" else 0.0, ""), text=text)
    return parsed


def parse_verdict(text: str) -> tuple[float, str] | None:
    parsed = read_verdict(text)
    return parsed.value if parsed.ok else None


class LLMJudge(RecordVerifier):
    name = "llm_judge"
    version = "1"
    needs_model = True
    unavailable_reason = "judge_unavailable"

    def __init__(self, params: SamplingParams = JUDGE_PARAMS):
        self.params = params

    def undecided(self, evidence: dict) -> VerifierResult:
        """No judgement (the model raised or answered nothing): no verdict, so the chain stays undecided."""
        return VerifierResult(
            passed=None,
            score=None,
            reasons=["judge_error"],
            evidence=evidence,
            verifier=self.name,
            version=self.version,
        )

    def check(self, ctx: CheckContext) -> VerifierResult:
        options = ctx.spec.get("judge") if isinstance(ctx.spec.get("judge"), dict) else {}
        [result] = self.judge(
            ctx.model, [ctx.record], options.get("rubric", DEFAULT_RUBRIC), float(options.get("threshold", 0.5))
        )
        return result

    def judge(
        self, model: Generator, records: list[AgentRecord], rubric: str = DEFAULT_RUBRIC, threshold: float = 0.5
    ) -> list[VerifierResult]:
        """The judge's verdict on each record, asked in one batch (bench/judge_agreement.py judges many)."""
        requests = [ChatRequest(messages=judge_messages(record, rubric)) for record in records]
        identity = {"model": model.model_id}
        try:
            answers = generate_structured(model, requests, self.params, read_verdict)
        except Exception as exc:  # a backend failure is no judgement at all: undecided, never a failed trajectory
            return [self.undecided({**identity, "detail": _excerpt(exc)}) for _ in records]
        return [self.verdict(answer, identity, threshold) for answer in answers]

    def verdict(self, answer: Parsed, identity: dict, threshold: float) -> VerifierResult:
        if answer.reason == BACKEND_ERROR:
            return self.undecided({**identity, "detail": answer.detail})
        text = answer.text
        if not answer.ok:
            return self.result(False, reasons=["judge_unparseable"], evidence={**identity, "output": text[:EXCERPT]})
        score, reason = answer.value
        passed = score >= threshold
        return self.result(
            passed,
            score=score,
            reasons=[] if passed else ["judge_failed"],
            evidence={**identity, "judge_reason": reason[:EXCERPT], "output": text[:EXCERPT]},
        )


def _excerpt(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"[:EXCERPT]
