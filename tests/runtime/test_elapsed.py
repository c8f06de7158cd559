import re

from runtime.elapsed import announced, listening, spent
from tests.conftest import SPENT


def test_elapsed_time_in_whole_units():
    said = [spent(s) for s in (0.4, 41.9, 125, 3599, 3720)]
    assert said == ["0 s", "41 s", "2 min 05 s", "59 min 59 s", "1 h 02 min"]
    assert all(re.fullmatch(SPENT, line) for line in said)  # the pattern other tests match elapsed times with


def test_a_slow_step_says_what_it_does_then_how_long_it_took_to_whoever_listens():
    times, lines = iter([10.0, 51.5]), []
    with listening(lines.append), announced("starting vLLM (SmolLM2-135M, cpu, float32)", clock=lambda: next(times)):
        assert lines == ["starting vLLM (SmolLM2-135M, cpu, float32) ..."]
    assert lines[-1] == "starting vLLM (SmolLM2-135M, cpu, float32) ... ready in 41 s"
    with announced("converting"):  # no one listens outside the block
        pass
    assert len(lines) == 2
