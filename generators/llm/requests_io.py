"""Chat requests from JSONL and result rows (the file shapes of ``aceforge generate``).

One request per line: ``{"id"?, "messages" | "prompt", "tools"?, "json_schema"?, "sampling"?}``;
a bare ``prompt`` string becomes one user message. Every bad line is reported
with its line number before anything is generated.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from generators.llm.interface import ChatRequest, GenerationResult


class RequestFileError(ValueError):
    """The file has bad lines; ``problems`` lists them all as (line number, reason)."""

    def __init__(self, path: Path, problems: list[tuple[int, str]]):
        self.problems = problems
        shown = "; ".join(f"line {n}: {reason}" for n, reason in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        super().__init__(f"{path}: {len(problems)} bad request line(s): {shown}{more}")


def _request(raw: Any) -> ChatRequest:
    if not isinstance(raw, dict):
        raise ValueError("a request line must be a JSON object")
    body = {k: v for k, v in raw.items() if k != "id"}
    if "prompt" in body:
        if "messages" in body:
            raise ValueError("give either 'prompt' or 'messages', not both")
        body["messages"] = [{"role": "user", "content": str(body.pop("prompt"))}]
    return ChatRequest.model_validate(body)


def read_requests(path: str | os.PathLike) -> list[tuple[str, ChatRequest]]:
    """(id, request) pairs; the id is the line's "id" or its line number."""
    path = Path(path)
    pairs, problems = [], []
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                raw = orjson.loads(line)
                request = _request(raw)
            except ValidationError as exc:
                first = exc.errors()[0]
                problems.append((number, f"{'.'.join(map(str, first['loc'])) or 'request'}: {first['msg']}"))
                continue
            except ValueError as exc:  # orjson.JSONDecodeError is a ValueError
                problems.append((number, str(exc)))
                continue
            pairs.append((str(raw.get("id", number)), request))
    if problems:
        raise RequestFileError(path, problems)
    return pairs


def result_row(request_id: str, result: GenerationResult) -> dict[str, Any]:
    return {
        "id": request_id,
        "texts": result.texts,
        "tool_calls": [[call.model_dump() for call in calls] for calls in result.tool_calls],
        "tool_call_errors": [c.tool_call_errors for c in result.completions],
        "finish_reasons": result.finish_reasons,
        "tokens_in": result.tokens_in,
        "tokens_out": result.tokens_out,
        "latency_s": result.latency_s,
        "cached": result.cached,
        "error": result.error,
        "notice": result.notice,
    }
