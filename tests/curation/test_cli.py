"""`aceforge score | dedup | select | report` on records converted from ../shared/fixtures, plus bad input."""

import polars as pl

from data_catalog.catalog import Catalog
from schemas.io import read_records, write_records
from schemas.record import AgentRecord, Source, Task
from tests.conftest import ADP_FIXTURES
from tests.curation.helpers import rollout_of, task_record
from tests.pipelines.cli_helpers import TAU_RUNS, invoke, last_json


def converted(tmp_path):
    """Every ADP sample and the τ-bench runs, converted by `aceforge convert`, plus tasks, rollouts and bad records."""
    adp = sorted(str(p) for p in ADP_FIXTURES.glob("*/sample_std.json"))
    assert invoke("convert", "-f", "adp", *adp, "-o", tmp_path / "adp.parquet", "--no-catalog").exit_code == 0
    assert invoke("convert", "-f", "tau_bench", TAU_RUNS, "-o", tmp_path / "tau.parquet", "--no-catalog").exit_code == 0
    records = [*read_records(tmp_path / "adp.parquet"), *read_records(tmp_path / "tau.parquet")]
    task, other = task_record("task-1"), task_record("task-2", order_id="W7")
    # The learner ("smol") sometimes solves task-1 (its frontier); the oracle's demonstration of task-2 is the
    # one verified success an SFT set can take.
    records += [task, rollout_of(task, 0, True, "smol"), rollout_of(task, 1, False, "smol")]
    records += [other, rollout_of(other, 0, True, "oracle")]
    no_text = AgentRecord(id="bad-no-text", source=Source(dataset="bad", format="literal"), task=Task())
    records.append(no_text)
    write_records(records, tmp_path / "all.parquet")
    return tmp_path / "all.parquet", len(records)


def test_score_dedup_select_report_on_converted_fixtures(data_home, tmp_path):
    records, count = converted(tmp_path)
    scored, deduped, selected = tmp_path / "scored.parquet", tmp_path / "deduped.parquet", tmp_path / "sel"

    mixed = tmp_path / "mixed.parquet"
    task = task_record("task-1")
    write_records([rollout_of(task, 0, True, "oracle"), rollout_of(task, 0, False, "smol")], mixed)
    result = invoke("score", records, "-o", scored, "--rollouts", mixed)
    assert result.exit_code == 2
    assert "not one policy's (found: oracle (1 rollouts), smol (1 rollouts)): name the learner's with --learner-id" in (
        " ".join(result.output.split())
    )

    result = invoke("score", records, "-o", scored, "--learner-id", "smol", "--json")
    assert result.exit_code == 0, result.output
    summary = last_json(result)
    assert summary["records"] == count and summary["learner"] == "smol"
    assert summary["with_pass_rate"] == 3  # the task and its two rollouts: p = 1/2
    assert summary["unequal_rewards"] == 3  # rewards 1 and 0: what the RL set takes
    assert summary["missing"] == {"empty_trajectory": 3, "no_text": 1, "no_task": 1}  # the tasks have none
    assert summary["accuracy_levels"]["unverified"] >= 20  # converted ADP data carries no verdict

    result = invoke("dedup", scored, "-o", deduped, "--json")
    assert result.exit_code == 0, result.output
    dedup = last_json(result)
    assert dedup["records"] == count == dedup["kept"] + dedup["removed"]

    result = invoke("select", deduped, "--budget", 3, "--out-dir", selected, "--json")
    assert result.exit_code == 0, result.output
    chosen = last_json(result)
    assert chosen["records"] == count == chosen["sft"] + chosen["rl"] + chosen["left_out"]
    assert chosen["rl"] == 1 and chosen["sft"] == 1
    left = pl.read_parquet(selected / "left_out.parquet")
    assert left.filter(pl.col("id") == "bad-no-text")["reason"].to_list() == ["no_task"]
    assert left.filter(pl.col("reason") == "duplicate")["duplicate_of"].null_count() == 0

    for path in (scored, deduped, selected / "sft.parquet", selected / "rl.parquet"):
        assert invoke("validate", path).exit_code == 0
    names = {entry.name for entry in Catalog().list_datasets()}
    # "scored" is the pipeline's own dataset: this ad-hoc output is registered under the cli_ prefix.
    assert {"cli_scored", "cli_scored_scores", "deduped", "deduped_audit", "sel_sft", "sel_rl", "sel_left_out"} <= names
    assert "scored" not in names

    result = invoke("report", selected, "-o", tmp_path / "report", "--json")
    assert result.exit_code == 0, result.output
    plots = last_json(result)["plots"]
    assert sorted(plots) == ["complexity", "dedup", "difficulty", "embedding_map", "pass_rate", "rejects"]
    assert all((tmp_path / "report" / f"{name}.png").stat().st_size > 5000 for name in plots)
    assert "## ACE summary" in (tmp_path / "report" / "summary.md").read_text()


def test_usage_errors_exit_2_with_one_line(data_home, tmp_path):
    write_records([task_record("t")], tmp_path / "in.parquet")
    missing = invoke("score", tmp_path / "nope.parquet", "-o", tmp_path / "out.parquet")
    assert missing.exit_code == 2 and "file not found" in missing.output
    wrong_suffix = invoke("score", tmp_path / "in.parquet", "-o", tmp_path / "out.jsonl")
    assert wrong_suffix.exit_code == 2 and ".parquet" in wrong_suffix.output
    kinds = invoke("dedup", tmp_path / "in.parquet", "-o", tmp_path / "out.parquet", "--kinds", "exact,fuzzy")
    assert kinds.exit_code == 2 and "unknown dedup kind 'fuzzy'" in kinds.output
    budget = invoke("select", tmp_path / "in.parquet", "--out-dir", tmp_path / "sel")
    assert budget.exit_code == 2 and "budget" in budget.output
    (tmp_path / "junk.jsonl").write_text('{"id": "x"}\n')
    junk = invoke("score", tmp_path / "junk.jsonl", "-o", tmp_path / "out.parquet")
    assert junk.exit_code == 2 and junk.stderr.count("\n") == 1
    assert "junk.jsonl holds JSON lines of another shape (keys id), not records" in junk.output
