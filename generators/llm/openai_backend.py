"""Any OpenAI-compatible chat server (``vllm serve``, a hosted endpoint), or a fleet of them, as a batch backend.

Requests go out concurrently, each server under its own AIMD limiter
(generators/llm/aimd.py). With several base URLs (a vLLM fleet) each request, and
each retry, goes to the server with the most free room right now, so a slow
or overloaded server gets less and a dead one is routed around. 429, 5xx,
timeouts and refused connections are retried with backoff; when the retries
run out the whole batch stops with a GenerationError that names the servers
(results that completed before are already delivered). Other 4xx answers
(e.g. a prompt the server finds too long) become that request's error.

When ``model`` is a local folder (as with ``vllm serve <folder>``) its tokenizer
renders prompts for the cache key and applies the length rule before sending.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import openai

from generators.llm.aimd import AimdLimiter, RetryPolicy
from generators.llm.interface import (
    Backend,
    Capabilities,
    ChatRequest,
    Completion,
    GenerationError,
    GenerationResult,
    OnResult,
    SamplingParams,
)
from generators.llm.local_model import DEFAULT_MAX_MODEL_LEN, load_renderer
from generators.llm.model_store import model_identity, resolve_model
from generators.llm.prompting import Overflow, canonical_prompt, wire_messages
from generators.llm.tool_calls import call_from_obj, completion_from_text, normalize_tools

T = TypeVar("T")
_RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError, openai.APIConnectionError)


def run_sync(coro: Awaitable[T]) -> T:
    """Run a coroutine to completion from sync code, even when the caller already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@dataclass
class Server:
    """One server of the fleet: its URL, its own concurrency limiter, and how many requests it was sent."""

    base_url: str
    limiter: AimdLimiter
    sent: int = 0

    def room(self) -> float:
        return int(self.limiter.limit) - self.limiter.active


class OpenAIBackend(Backend):
    name = "openai"
    capabilities = Capabilities(supports_tools=True, supports_json_schema=True, supports_logprobs=True)

    def __init__(
        self,
        model: str,
        base_url: str | list[str],
        api_key: str = "EMPTY",
        max_concurrency: int = 32,
        retry: RetryPolicy = RetryPolicy(),
        timeout_s: float = 120.0,
        max_model_len: int = DEFAULT_MAX_MODEL_LEN,
        overflow: Overflow = "reject",
    ):
        local = Path(str(model)).expanduser()
        self.model = resolve_model(model) if model in ("default", None) or local.exists() else model
        self._model_id = model_identity(self.model)
        urls = [base_url] if isinstance(base_url, str) else list(base_url)
        if not urls:
            raise ValueError("the openai backend needs at least one base URL")
        self.servers = [Server(url, AimdLimiter(max_concurrency)) for url in urls]
        self.api_key = api_key
        self.retry = retry
        self.timeout_s = timeout_s
        self.renderer = load_renderer(self.model, max_model_len, overflow) if Path(self.model).is_dir() else None
        self.attempts = 0  # HTTP requests sent, retries included

    @property
    def model_id(self) -> dict[str, str]:
        return self._model_id

    def prompt_text(self, request: ChatRequest, params: SamplingParams) -> str:
        if self.renderer is None:
            return canonical_prompt(request)
        return self.renderer.prepare(request, request.params(params).max_tokens).text

    def generate(
        self, requests: list[ChatRequest], params: SamplingParams, on_result: OnResult | None = None
    ) -> list[GenerationResult]:
        self.check(requests)
        return run_sync(self.agenerate(requests, params, on_result))

    async def agenerate(
        self, requests: list[ChatRequest], params: SamplingParams, on_result: OnResult | None = None
    ) -> list[GenerationResult]:
        clients = []
        for server in self.servers:
            server.limiter.reset_loop()
            clients.append(
                openai.AsyncOpenAI(
                    base_url=server.base_url, api_key=self.api_key, max_retries=0, timeout=self.timeout_s
                )
            )
        results: list[GenerationResult | None] = [None] * len(requests)

        async def one(i: int, request: ChatRequest) -> None:
            results[i] = await self._one(clients, request, request.params(params))
            if on_result:
                on_result(i, results[i])

        tasks = [asyncio.ensure_future(one(i, r)) for i, r in enumerate(requests)]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for client in clients:
                await client.close()
        return results  # type: ignore[return-value]

    def _payload(self, request: ChatRequest, params: SamplingParams, messages: list[dict[str, Any]]) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": wire_messages(messages),
            "n": params.n,
            "temperature": params.temperature,
            "top_p": params.top_p,
            "max_tokens": params.max_tokens,
            "seed": params.seed,
        }
        if params.stop:
            payload["stop"] = params.stop
        if params.logprobs:
            payload["logprobs"] = True
        if request.tools:
            payload["tools"] = normalize_tools(request.tools)
        if request.json_schema is not None:
            payload["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "output", "schema": request.json_schema, "strict": True},
            }
        return payload

    async def _one(
        self, clients: list[openai.AsyncOpenAI], request: ChatRequest, params: SamplingParams
    ) -> GenerationResult:
        messages, notice = request.messages, None
        if self.renderer is not None:
            prepared = self.renderer.prepare(request, params.max_tokens)
            if prepared.error:
                return GenerationResult(error=prepared.error, tokens_in=len(prepared.token_ids))
            messages, notice = prepared.messages, prepared.notice
        started = time.perf_counter()
        try:
            response = await self._with_retries(clients, self._payload(request, params, messages))
        except openai.APIStatusError as exc:  # a 4xx other than 429: this request's problem
            return GenerationResult(error=f"server refused the request: {exc.message}")
        tools = normalize_tools(request.tools)
        return GenerationResult(
            completions=[_completion(choice, tools) for choice in response.choices],
            tokens_in=response.usage.prompt_tokens if response.usage else 0,
            tokens_out=response.usage.completion_tokens if response.usage else 0,
            latency_s=round(time.perf_counter() - started, 4),
            notice=notice,
        )

    async def _with_retries(self, clients: list[openai.AsyncOpenAI], payload: dict[str, Any]) -> Any:
        last: Exception | None = None
        for attempt in range(self.retry.max_retries + 1):
            # The server with the most free room; on ties the one sent the least, so a fleet fills evenly.
            index = max(range(len(self.servers)), key=lambda i: (self.servers[i].room(), -self.servers[i].sent))
            server = self.servers[index]
            try:
                async with server.limiter:
                    self.attempts += 1
                    server.sent += 1
                    response = await clients[index].chat.completions.create(**payload)
                server.limiter.on_success()
                return response
            except _RETRYABLE as exc:
                last = exc
                server.limiter.on_overload()
                if attempt < self.retry.max_retries:
                    await asyncio.sleep(self.retry.delay(attempt, _retry_after(exc)))
        urls = ", ".join(server.base_url for server in self.servers)
        raise GenerationError(
            f"OpenAI-compatible server at {urls} did not answer after "
            f"{self.retry.max_retries + 1} attempts: {type(last).__name__}: {last}"
        ) from last


def _retry_after(exc: Exception) -> float | None:
    response = getattr(exc, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _completion(choice: Any, tools: list[dict[str, Any]] | None) -> Completion:
    finish = choice.finish_reason if choice.finish_reason in ("length", "tool_calls") else "stop"
    logprobs = [t.logprob for t in choice.logprobs.content] if choice.logprobs and choice.logprobs.content else None
    message = choice.message
    if not message.tool_calls:
        return completion_from_text(message.content or "", finish, tools, logprobs=logprobs)
    # The server parsed the calls itself (e.g. vllm serve --tool-call-parser hermes).
    text, calls, errors = message.content or "", [], []
    for call in message.tool_calls:
        try:
            parsed = call_from_obj({"name": call.function.name, "arguments": call.function.arguments}, len(calls))
            calls.append(parsed.model_copy(update={"id": call.id or parsed.id}))
        except ValueError as exc:
            errors.append(f"malformed tool call from server: {exc}")
            text += f"<tool_call>{call.function.model_dump_json()}</tool_call>"
    finish = "tool_calls" if calls else finish
    return Completion(text=text, tool_calls=calls, tool_call_errors=errors, finish_reason=finish, logprobs=logprobs)
