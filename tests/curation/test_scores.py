"""Each score as a pure function on literal records: accuracy levels, structural complexity, learner columns."""

import math

import pytest

from curation.accuracy import ACCURACY_LEVELS, accuracy
from curation.complexity import complexity_level, learner_columns, structural_complexity, structural_features
from curation.facts import facts_of
from curation.learner import LearnerCounts, PassCount
from curation.score_columns import accuracy_columns, complexity_columns, pass_rate_columns, score_table, scores_of
from schemas.record import Verifier, VerifierResult
from schemas.steps import ApiAction
from tests.curation.helpers import chat_record, task_record, trajectory_record, verdict


def test_accuracy_levels_come_from_v_and_an_unverified_record_is_never_a_pass():
    assert accuracy(trajectory_record("p", passed=True)) == accuracy(trajectory_record("q", passed=True))
    passed = accuracy(trajectory_record("p", passed=True))
    assert (passed.level, passed.value) == ("passed", 1.0)
    partial = trajectory_record("s", passed=True)
    partial.verifier = verdict(True, score=0.9)  # passed, with a redundant-write penalty
    assert accuracy(partial).value == 0.9
    assert (
        accuracy(trajectory_record("f", passed=False)).level,
        accuracy(trajectory_record("f", passed=False)).value,
    ) == ("failed", 0.0)
    assert accuracy(trajectory_record("u", passed=None)).level == "undecided"
    unverified = accuracy(chat_record("c", "hi", "hello"))
    assert (unverified.level, unverified.value) == ("unverified", None)
    never_run = trajectory_record("n")
    never_run.verifier = Verifier(kind="constraints")
    assert accuracy(never_run).level == "unverified"


def test_a_malformed_trajectory_is_invalid_whatever_v_says():
    record = trajectory_record("x", passed=True)
    record.trajectory = record.trajectory[:4]  # stops on the cancel call, which nothing answers
    result = accuracy(record)
    assert result.level == "invalid" and result.value == 0.0
    assert "unterminated" in result.structure_reasons
    assert ACCURACY_LEVELS.index("invalid") < ACCURACY_LEVELS.index("unverified") < ACCURACY_LEVELS.index("passed")


def test_structural_features_and_the_complexity_formula():
    features = structural_features(trajectory_record("a"))
    assert features == {
        "turns": 2,  # the user's request and the agent's closing message
        "tool_calls": 2,
        "distinct_tools": 2,
        "write_actions": 1,  # cancel_order is a write tool of E
        "constraints": 1,
        "tokens": features["tokens"],
    }
    assert 40 < features["tokens"] < 100
    expected = (
        sum(
            min(1.0, math.log1p(features[name]) / math.log1p(cap))
            for name, cap in {
                "turns": 20,
                "tool_calls": 15,
                "distinct_tools": 8,
                "write_actions": 4,
                "constraints": 6,
                "tokens": 4000,
            }.items()
        )
        / 6
    )
    assert structural_complexity(features) == pytest.approx(expected, abs=1e-6)
    # A task counts its gold actions.
    assert structural_features(task_record("t"))["tool_calls"] == 2
    assert [complexity_level(x) for x in (0.0, 0.33, 0.34, 0.7, 1.0)] == ["low", "low", "medium", "high", "high"]


def test_learner_columns_the_frontier_flag_and_the_rewards():
    solved = {"pass_rate": 1.0, "difficulty": 0.0, "frontier": 0.0, "learner_k": 4.0}
    assert learner_columns(4, (1.0,) * 4) == {**solved, "reward_mean": 1.0, "reward_spread": 0.0, "learnability": 0.0}
    assert learner_columns(0, (0.0,) * 4)["frontier"] == 0.0
    assert learner_columns(1, (1.0, 0.0, 0.0, 0.0)) == {
        **{"pass_rate": 0.25, "difficulty": 0.75, "frontier": 1.0, "learner_k": 4.0},
        **{"reward_mean": 0.25, "reward_spread": 1.0, "learnability": 0.1875},
    }
    # Never passed, but half of the rollouts reached the gold end state half-way: unequal rewards, learnable.
    partial = learner_columns(0, (0.25, 0.0, 0.25, 0.0))
    assert (partial["frontier"], partial["reward_spread"], partial["learnability"]) == (0.0, 0.25, 0.109375)


def test_score_table_and_scores_of_put_each_column_in_its_place():
    task, solved = task_record("t"), trajectory_record("a")
    empty = chat_record("e", "", "")
    empty.trajectory = []
    facts = [facts_of(r) for r in (task, solved, empty)]
    table = score_table(
        facts,
        [
            accuracy_columns,
            complexity_columns,
            pass_rate_columns(LearnerCounts("smol", {"t": PassCount(1, 4, (1.0, 0.0, 0.0, 0.0))})),
        ],
    )
    rows = list(table.iter_rows(named=True))
    assert [row["accuracy_level"] for row in rows] == ["unverified", "passed", "unverified"]
    assert rows[0]["pass_rate"] == 0.25 and rows[1]["pass_rate"] is None
    assert [row["learner"] for row in rows] == ["smol", None, None]
    assert rows[2]["missing"] == ["no_text", "no_task", "empty_trajectory"]
    scores = scores_of(rows[2])
    assert scores.accuracy is None and scores.diversity is None  # not computable: left empty, never 0
    assert scores.extra["missing_no_text"] == 1.0 and scores.extra["accuracy_level"] == ACCURACY_LEVELS.index(
        "unverified"
    )
    assert "pass_rate" not in scores.extra
    assert scores_of(rows[0]).extra["frontier"] == 1.0 and scores_of(rows[0]).learner == "smol"


def test_a_tool_call_without_any_result_observation_is_a_format_not_an_invalid_trajectory():
    # ADP-style data answers calls with environment turns, never with a tool result.
    record = chat_record("adp", "go to the kitchen", "done")
    record.trajectory.insert(1, ApiAction(function="go_to", kwargs={"place": "kitchen"}))
    record.verifier = Verifier(kind="reward", result=VerifierResult(passed=True, score=1.0))
    assert accuracy(record).level == "passed"
