"""The main job's stage table: a stage's one-line note (why the RL set is empty) comes from its materialization
and is printed under the table."""

from __future__ import annotations

import io

from dagster import MaterializeResult, asset, materialize
from rich.console import Console

from pipelines.cli.run import print_stages, stage_notes
from pipelines.main_job import StageOutcome, _stage_outcomes

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


def test_every_output_path_is_printed_whole_below_a_table_that_would_cut_it():
    home = "/home/newcomer/projects/agent-data/aceforge-data/assets"
    outcomes = [
        StageOutcome("verified_rollouts[retail]", True, 48, 0.52, {"verdicts": True}, path=f"{home}/verified/retail"),
        StageOutcome("sft_set", True, 12, None, {}, path=f"{home}/sft_set/all/records.parquet"),
        StageOutcome("ace_report", False, None, None, {}),
    ]
    for width in (80, 300):
        printed = io.StringIO()
        print_stages(outcomes, Console(file=printed, width=width))
        lines = printed.getvalue().splitlines()
        for o in outcomes[:2]:
            assert any(o.path in line for line in lines), (width, o.path)
        below = [line for line in lines if line.startswith(("verified_rollouts[retail]: ", "sft_set: "))]
        assert below == ([] if width == 300 else [f"{o.stage}: {o.path}" for o in outcomes[:2]])
        assert max(map(len, lines[: len(lines) - len(below)])) <= width
