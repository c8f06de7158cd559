"""The declared learner: an id per policy configuration, pass rates from its own rollouts only, and what the
selection does with them (never solved: SFT; frontier: RL; always solved: neither, with the reason)."""

import polars as pl
import pytest

from curation.config import ScoreConfig, SelectConfig
from curation.learner import LearnerError, PassCount, recorded_counts, roll_out
from curation.score_stage import run_score
from curation.select_stage import run_select
from generators.rollouts.config import PolicyConfig, RolloutBudget, RolloutConfig
from generators.rollouts.runner import run_rollouts
from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.stages import run_tasks
from schemas.io import read_records, write_records
from tests.curation.helpers import rollout_of, task_record


@pytest.fixture(scope="module")
def tasks():
    records, _ = run_tasks(
        SynthTasksConfig(n=6, seed=1), "learner_tasks"
    )  # seed 1: the perturbed agent passes 2 of them sometimes
    assert len(records) == 6
    return records


def test_the_id_changes_with_what_decides_the_rollouts_and_not_with_throughput():
    base = PolicyConfig(agent="llm", backend="vllm", k=2)
    assert base.policy_id() == PolicyConfig(agent="llm", backend="vllm", k=2, batch_size=8, cache=False).policy_id()
    assert base.policy_id() == RolloutConfig(agent="llm", backend="vllm", k=2, live=3, cache=False).policy_id()
    others = [
        PolicyConfig(agent="llm", backend="vllm", k=4),
        PolicyConfig(agent="llm", backend="vllm", k=2, model="/models/other"),
        PolicyConfig(agent="llm", backend="transformers", k=2),
        PolicyConfig(agent="llm", backend="vllm", k=2, tool_calls="schema"),
        PolicyConfig(agent="llm", backend="vllm", k=2, budget=RolloutBudget(max_turns=12)),
        PolicyConfig(agent="llm", backend="vllm", k=2, seed=1),
        PolicyConfig(agent="perturbed", k=2),
    ]
    assert len({base.policy_id(), *(cfg.policy_id() for cfg in others)}) == len(others) + 1


def test_rollout_records_carry_the_id_of_their_policy(tasks):
    cfg = RolloutConfig(agent="perturbed", k=1)
    records = list(run_rollouts(tasks[:2], cfg, None, "learner_ids"))
    assert {r.lineage.config_hash for r in records} == {PolicyConfig(agent="perturbed", k=1).policy_id()}


def test_only_the_learners_own_rollouts_count_and_an_undecided_one_is_no_pass():
    one, two = task_record("t1"), task_record("t2", order_id="W2")
    learner = [rollout_of(one, 0, True, "smol"), rollout_of(one, 1, False, "smol"), rollout_of(two, 0, None, "smol")]
    teacher = [rollout_of(one, i, True, "oracle") for i in range(3)] + [rollout_of(two, 0, True, "oracle")]
    counted = recorded_counts([*teacher, *learner], "smol")
    assert counted.learner_id == "smol"
    assert counted.counts == {"t1": PassCount(1, 2, (1.0, 0.0)), "t2": PassCount(0, 1, (0.0,))}
    assert recorded_counts(learner).counts == counted.counts  # one policy: it is the learner
    with pytest.raises(LearnerError, match=r"not one policy's \(found: oracle \(4 rollouts\), smol \(3 rollouts\)\)"):
        recorded_counts([*teacher, *learner])
    with pytest.raises(LearnerError, match="no rollouts of the learner other"):
        recorded_counts(learner, "other")


def test_selection_follows_the_learners_pass_rate(tmp_path):
    """Never solved: the teacher's demonstration is an SFT candidate; frontier: the task goes to RL and its
    demonstration stays out; always solved: neither, each with its reason."""
    never, frontier, solved = (task_record(f"t-{n}", order_id=f"W{i}") for i, n in enumerate(("never", "mid", "all")))
    teacher = [rollout_of(task, 0, True, "oracle") for task in (never, frontier, solved)]
    learner = [rollout_of(never, i, False, "smol") for i in range(2)]
    learner += [rollout_of(frontier, 0, True, "smol"), rollout_of(frontier, 1, False, "smol")]
    learner += [rollout_of(solved, i, True, "smol") for i in range(2)]
    write_records([never, frontier, solved, *teacher], tmp_path / "pool.parquet")
    write_records(learner, tmp_path / "learner.parquet")

    result = run_score(
        tmp_path / "pool.parquet",
        tmp_path / "scored.parquet",
        ScoreConfig(),
        read_records(tmp_path / "learner.parquet"),
    )
    assert result.learner == "smol"
    table = pl.read_parquet(result.scores_path)
    rows = {row["id"]: row for row in table.iter_rows(named=True)}
    assert [rows[f"t-{n}"]["pass_rate"] for n in ("never", "mid", "all")] == [0.0, 0.5, 1.0]
    assert {rows[t.id]["learner"] for t in (never, frontier, solved, *teacher)} == {"smol"}
    scored = {r.id: r.scores for r in read_records(tmp_path / "scored.parquet")}
    assert scored["t-mid"].learner == "smol" and scored["t-mid"].extra["frontier"] == 1.0

    run_select(tmp_path / "scored.parquet", tmp_path / "sel", SelectConfig(budget=10))
    assert [r.id for r in read_records(tmp_path / "sel" / "sft.parquet")] == ["t-never-r0"]
    assert [r.id for r in read_records(tmp_path / "sel" / "rl.parquet")] == ["t-mid"]
    left = {
        row["id"]: row["reason"] for row in pl.read_parquet(tmp_path / "sel" / "left_out.parquet").iter_rows(named=True)
    }
    assert left == {
        "t-never": "never_solved",
        "t-all": "always_solved",
        "t-mid-r0": "frontier_task",
        "t-all-r0": "learner_solves",
    }


def test_without_a_learner_there_are_no_pass_rates_even_with_rollouts_in_the_input(tmp_path):
    task = task_record("t1")
    write_records([task, rollout_of(task, 0, True), rollout_of(task, 1, False)], tmp_path / "in.parquet")
    result = run_score(tmp_path / "in.parquet", tmp_path / "scored.parquet", ScoreConfig())
    assert result.learner is None and "pass_rate" not in result.table.columns
    named = run_score(tmp_path / "in.parquet", tmp_path / "named.parquet", ScoreConfig(learner_id="teacher"))
    assert named.table.filter(pl.col("id") == "t1")["pass_rate"].to_list() == [0.5]


def test_an_oracle_learner_solves_every_task_so_the_rl_set_is_empty(tasks, tmp_path):
    write_records(tasks, tmp_path / "tasks.parquet")
    kept = []
    oracle = PolicyConfig(agent="oracle", k=2)
    counted = roll_out(oracle, tasks, kept.append)
    assert counted.learner_id == oracle.policy_id()
    assert {count.pass_rate for count in counted.counts.values()} == {1.0}
    assert len(kept) == 12 and {r.lineage.parents[0] for r in kept} == {t.id for t in tasks}

    run_score(tmp_path / "tasks.parquet", tmp_path / "scored.parquet", ScoreConfig(learner=oracle))
    scored = list(read_records(tmp_path / "scored.parquet"))
    assert all(r.scores.extra["pass_rate"] == 1.0 and r.scores.learner == oracle.policy_id() for r in scored)
    result = run_select(tmp_path / "scored.parquet", tmp_path / "sel", SelectConfig(budget=10))
    assert result.rl == 0 and result.left_out == {"always_solved": 6}


def test_the_rl_set_holds_exactly_the_frontier_tasks_of_a_perturbed_learner(tasks, tmp_path):
    write_records(tasks, tmp_path / "tasks.parquet")
    learner = PolicyConfig(agent="perturbed", k=4)
    counts = roll_out(learner, tasks).counts
    run_score(tmp_path / "tasks.parquet", tmp_path / "scored.parquet", ScoreConfig(learner=learner))
    run_select(tmp_path / "scored.parquet", tmp_path / "sel", SelectConfig(budget=10))
    frontier = {task_id for task_id, count in counts.items() if 0 < count.passes < count.rollouts}
    assert frontier  # the perturbed agent's faults fail some rollouts, not all
    rl = list(read_records(tmp_path / "sel" / "rl.parquet"))
    assert {r.id for r in rl} == frontier
    assert all(r.verifier.kind == "constraints" and r.task.constraints for r in rl)  # the reward travels with the task
