"""Bounded, self-adjusting concurrency and retry delays for calls to a remote server.

AIMD, as in TCP congestion control: each success raises the allowed number of
requests in flight by 1/limit (about +1 per round trip of the whole window);
each sign of overload (429, 5xx, timeout) halves it, at most once per cooldown
so that one burst of failures counts once. The limit never exceeds the
configured maximum and never drops below one.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass


class AimdLimiter:
    def __init__(self, maximum: int, initial: int | None = None, cooldown_s: float = 1.0):
        if maximum < 1:
            raise ValueError("maximum concurrency must be at least 1")
        self.maximum = maximum
        self.limit = float(min(initial or maximum, maximum))
        self.cooldown_s = cooldown_s
        self.active = 0
        self.decreases = 0
        self._last_decrease = float("-inf")
        self._condition: asyncio.Condition | None = None

    def _cond(self) -> asyncio.Condition:
        # Created lazily inside the running loop; a sync caller starts a fresh loop per batch.
        if self._condition is None:
            self._condition = asyncio.Condition()
        return self._condition

    def reset_loop(self) -> None:
        """Forget loop-bound state before a new event loop uses this limiter (the learned limit stays)."""
        self._condition = None
        self.active = 0

    async def __aenter__(self) -> AimdLimiter:
        cond = self._cond()
        async with cond:
            await cond.wait_for(lambda: self.active < int(self.limit))
            self.active += 1
        return self

    async def __aexit__(self, *exc: object) -> None:
        cond = self._cond()
        async with cond:
            self.active -= 1
            cond.notify_all()

    def on_success(self) -> None:
        self.limit = min(float(self.maximum), self.limit + 1.0 / self.limit)

    def on_overload(self) -> None:
        now = time.monotonic()
        if now - self._last_decrease >= self.cooldown_s:
            self.limit = max(1.0, self.limit / 2.0)
            self.decreases += 1
            self._last_decrease = now


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter; ``max_retries`` retries after the first attempt."""

    max_retries: int = 5
    base_delay_s: float = 0.5
    max_delay_s: float = 20.0

    def delay(self, attempt: int, retry_after_s: float | None = None) -> float:
        """Seconds to wait before retry number ``attempt`` (0-based); a server's Retry-After wins."""
        if retry_after_s is not None:
            return min(self.max_delay_s, max(0.0, retry_after_s))
        return min(self.max_delay_s, self.base_delay_s * (2**attempt)) * random.uniform(0.5, 1.0)
