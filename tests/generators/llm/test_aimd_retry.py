"""Retries, backoff and adaptive concurrency of the OpenAI backend, against a scripted local HTTP server.

The server only stands in for an overloaded or broken endpoint (429, 500,
400); generation against a real server is in test_openai_backend.py.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from generators.llm.aimd import AimdLimiter, RetryPolicy
from generators.llm.interface import ChatRequest, GenerationError, SamplingParams
from generators.llm.openai_backend import OpenAIBackend
from runtime.ports import free_port

FAST = RetryPolicy(max_retries=3, base_delay_s=0.01, max_delay_s=0.05)


def _completion_body(text: str) -> dict:
    return {
        "id": "cmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "scripted",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
    }


class ScriptedServer:
    """Answers POST /v1/chat/completions with the next status of a script (then 200 forever)."""

    def __init__(self, script: list[int]):
        self.script = list(script)
        self.bodies: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                length = int(self.headers["Content-Length"])
                server.bodies.append(json.loads(self.rfile.read(length)))
                status = server.script.pop(0) if server.script else 200
                body = _completion_body("hello") if status == 200 else {"error": {"message": f"scripted {status}"}}
                payload = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                if status == 429:
                    self.send_header("Retry-After", "0")
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


REQUEST = ChatRequest(messages=[{"role": "user", "content": "hi"}])


def test_429_and_500_are_retried_until_success():
    with ScriptedServer([429, 500, 503]) as server:
        backend = OpenAIBackend("scripted", server.url, retry=FAST, max_concurrency=8)
        result = backend.generate([REQUEST], SamplingParams(max_tokens=4, seed=3))[0]
    assert result.texts == ["hello"] and result.tokens_in == 5 and result.tokens_out == 2
    assert backend.attempts == 4 and len(server.bodies) == 4
    assert backend.servers[0].limiter.decreases >= 1 and backend.servers[0].limiter.limit < 8
    sent = server.bodies[-1]
    assert sent["model"] == "scripted" and sent["max_tokens"] == 4 and sent["seed"] == 3
    assert sent["messages"] == [{"role": "user", "content": "hi"}]


def test_a_server_that_keeps_failing_gives_a_clear_error_after_bounded_retries():
    with ScriptedServer([500] * 10) as server:
        backend = OpenAIBackend("scripted", server.url, retry=FAST)
        with pytest.raises(GenerationError, match=r"did not answer after 4 attempts: InternalServerError"):
            backend.generate([REQUEST], SamplingParams())
    assert len(server.bodies) == 4


def test_a_server_that_is_down_gives_a_clear_error():
    port = free_port()  # free a moment ago: nothing listens there
    backend = OpenAIBackend("scripted", f"http://127.0.0.1:{port}/v1", retry=FAST)
    with pytest.raises(
        GenerationError, match=rf"127.0.0.1:{port}/v1 did not answer after 4 attempts: APIConnectionError"
    ):
        backend.generate([REQUEST], SamplingParams())


def test_a_refused_request_is_that_requests_error_not_the_batchs():
    with ScriptedServer([400]) as server:
        backend = OpenAIBackend("scripted", server.url, retry=FAST, max_concurrency=1)
        results = backend.generate([REQUEST, REQUEST], SamplingParams())
    assert results[0].error == "server refused the request: Error code: 400 - scripted 400"
    assert results[1].texts == ["hello"]
    assert backend.attempts == 2  # a 400 is not retried


def test_json_schema_and_tools_are_sent_in_openai_form():
    tool = {"name": "f", "parameters": {"type": "object", "properties": {}}}
    request = ChatRequest(messages=REQUEST.messages, tools=[tool], json_schema={"type": "object"})
    with ScriptedServer([]) as server:
        OpenAIBackend("scripted", server.url, retry=FAST).generate(
            [request], SamplingParams(stop=["\n"], logprobs=True)
        )
    sent = server.bodies[0]
    assert sent["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "output", "schema": {"type": "object"}, "strict": True},
    }
    assert sent["tools"][0]["function"]["name"] == "f" and sent["tools"][0]["type"] == "function"
    assert sent["stop"] == ["\n"] and sent["logprobs"] is True


def test_aimd_grows_additively_and_halves_on_overload():
    limiter = AimdLimiter(maximum=8, initial=2, cooldown_s=0.0)
    for _ in range(2):
        limiter.on_success()
    assert limiter.limit == pytest.approx(2 + 1 / 2 + 1 / 2.5)
    limiter.on_overload()
    assert limiter.limit == pytest.approx((2 + 1 / 2 + 1 / 2.5) / 2)
    for _ in range(5):
        limiter.on_overload()
    assert limiter.limit == 1.0  # never below one request in flight
    for _ in range(200):
        limiter.on_success()
    assert limiter.limit == 8.0  # never above the maximum


def test_aimd_counts_a_burst_of_failures_once_within_the_cooldown():
    limiter = AimdLimiter(maximum=16, cooldown_s=60.0)
    for _ in range(5):
        limiter.on_overload()
    assert limiter.limit == 8.0 and limiter.decreases == 1


def test_aimd_bounds_requests_in_flight():
    import asyncio

    limiter = AimdLimiter(maximum=3)
    peak = 0

    async def work():
        nonlocal peak
        async with limiter:
            peak = max(peak, limiter.active)
            await asyncio.sleep(0.01)

    async def main():
        await asyncio.gather(*(work() for _ in range(20)))

    asyncio.run(main())
    assert peak == 3 and limiter.active == 0


def test_retry_delays_back_off_exponentially_with_a_cap():
    policy = RetryPolicy(max_retries=5, base_delay_s=1.0, max_delay_s=5.0)
    assert 0.5 <= policy.delay(0) <= 1.0
    assert 2.0 <= policy.delay(2) <= 4.0
    assert policy.delay(10) <= 5.0
    assert policy.delay(1, retry_after_s=3.0) == 3.0
