"""Ctrl-C and SIGTERM during the main job: noticed whatever handler is in place, and pressed home.

Dagster's in-process executor replaces the SIGINT handler while a step runs with one that raises
DagsterExecutionInterruptedError; it then fails the step and the run and returns, as if a stage had failed,
and the next job would be launched. Worse, the error can be raised inside a garbage-collection callback
(SQLAlchemy's, during a step), where Python prints it and drops it: the run goes on as if nothing happened.

The same drop can hit any command (a KeyboardInterrupt raised while a finalizer or a generator's cleanup runs):
the command line runs every command inside ``Interrupts``, which sends an interrupt Python dropped again.
So the job runner listens below the handlers: Python's C-level signal handler writes each signal number to
the wakeup file descriptor whichever Python handler is installed (``signal.set_wakeup_fd``). A thread reads it;
once SIGINT or SIGTERM came, ``requested`` is set, and while a job still runs the signal is sent again every
``RESEND_S`` seconds (at most ``MAX_RESENDS`` times) so that a dropped error does not let the step finish.
The runner raises KeyboardInterrupt after the job, and the CLI prints one line and exits 130; an interrupt
error Python drops in a callback is not printed either (it is sent again).
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

RESEND_S = 2.0
MAX_RESENDS = 3
_STOPPING = {signal.SIGINT, signal.SIGTERM}


class Interrupts:
    def __init__(self) -> None:
        self.requested = False
        self._running_job = False
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._closed = threading.Event()
        self._previous = -1
        self._dropped = False  # an interrupt Python dropped (raised in a finalizer) waits to be sent again
        self._last = signal.SIGINT  # the stopping signal that came last: the one sent again

    def __enter__(self) -> Interrupts:
        if threading.current_thread() is not threading.main_thread():  # only the main thread gets signals
            return self
        self._previous = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)
        self._hook = sys.unraisablehook
        sys.unraisablehook = self._unraisable
        threading.Thread(target=self._listen, name="aceforge-interrupts", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._running_job = False
        if threading.current_thread() is threading.main_thread():
            signal.set_wakeup_fd(self._previous)
            sys.unraisablehook = self._hook
        self._closed.set()
        os.close(self._write)

    def _unraisable(self, unraisable: sys.UnraisableHookArgs) -> None:
        """An interrupt raised inside a garbage-collection callback, dropped by Python: silent (it is resent)."""
        kind = unraisable.exc_type
        if kind is not None and (issubclass(kind, KeyboardInterrupt) or kind.__name__.endswith("InterruptedError")):
            self._dropped = True
            return
        self._hook(unraisable)

    @contextmanager
    def job(self) -> Iterator[None]:
        """Around one job's execution: the span in which an interrupt that did not stop the step is sent again."""
        self._running_job = True
        try:
            yield
        finally:
            self._running_job = False

    def _listen(self) -> None:
        resends, waited = 0, 0.0
        try:
            while not self._closed.is_set():
                ready, _, _ = select.select([self._read], [], [], 0.5)
                if ready:
                    data = os.read(self._read, 64)
                    if not data:  # the write end was closed
                        return
                    stopping = [number for number in data if number in _STOPPING]
                    if stopping:
                        self.requested, self._last = True, signal.Signals(stopping[-1])
                elif self._dropped and resends < MAX_RESENDS:  # any command: the interrupt Python dropped
                    self._dropped, resends = False, resends + 1
                    os.kill(os.getpid(), self._last)
                elif self.requested and self._running_job and resends < MAX_RESENDS:
                    waited += 0.5
                    if waited >= RESEND_S:
                        waited, resends = 0.0, resends + 1
                        os.kill(os.getpid(), signal.SIGINT)
        finally:
            os.close(self._read)
