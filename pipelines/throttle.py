"""When a plain progress line is due: logs and non-terminal output get one now and then, not one per item."""

from __future__ import annotations

import time
from collections.abc import Hashable

EVERY_S = 10.0


class LineThrottle:
    """``due(done, total)``: at most one line every ``every_s`` seconds per ``key`` (one per kind of work),
    always the last (``done >= total``; a ``total`` of None is not known yet), never the same count twice."""

    def __init__(self, every_s: float = EVERY_S) -> None:
        self.every_s = every_s
        self._said: dict[Hashable, tuple[float, int]] = {}

    def due(self, done: int, total: int | None, key: Hashable = None) -> bool:
        now = time.monotonic()
        at, count = self._said.get(key, (-float("inf"), -1))
        if done == count or not (total is not None and done >= total or now - at >= self.every_s):
            return False
        self._said[key] = (now, done)
        return True
