from pipelines.throttle import LineThrottle


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
