"""Answer match: the agent's final answer against q's expected answer.

Expected: ``task.expected_outputs["answer"]`` (or a list under ``"answers"``, any
may match). Predicted: the agent's last message. ``v.spec["answer_match"]``:
``mode`` = ``exact`` | ``normalized`` (case, punctuation, articles and
whitespace ignored) | ``numeric`` (the last number in the answer, within
``tolerance``, default 1e-6) | ``contains`` (normalized expected inside the
normalized answer) | ``auto`` (default: numeric for numeric answers, else normalized).

Reason codes: ``answer_mismatch``, ``no_answer``, ``no_expected_answer``.
"""

from __future__ import annotations

import math
import re
import string

from schemas.record import VerifierResult
from verifiers.base import CheckContext, RecordVerifier
from verifiers.trajectory_view import final_answer

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?")
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)


def normalize(text: str) -> str:
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCT)).split())


def last_number(text: str) -> float | None:
    found = _NUMBER.findall(text)
    if not found:
        return None
    try:
        return float(found[-1].replace(",", ""))
    except ValueError:
        return None


def is_numeric(value) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return isinstance(value, str) and _NUMBER.fullmatch(value.strip()) is not None


def answers_match(predicted: str, expected, mode: str = "auto", tolerance: float = 1e-6) -> bool:
    if mode == "auto":
        mode = "numeric" if is_numeric(expected) else "normalized"
    if mode == "exact":
        return predicted.strip() == str(expected).strip()
    if mode == "numeric":
        got = last_number(predicted)
        return got is not None and math.isclose(got, float(str(expected).replace(",", "")), abs_tol=tolerance)
    if mode == "contains":
        return normalize(str(expected)) in normalize(predicted)
    if mode == "normalized":
        return normalize(predicted) == normalize(str(expected))
    raise ValueError(f"unknown answer_match mode {mode!r}")


class AnswerMatchVerifier(RecordVerifier):
    name = "answer_match"
    version = "1"

    def check(self, ctx: CheckContext) -> VerifierResult:
        expected_outputs = ctx.record.task.expected_outputs or {}
        expected = expected_outputs.get("answers") or (
            [expected_outputs["answer"]] if "answer" in expected_outputs else []
        )
        if not expected:
            return self.result(False, reasons=["no_expected_answer"])
        predicted = final_answer(ctx.record.trajectory)
        if predicted is None:
            return self.result(False, reasons=["no_answer"])
        options = ctx.spec.get("answer_match", {})
        mode, tolerance = options.get("mode", "auto"), float(options.get("tolerance", 1e-6))
        matched = next((e for e in expected if answers_match(predicted, e, mode, tolerance)), None)
        evidence = {"mode": mode, "predicted": predicted[-300:], "expected": expected[:5]}
        return self.result(
            matched is not None, reasons=[] if matched is not None else ["answer_mismatch"], evidence=evidence
        )
