"""bench/verdict.py: the cluster bootstrap over conversations with seeds as a factor, and the minimum detectable
effect, on literal hits."""

from __future__ import annotations

import pytest
from verdict import cluster_bootstrap, minimum_detectable_effect

# Ten conversations of four turns: arm a hits every turn of conversations 0-5, arm b of 0-3. Within a
# conversation the turns agree (a model that misreads the order id misses every later call).
CLUSTERS = [c for c in range(10) for _ in range(4)]
A = [[c < 6 for c in CLUSTERS]]
B = [[c < 4 for c in CLUSTERS]]


def width(result: dict) -> float:
    low, high = result["interval"]
    return high - low


def test_resampling_turns_understates_the_spread_of_correlated_turns():
    by_conversation = cluster_bootstrap(A, B, CLUSTERS, resamples=2000)
    by_turn = cluster_bootstrap(A, B, list(range(len(CLUSTERS))), resamples=2000)
    assert by_conversation["difference"] == by_turn["difference"] == pytest.approx(0.2)
    # forty "independent" turns vs ten conversations: the honest interval is about twice as wide
    assert width(by_conversation) > 1.6 * width(by_turn)
    assert by_conversation["interval"][0] <= 0.0 < 0.2 <= by_conversation["interval"][1]
    assert by_turn["interval"][0] > 0.0


def test_seeds_are_resampled_not_taken_as_min_and_max():
    same_turns = [c < 5 for c in CLUSTERS]
    # arm a's two seeds: 0.5 and 0.5 + 0.25 on the same conversations; b is the same 0.5 every time
    a = [same_turns, [c < 5 or (c in (5, 6) or (c == 7 and t % 2 == 0)) for t, c in enumerate(CLUSTERS)]]
    b = [same_turns, same_turns]
    result = cluster_bootstrap(a, b, CLUSTERS, resamples=2000)
    assert result["difference"] == pytest.approx(0.125)
    # the seed draw alone gives 0, 0.125 or 0.25: the interval reaches both ends, with conversations on top
    low, high = result["interval"]
    assert low <= 0.0 and high >= 0.25


def test_identical_arms_have_a_zero_interval():
    assert cluster_bootstrap(A, A, CLUSTERS, resamples=200) == {"difference": 0.0, "interval": [0.0, 0.0]}


def test_minimum_detectable_effect_from_the_per_conversation_variance():
    # three conversations of two turns; per-turn differences 1, 1 | 0, 0 | 0, 1 (one seed each)
    a = [[1, 1, 0, 0, 0, 1]]
    b = [[0, 0, 0, 0, 0, 0]]
    result = minimum_detectable_effect(a, b, [0, 0, 1, 1, 2, 2])
    # d = 3/6 = 0.5; D = (2, 0, 1), D - d m = (1, -1, 0); SE^2 = 3/2 * 2 / 36 = 1/12
    assert result["se"] == pytest.approx((1 / 12) ** 0.5)
    # (z(0.975) + z(0.8)) * SE = (1.95996 + 0.84162) * 0.28868
    assert result["mde"] == pytest.approx(2.80126 * 0.288675, abs=1e-4)


def test_minimum_detectable_effect_averages_the_seeds_first():
    a = [[1, 1, 0, 0, 0, 1], [1, 1, 0, 0, 0, 1]]
    b = [[0, 0, 0, 0, 0, 0]]
    assert minimum_detectable_effect(a, b, [0, 0, 1, 1, 2, 2])["se"] == pytest.approx((1 / 12) ** 0.5)
    half = [[0.5, 0.5, 0, 0, 0, 0.5]]  # seeds 1 and 0 on the same turns: half the differences, half the SE
    both = [[1, 1, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0]]
    assert minimum_detectable_effect(both, b, [0, 0, 1, 1, 2, 2]) == minimum_detectable_effect(
        half, b, [0, 0, 1, 1, 2, 2]
    )
