"""Elapsed time in words a person reads while waiting, and the one way a slow step (converting a model, starting
an engine) says what it does and how long it took: ``starting vLLM (SmolLM2-135M-Instruct, cpu, bfloat16) ...``
then ``... ready in 41 s``. Library code announces; the command decides where the lines go (``slow_steps_to``):
the CLI's stderr, a Dagster step's log (which ``aceforge run`` prints); nowhere when no one listens."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# Who hears the lines of slow steps; None: no one (a library call, a test).
_listener: ContextVar[Callable[[str], None] | None] = ContextVar("slow_step_listener", default=None)


def spent(seconds: float) -> str:
    """``7 s``, ``2 min 05 s``, ``1 h 02 min``: whole units, so a line that repeats each 10 s stays short."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


def slow_steps_to(say: Callable[[str], None]) -> None:
    """From now on in this context (a command, a step), ``announced`` lines go to ``say``."""
    _listener.set(say)


@contextmanager
def listening(say: Callable[[str], None]) -> Iterator[None]:
    """``slow_steps_to`` for the block only."""
    token = _listener.set(say)
    try:
        yield
    finally:
        _listener.reset(token)


@contextmanager
def announced(doing: str, done: str = "ready", clock: Callable[[], float] = time.monotonic) -> Iterator[None]:
    """Say ``doing ...`` before the block and ``doing ... done in N s`` after it (nothing more when it raises: the
    error says what went wrong)."""
    say = _listener.get() or (lambda line: None)
    say(f"{doing} ...")
    started = clock()
    yield
    say(f"{doing} ... {done} in {spent(clock() - started)}")


@contextmanager
def ticking(tick: Callable[[], None], every_s: float = 1.0) -> Iterator[None]:
    """Within the block, ``tick()`` every ``every_s`` from a daemon thread (stopped and joined on the way out): what
    keeps a progress display alive while the work in hand (a model batch, a training step) says nothing."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(every_s):
            tick()

    thread = threading.Thread(target=run, name="progress-tick", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
