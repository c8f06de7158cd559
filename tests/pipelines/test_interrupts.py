"""Interrupts reach every command. An interrupt Python drops (raised while a finalizer runs, where it cannot propagate) is sent again: any
command stops on Ctrl-C or SIGTERM, whatever code was running when the signal came."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.conftest import ROOT

SCRIPT = textwrap.dedent(
    """
    import signal, time
    from pipelines.interrupts import Interrupts

    # as the command line starts (whatever the test runner's process left blocked or ignored)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.default_int_handler)

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


@pytest.mark.parametrize("inherited", ["ignored", "blocked"])
def test_sigterm_stops_a_command_started_with_sigint_ignored_or_blocked(inherited, data_home, tmp_path):
    """A script's background job inherits SIGINT ignored, a parent's mask may block it: SIGTERM still stops."""

    def deaf_to_sigint() -> None:
        if inherited == "ignored":
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        else:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    run = subprocess.Popen(
        [sys.executable, "-m", "pipelines.cli.main", "synth", "tasks", "--n", "100000", "--no-catalog"]
        + ["-o", str(tmp_path / "t.jsonl")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=deaf_to_sigint,
    )
    time.sleep(8)  # past the imports: into the work
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert err.rstrip().splitlines()[-1].startswith("interrupted: the work in hand stopped")
