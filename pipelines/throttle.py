"""When a plain progress line is due: logs and non-terminal output get one now and then, not one per item, and
one at least every 10 s while the work runs, even when no item finished (``Heartbeat``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

from runtime.elapsed import ticking

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


class Heartbeat:
    """Progress lines that never fall silent for longer than ``every_s``: ``update(done, total)`` says a line under
    ``LineThrottle``'s rule, and ``beat()`` says the latest counts again once ``every_s`` passed since the last line
    although nothing finished (a slow model batch: the learner's rollouts went 46-90 s without one). ``say`` gets
    ``(done, total, elapsed_s)``; within ``beating()`` a daemon thread calls ``beat()`` every second."""

    def __init__(
        self,
        say: Callable[[int, int, float], None],
        total: int,
        every_s: float = EVERY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._say, self.every_s, self._clock = say, every_s, clock
        self._started = self._last = clock()
        self._counts, self._said = (0, total), -1
        self._lock = threading.Lock()  # update() runs in the worker, beat() in the heartbeat's thread

    def update(self, done: int, total: int) -> None:
        with self._lock:
            self._counts = (done, total)
            now = self._clock()
            first = self._said == -1  # the first count at once, as LineThrottle does
            if done != self._said and (first or done >= total or now - self._last >= self.every_s):
                self._line(now)

    def beat(self) -> None:
        with self._lock:
            now = self._clock()
            if now - self._last >= self.every_s and self._counts[0] < self._counts[1]:
                self._line(now)

    def _line(self, now: float) -> None:
        self._last, self._said = now, self._counts[0]
        self._say(*self._counts, now - self._started)

    @contextmanager
    def beating(self, tick_s: float = 1.0) -> Iterator[Heartbeat]:
        with ticking(self.beat, tick_s):
            yield self
