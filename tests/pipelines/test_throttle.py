import threading

from pipelines.throttle import Heartbeat, LineThrottle


def test_at_most_one_line_per_interval_and_always_the_last():
    throttle = LineThrottle(every_s=3600)
    assert [throttle.due(done, 5) for done in range(6)] == [True, False, False, False, False, True]
    assert throttle.due(5, 5) is False  # the same count is not said twice


def test_each_kind_of_work_has_its_own_interval_and_an_unknown_total_never_ends_it():
    throttle = LineThrottle(every_s=3600)
    assert throttle.due(1, None, key="Encoder") is True
    assert throttle.due(2, None, key="Encoder") is False
    assert throttle.due(1, 4, key="convert") is True
    assert throttle.due(4, 4, key="convert") is True


def test_with_no_interval_every_new_count_is_said():
    throttle = LineThrottle(every_s=0)
    assert [throttle.due(done, 3) for done in [1, 2, 2, 3]] == [True, True, False, True]


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_heartbeat_says_the_counts_every_interval_while_nothing_finishes():
    clock, lines = FakeClock(), []
    heartbeat = Heartbeat(lambda done, total, elapsed: lines.append((done, total, elapsed)), 8, 10, clock)
    heartbeat.update(1, 8)  # the first count at once
    for now in (105, 109.9, 110, 115, 120, 131):
        clock.now = now
        heartbeat.beat()  # no rollout finished in all that time
    assert lines == [(1, 8, 0), (1, 8, 10), (1, 8, 20), (1, 8, 31)]


def test_a_count_that_moves_waits_for_the_interval_and_the_end_is_always_said_once():
    clock, lines = FakeClock(), []
    heartbeat = Heartbeat(lambda done, total, elapsed: lines.append((done, total, elapsed)), 3, 10, clock)
    heartbeat.update(1, 3)
    clock.now = 104
    heartbeat.update(2, 3)  # 4 s after the last line: not yet
    clock.now = 106
    heartbeat.update(3, 3)  # the end, at once
    clock.now = 200
    heartbeat.beat()  # done: no more lines
    assert lines == [(1, 3, 0), (3, 3, 6)]


def test_the_heartbeat_thread_says_lines_while_the_block_waits():
    said = threading.Event()
    heartbeat = Heartbeat(lambda done, total, elapsed: said.set(), 4, every_s=0)
    with heartbeat.beating(tick_s=0.01):
        assert said.wait(5)  # nothing was updated: only the thread can have said it
