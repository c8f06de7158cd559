"""The declared learner: pass rates from recorded rollouts, and from rolling an agent out through generators/rollouts."""

import pytest

from curation.config import ScoreConfig, SelectConfig
from curation.learner import PassCount, RecordedLearner, RolloutLearner
from curation.score_stage import run_score
from curation.select_stage import run_select
from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.stages import run_tasks
from schemas.io import read_records, write_records
from tests.curation.helpers import rollout_of, task_record


@pytest.fixture(scope="module")
def tasks():
    records, _ = run_tasks(SynthTasksConfig(n=6, seed=3, catalog=False), "learner_tasks")
    assert len(records) == 6
    return records


def test_recorded_learner_counts_verdicts_per_task_and_an_undecided_rollout_is_no_pass():
    one, two = task_record("t1"), task_record("t2", order_id="W2")
    rollouts = [rollout_of(one, 0, True), rollout_of(one, 1, False), rollout_of(one, 2, True), rollout_of(two, 0, True)]
    rollouts.append(
        rollout_of(two, 1, True).model_copy(
            update={"verifier": rollouts[0].verifier.model_copy(update={"result": None})}
        )
    )
    learner = RecordedLearner.from_rollouts(rollouts)
    assert learner.counts == {"t1": PassCount(2, 3), "t2": PassCount(1, 2)}
    assert learner.pass_counts([one], k=4, seed=0) == {"t1": PassCount(2, 3)}


def test_a_task_the_learner_always_solves_is_not_in_the_rl_set(tasks, tmp_path):
    write_records(tasks, tmp_path / "tasks.parquet")
    kept = []
    oracle = RolloutLearner("oracle", on_rollout=kept.append)
    assert {count.pass_rate for count in oracle.pass_counts(tasks, k=2, seed=0).values()} == {1.0}
    assert len(kept) == 12 and {r.lineage.parents[0] for r in kept} == {t.id for t in tasks}

    run_score(tmp_path / "tasks.parquet", tmp_path / "scored.parquet", ScoreConfig(learner="oracle", k=2), oracle)
    scored = list(read_records(tmp_path / "scored.parquet"))
    assert all(r.scores.extra["pass_rate"] == 1.0 and r.scores.extra["frontier"] == 0.0 for r in scored)
    result = run_select(tmp_path / "scored.parquet", tmp_path / "sel", SelectConfig(budget=10))
    assert result.rl == 0 and result.left_out == {"always_solved": 6}
    assert list(read_records(tmp_path / "sel" / "rl.parquet")) == []


def test_the_rl_set_holds_exactly_the_frontier_tasks_of_a_perturbed_learner(tasks, tmp_path):
    write_records(tasks, tmp_path / "tasks.parquet")
    learner = RolloutLearner("perturbed")
    counts = learner.pass_counts(tasks, k=4, seed=0)
    run_score(tmp_path / "tasks.parquet", tmp_path / "scored.parquet", ScoreConfig(learner="perturbed", k=4), learner)
    run_select(tmp_path / "scored.parquet", tmp_path / "sel", SelectConfig(budget=10))
    frontier = {task_id for task_id, count in counts.items() if 0 < count.passes < count.rollouts}
    assert frontier  # the perturbed agent's faults fail some rollouts, not all
    rl = list(read_records(tmp_path / "sel" / "rl.parquet"))
    assert {r.id for r in rl} == frontier
    assert all(r.verifier.kind == "constraints" and r.task.constraints for r in rl)  # the reward travels with the task
