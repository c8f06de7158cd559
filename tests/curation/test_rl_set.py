"""The RL set carries signal: a task enters when its learner rollouts' rewards are not all equal (DAPO's dynamic
sampling), ordered by learnability m (1 - m) of the mean reward; equal groups stay out with their reason; an
empty set says why in one line, everywhere it is shown."""

import json

import polars as pl

from curation.config import ScoreConfig, SelectConfig
from curation.facts import facts_of
from curation.report import ace_report, report_inputs
from curation.score_stage import run_score
from curation.select_stage import run_select
from curation.selection import select
from curation.signatures import embeddings_for
from schemas.io import read_records, write_records
from tests.curation.helpers import half_way_rollout, rollout_of, task_record
from tests.pipelines.cli_helpers import invoke

NEVER = (
    "RL set empty: no task's learner rollouts earned unequal rewards, so no GRPO group has an advantage "
    "(never solved 2)"
)


def scored_pool(tmp_path, learner: dict) -> tuple:
    """Tasks (named by ``learner``'s keys, in that order) scored with the learner's rollouts (its values: a list of
    1 for a pass, 0 for a failure, 0.25 for a half-way rollout); the scored file."""
    tasks = [task_record(name, order_id=f"W{i}", instruction=f"Cancel order W{i}.") for i, name in enumerate(learner)]
    rollouts = []
    for task, rewards in zip(tasks, learner.values()):
        for index, reward in enumerate(rewards):
            if reward == 0.25:
                rollouts.append(half_way_rollout(task, index))
            else:
                rollouts.append(rollout_of(task, index, bool(reward), "smol"))
    write_records(tasks, tmp_path / "tasks.parquet")
    run_score(tmp_path / "tasks.parquet", tmp_path / "scored.parquet", ScoreConfig(), rollouts)
    return tmp_path / "scored.parquet"


def left_out(out_dir) -> dict:
    rows = pl.read_parquet(out_dir / "left_out.parquet").iter_rows(named=True)
    return {row["id"]: (row["reason"], row["detail"]) for row in rows}


def test_groups_of_equal_rewards_leave_the_rl_set_each_with_its_reason(tmp_path):
    scored = scored_pool(
        tmp_path,
        {
            "t-partial": [0.25, 0.0],  # never passed, but one rollout got half-way: unequal, so it is learnable
            "t-never": [0.0, 0.0],
            "t-equal": [0.25, 0.25],  # the same partial credit every time: no advantage in the group
            "t-always": [1.0, 1.0],
            "t-mid": [1.0, 0.0],
        },
    )
    extra = {r.id: r.scores.extra for r in read_records(scored)}
    assert (extra["t-partial"]["reward_mean"], extra["t-partial"]["reward_spread"]) == (0.125, 0.25)
    assert extra["t-equal"]["reward_spread"] == 0.0 and extra["t-equal"]["pass_rate"] == 0.0

    result = run_select(scored, tmp_path / "sel", SelectConfig(budget=10))
    # Ordered by learnability: t-mid 0.5 x 0.5 = 0.25 before t-partial 0.125 x 0.875, though it came later.
    assert [r.id for r in read_records(tmp_path / "sel" / "rl.parquet")] == ["t-mid", "t-partial"]
    assert left_out(tmp_path / "sel") == {
        "t-never": ("never_solved", "pass_rate=0 reward_mean=0"),
        "t-equal": ("equal_rewards", "pass_rate=0 reward_mean=0.25"),
        "t-always": ("always_solved", "pass_rate=1 reward_mean=1"),
    }
    assert result.rl == 2 and result.rl_empty is None
    assert "rl_empty" not in json.loads((tmp_path / "sel" / "selection.json").read_text())


def test_the_rl_set_is_ordered_by_learnability_of_the_mean_reward_ties_in_input_order():
    means = {"quarter": 0.25, "half": 0.5, "three-quarters": 0.75, "eighth": 0.125}
    records = [task_record(name, order_id=f"W{i}", instruction=f"Cancel order W{i}.") for i, name in enumerate(means)]
    facts = [facts_of(r) for r in records]
    for f in facts:
        f.pass_rate = f.reward_mean = means[f.id]
        f.rewards_differ = True
    selection = select(facts, embeddings_for(facts), SelectConfig(budget=10))
    # p (1 - p): half 0.25; quarter and three-quarters 0.1875 each (input order); eighth 0.109375.
    assert [facts[i].id for i in selection.rl] == ["half", "quarter", "three-quarters", "eighth"]


def test_an_empty_rl_set_says_why_in_one_line_in_the_terminal_the_manifest_and_the_report(data_home, tmp_path):
    scored = scored_pool(tmp_path, {"t-a": [0.0, 0.0, 0.0], "t-b": [0.0, 0.0]})
    result = invoke("select", scored, "--budget", 5, "--out-dir", tmp_path / "sel")
    assert result.exit_code == 0, result.output
    assert NEVER in result.stdout.splitlines()
    assert json.loads((tmp_path / "sel" / "selection.json").read_text())["rl_empty"] == NEVER
    inputs = report_inputs(tmp_path / "sel")
    report = ace_report(inputs.records, tmp_path / "report", left_out=inputs.left_out, sets=inputs.sets)
    assert f"- select: SFT 0, RL 0. {NEVER}" in report.markdown.splitlines()


def test_the_one_line_names_missing_learner_rollouts_and_missing_tasks(tmp_path):
    write_records([task_record("t-a"), task_record("t-b", order_id="W2")], tmp_path / "tasks.parquet")
    result = run_select(tmp_path / "tasks.parquet", tmp_path / "sel", SelectConfig(budget=10))
    assert result.rl_empty == (
        "RL set empty: no task's learner rollouts earned unequal rewards, so no GRPO group has an advantage "
        "(no learner rollouts 2; declare a learner in `aceforge score`)"
    )
    write_records([rollout_of(task_record("t-a"), 0, True)], tmp_path / "rollouts.parquet")
    result = run_select(tmp_path / "rollouts.parquet", tmp_path / "sel2", SelectConfig(budget=10))
    assert result.rl_empty == "RL set empty: the input holds no task records (`aceforge synth tasks` makes them)"
