"""Elapsed time in words a person reads while waiting, and the one way a slow step says what it does and how long
it took (``starting vLLM (SmolLM2-135M, cpu, float32) ...`` then ``... ready in 41 s``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def spent(seconds: float) -> str:
    """``7 s``, ``2 min 05 s``, ``1 h 02 min``: whole units, so a line that repeats each 10 s stays short."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


@contextmanager
def announced(
    say: Callable[[str], None], doing: str, done: str = "ready", clock: Callable[[], float] = time.monotonic
) -> Iterator[None]:
    """Say ``doing ...`` before the block and ``doing ... done in N s`` after it (nothing more when it raises: the
    error says what went wrong)."""
    say(f"{doing} ...")
    started = clock()
    yield
    say(f"{doing} ... {done} in {spent(clock() - started)}")
