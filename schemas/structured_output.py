"""Structured output: a JSON object read out of model text and checked against a JSON schema, with one retry.

Models asked for a JSON object often wrap it in prose or a code fence, break
it, or leave out a field. ``StructuredOutput.parse`` finds the object (the
whole text if it parses, else the first ``{...}`` in the text that parses and
fits), validates it against the schema and an optional extra ``check``, and
names what went wrong with a stable reason code that callers prefix or map:

- ``no_json``: no ``{ ... }`` in the text at all (also a cut-off answer);
- ``unparseable``: braces, but no object that parses;
- ``schema_invalid``: an object, but not one that fits the schema or the check.

``generate_structured`` sends a batch, parses every answer, and re-asks once,
in one batch, for the answers that failed: the conversation continues with the
bad answer as the assistant's turn and the error as the user's. An answer the
retry fixes is used; one still failing keeps the first answer's reason, detail
and text. A request the backend could not serve (``result.error``, no
completion) is not retried: its reason is ``backend_error``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

from schemas.generation import ChatRequest, Generator, SamplingParams

NO_JSON, UNPARSEABLE, SCHEMA_INVALID, BACKEND_ERROR = "no_json", "unparseable", "schema_invalid", "backend_error"
_SPAN = re.compile(r"\{.*\}", re.DOTALL)
_DECODER = json.JSONDecoder()
RETRY_PROMPT = "Your answer was not valid: {problem}. Answer with the JSON object only."


@dataclass(frozen=True)
class Parsed:
    """The object that fits (reason None), or why none does: a reason code and a one-line detail."""

    value: Any = None
    reason: str | None = None
    detail: str = ""
    text: str | None = None  # the model's answer (None: the backend gave none)

    @property
    def ok(self) -> bool:
        return self.reason is None


def _objects(text: str) -> list[Any]:
    """Every JSON object in the text, in order: the whole text first, then each object that starts at a ``{``."""
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    found, pos = [], text.find("{")
    while pos != -1:
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except ValueError:
            pos = text.find("{", pos + 1)
            continue
        found.append(value)
        pos = text.find("{", end)  # objects nested in this one are its fields, not answers
    return found


class StructuredOutput:
    """A JSON schema plus an optional ``check(value) -> problem | None`` for what a schema cannot say."""

    def __init__(self, schema: dict[str, Any], check: Callable[[Any], str | None] | None = None):
        self.validator = jsonschema.Draft202012Validator(schema)
        self.check = check

    def problem(self, value: Any) -> str | None:
        error = best_match(self.validator.iter_errors(value))
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path)
            return f"{where + ': ' if where else ''}{error.message}"[:300]
        return self.check(value) if self.check else None

    def parse(self, text: str) -> Parsed:
        if _SPAN.search(text) is None:
            return Parsed(reason=NO_JSON, detail="no JSON object found", text=text)
        objects = _objects(text)
        if not objects:
            return Parsed(reason=UNPARSEABLE, detail="the JSON object does not parse", text=text)
        problems = [self.problem(value) for value in objects]
        for value, problem in zip(objects, problems):
            if problem is None:
                return Parsed(value=value, text=text)
        return Parsed(reason=SCHEMA_INVALID, detail=problems[0], text=text)

    def __call__(self, text: str) -> Parsed:
        return self.parse(text)


def retry_request(request: ChatRequest, failed: Parsed) -> ChatRequest:
    """The same request (schema, sampling) with the bad answer and what was wrong with it appended."""
    messages = [
        *request.messages,
        {"role": "assistant", "content": failed.text},
        {"role": "user", "content": RETRY_PROMPT.format(problem=f"{failed.reason}: {failed.detail}")},
    ]
    return request.model_copy(update={"messages": messages})


def generate_structured(
    generator: Generator, requests: list[ChatRequest], params: SamplingParams, parse: Callable[[str], Parsed]
) -> list[Parsed]:
    """One Parsed per request, in order; at most two batch calls (the second only for answers that failed).

    ``parse`` is usually a StructuredOutput; a caller with a fallback reading (the judge's PASS/FAIL word)
    wraps it. Errors raised by ``generator.generate`` propagate: the caller knows what a dead backend means.
    """
    answers = [_read(result, parse) for result in generator.generate(requests, params)]
    again = [i for i, answer in enumerate(answers) if answer.reason not in (None, BACKEND_ERROR)]
    if again:
        retried = generator.generate([retry_request(requests[i], answers[i]) for i in again], params)
        for i, result in zip(again, retried):
            answer = _read(result, parse)
            if answer.ok:
                answers[i] = answer
    return answers


def _read(result, parse: Callable[[str], Parsed]) -> Parsed:
    if result.error is not None or not result.completions:
        return Parsed(reason=BACKEND_ERROR, detail=result.error or "no completion")
    return parse(result.completions[0].text)
