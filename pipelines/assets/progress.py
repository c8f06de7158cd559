"""Progress of a long step as lines of the run's log: ``aceforge run`` says them as they come (main_job.StepLines
reads the run's event log, whichever process the step runs in), and the UI shows them in the run's log."""

from __future__ import annotations

import time
from collections.abc import Callable

from dagster import AssetExecutionContext

PREFIX = "progress: "


def step_progress(context: AssetExecutionContext, unit: str, every_s: float = 10.0) -> Callable[[int, int], None]:
    """An ``on_progress(done, total)`` that logs ``progress: done/total unit`` at most every ``every_s`` seconds,
    and always at the end."""
    last = -float("inf")

    def on_progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done >= total or now - last >= every_s:
            last = now
            context.log.info(f"{PREFIX}{done}/{total} {unit}")

    return on_progress


def progress_of(message: str) -> str | None:
    """What a progress line of ``step_progress`` says (``12/48 rollouts``), or None for any other log line."""
    return message[len(PREFIX) :] if message.startswith(PREFIX) else None
