"""An interrupt Python drops (raised while a finalizer runs, where it cannot propagate) is sent again: any
command stops on Ctrl-C or SIGTERM, whatever code was running when the signal came."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.conftest import ROOT

SCRIPT = textwrap.dedent(
    """
    import signal, time
    from pipelines.interrupts import Interrupts

    class Finalizer:
        def __del__(self):
            signal.raise_signal(signal.SIGINT)  # its KeyboardInterrupt is raised in __del__, and dropped

    try:
        with Interrupts():
            Finalizer()
            time.sleep(20)
        print("slept through it")
    except KeyboardInterrupt:
        print("interrupted")
    """
)


def test_an_interrupt_dropped_in_a_finalizer_is_sent_again():
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "interrupted", done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
