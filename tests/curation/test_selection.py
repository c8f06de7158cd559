"""Budgeted selection on literal inputs: facility location, complexity quotas, SFT/RL sets and left-out reasons."""

import numpy as np
import polars as pl

from curation.config import DedupConfig, ScoreConfig, SelectConfig
from curation.dedup_stage import run_dedup
from curation.facility_location import facility_location, level_quotas
from curation.facts import facts_of
from curation.score_stage import run_score
from curation.select_stage import run_select
from curation.selection import select
from curation.signatures import embeddings_for
from schemas.io import read_records, write_records
from tests.curation.helpers import chat_record, rollout_of, task_record, trajectory_record


def unit(rows):
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_facility_location_takes_one_record_per_cluster_before_a_second_from_any():
    rng = np.random.default_rng(0)
    centers = unit([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    sizes = [10, 6, 3]
    vectors = unit(np.vstack([c + 0.05 * rng.normal(size=(n, 3)) for c, n in zip(centers, sizes)]))
    cluster = np.repeat([0, 1, 2], sizes)
    chosen = facility_location(vectors, ["low"] * len(vectors), budget=3, k=5)
    assert sorted(cluster[chosen]) == [0, 1, 2]
    assert facility_location(vectors, ["low"] * len(vectors), budget=50) == list(range(19))


def test_quotas_keep_the_mix_of_complexity_levels():
    levels = ["low"] * 60 + ["medium"] * 30 + ["high"] * 10
    assert level_quotas(levels, 10) == {"low": 6, "medium": 3, "high": 1}
    assert level_quotas(["low"] * 98 + ["high"] * 2, 10) == {"low": 9, "high": 1}  # a rare level keeps a place
    vectors = unit(np.eye(4)[[0, 0, 1, 1, 2, 3]] + 0.01)
    chosen = facility_location(vectors, ["low", "low", "low", "low", "high", "high"], budget=2, k=3)
    assert sorted(["low", "low", "low", "low", "high", "high"][i] for i in chosen) == ["high", "low"]


def test_select_takes_verified_successes_for_sft_frontier_tasks_for_rl_and_says_why_for_the_rest():
    records = [
        trajectory_record("ok-1", order_id="W1"),
        trajectory_record("ok-2", order_id="W2", instruction="Cancel my order W2 today, I no longer need it."),
        trajectory_record("failed", order_id="W3", passed=False),
        trajectory_record("undecided", order_id="W4", passed=None),
        chat_record("chat", "What is 2+2?", "4"),
        task_record("frontier", order_id="W5"),
        task_record("always", order_id="W6"),
        task_record("never", order_id="W7"),
        task_record("unrolled", order_id="W8"),
    ]
    rates = {"frontier": 0.5, "always": 1.0, "never": 0.0}
    facts = [facts_of(r) for r in records]
    for f in facts:
        f.pass_rate = f.reward_mean = rates.get(f.id)
        f.rewards_differ = None if f.pass_rate is None else f.id == "frontier"
    selection = select(facts, embeddings_for(facts), SelectConfig(budget=1))
    assert len(selection.sft) == 1 and facts[selection.sft[0]].id in ("ok-1", "ok-2")
    assert [facts[i].id for i in selection.rl] == ["frontier"]
    reasons = {row.id: row.reason for row in selection.left_out}
    assert reasons == {
        "failed": "failed",
        "undecided": "undecided",
        "chat": "unverified",
        "always": "always_solved",
        "never": "never_solved",
        "unrolled": "no_pass_rate",
        ("ok-2" if facts[selection.sft[0]].id == "ok-1" else "ok-1"): "outside_budget",
    }
    assert len(selection.sft) + len(selection.rl) + len(selection.left_out) == len(records)


def test_a_success_only_its_source_vouches_for_stays_out_of_sft_unless_accepted():
    imported = trajectory_record("imported", order_id="W1")
    imported.verifier.result.origin = None  # as a converter stores a source's own reward
    records = [imported, trajectory_record("computed", order_id="W2")]
    facts = [facts_of(r) for r in records]
    assert [f.verdict_origin for f in facts] == ["imported", "computed"]
    selection = select(facts, embeddings_for(facts), SelectConfig(budget=10))
    assert [facts[i].id for i in selection.sft] == ["computed"]
    assert [(row.id, row.reason) for row in selection.left_out] == [("imported", "imported_verdict")]
    accepting = select(facts, embeddings_for(facts), SelectConfig(budget=10, accept_imported_verdicts=True))
    assert sorted(facts[i].id for i in accepting.sft) == ["computed", "imported"]


def test_a_trajectory_the_verifier_could_not_decide_stays_out_of_sft_unless_accepted():
    undecided = trajectory_record("undecided", order_id="W1")
    undecided.verifier.result = undecided.verifier.result.model_copy(
        update={"passed": None, "score": None, "origin": "undecided", "reasons": ["consent_conditional"]}
    )
    records = [undecided, trajectory_record("computed", order_id="W2")]
    facts = [facts_of(r) for r in records]
    selection = select(facts, embeddings_for(facts), SelectConfig(budget=10))
    assert [(row.id, row.reason) for row in selection.left_out] == [("undecided", "undecided")]
    accepting = select(facts, embeddings_for(facts), SelectConfig(budget=10, accept_undecided=True))
    assert sorted(facts[i].id for i in accepting.sft) == ["computed", "undecided"]


def test_the_whole_chain_on_files_counts_every_record_once(tmp_path):
    frontier = task_record("t-frontier", order_id="W1")
    solved = task_record(
        "t-solved", order_id="W2", instruction="My order W2 arrived broken: cancel what is left of it."
    )
    rollouts = [rollout_of(frontier, 0, True), rollout_of(frontier, 1, False)]
    rollouts += [rollout_of(solved, i, True) for i in range(2)]  # identical: the second is an exact duplicate
    bad = chat_record("no-text", "", "")
    bad.trajectory = []
    records = [frontier, solved, *rollouts, bad, chat_record("chat", "What is 2+2?", "4")]
    write_records(records, tmp_path / "in.parquet")
    run_score(
        tmp_path / "in.parquet", tmp_path / "scored.parquet", ScoreConfig(learner_id="teacher")
    )  # the learner: these rollouts
    scored = {r.id: r.scores for r in read_records(tmp_path / "scored.parquet")}
    assert scored["t-frontier"].extra["pass_rate"] == 0.5 and scored["t-solved"].extra["pass_rate"] == 1.0
    assert scored["no-text"].extra["missing_no_text"] == 1.0 and scored["no-text"].diversity is None
    dedup = run_dedup(tmp_path / "scored.parquet", tmp_path / "deduped.parquet", DedupConfig())
    result = run_select(tmp_path / "deduped.parquet", tmp_path / "sel", SelectConfig(budget=5))
    assert result.records == len(records) == result.sft + result.rl + sum(result.left_out.values())
    left = {row["id"]: row for row in pl.read_parquet(tmp_path / "sel" / "left_out.parquet").iter_rows(named=True)}
    for removed in pl.read_parquet(dedup.audit_path).iter_rows(named=True):
        assert left[removed["removed_id"]]["reason"] == "duplicate"
        assert left[removed["removed_id"]]["duplicate_of"] == removed["kept_id"]
    assert left["t-solved"]["reason"] == "always_solved" and left["no-text"]["reason"] == "no_task"
    assert left["chat"]["reason"] == "unverified"
    assert [r.id for r in read_records(tmp_path / "sel" / "rl.parquet")] == ["t-frontier"]
    assert {r.id for r in read_records(tmp_path / "sel" / "sft.parquet")} <= {r.id for r in rollouts}


def test_the_perturbed_agents_rollouts_and_trajectories_without_a_working_call_stay_out_of_sft():
    perturbed = trajectory_record("perturbed", order_id="W1")
    perturbed.lineage.generator = {"agent": {"name": "perturbed", "version": "1"}, "faults": [{"kind": "none"}]}
    oracle = trajectory_record("oracle", order_id="W2")
    oracle.lineage.generator = {"agent": {"name": "oracle", "version": "1"}}
    failing = trajectory_record("all-errors", order_id="W3")
    for step in failing.trajectory:
        if getattr(step, "source", None) == "tool":
            step.content = "Error: order not found"
    facts = [facts_of(r) for r in (perturbed, oracle, failing)]
    selection = select(facts, embeddings_for(facts), SelectConfig(budget=10))
    assert [facts[i].id for i in selection.sft] == ["oracle"]
    assert {(row.id, row.reason, row.detail) for row in selection.left_out} == {
        ("perturbed", "agent_excluded", "agent=perturbed"),
        ("all-errors", "no_successful_call", ""),
    }
    allowing = select(facts, embeddings_for(facts), SelectConfig(budget=10, sft_exclude_agents=[]))
    assert sorted(facts[i].id for i in allowing.sft) == ["oracle", "perturbed"]
