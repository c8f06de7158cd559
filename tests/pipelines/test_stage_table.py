"""The main job's stage table: a stage's one-line note (why the RL set is empty) comes from its materialization
and is printed under the table."""

from __future__ import annotations

from dagster import MaterializeResult, asset, materialize

from pipelines.cli.run import stage_notes
from pipelines.main_job import _stage_outcomes

WHY = "RL set empty: no task's learner rollouts earned unequal rewards, so no GRPO group has an advantage (x)"


def test_the_rl_sets_empty_line_reaches_the_stage_table():
    @asset(name="rl_set")
    def empty_rl_set():  # what the record store records of the selection's rl_set output (stage/<count>)
        return MaterializeResult(metadata={"dagster/row_count": 0, "stage/rl": 0, "stage/rl_empty": WHY})

    @asset(name="sft_set")
    def sft_set():
        return MaterializeResult(metadata={"dagster/row_count": 3, "stage/sft": 3})

    events = materialize([empty_rl_set, sft_set], raise_on_error=True).all_events
    outcomes = _stage_outcomes(events, ("sft_set", "rl_set"), None, {})
    assert [(o.stage, o.rows, o.note) for o in outcomes] == [("sft_set", 3, None), ("rl_set", 0, WHY)]
    assert [str(line) for line in stage_notes(outcomes)] == [f"rl_set: {WHY}"]
