"""``aceforge improve``: level adaptation on literal pass rates, held-out disjointness, its config, and one round
end to end with SmolLM2 on the CPU (transformers backend) on small retail tasks."""

from __future__ import annotations

import json

import pytest

from schemas.io import read_records, write_records
from schemas.record import VerifierResult
from schemas.stage_config import ConfigError
from tests.pipelines.cli_helpers import invoke, last_json
from tests.training.helpers import small_retail_task
from training.improve_config import ImproveConfig
from training.improve_tasks import LevelRate, adapt_levels, add_new, keep_disjoint, level_rates, next_level


def test_a_level_never_solved_gets_tasks_a_level_lower_and_one_always_solved_a_level_higher():
    assert next_level(LevelRate(0, 8), 3) == 2
    assert next_level(LevelRate(8, 8), 2) == 3
    assert next_level(LevelRate(3, 8), 2) == 2  # the frontier: more of the same
    assert next_level(LevelRate(0, 4), 1) == 1 and next_level(LevelRate(4, 4), 4) == 4  # the ends of the ladder
    rates = {0: LevelRate(0, 4), 1: LevelRate(4, 4), 2: LevelRate(0, 8), 3: LevelRate(2, 8), 4: LevelRate(8, 8)}
    # level 0 (no level) is never adapted; 1 always -> 2; 2 never -> 1; 3 frontier -> 3; 4 always -> 4
    assert adapt_levels(rates) == {1: [2], 2: [1], 3: [3], 4: [4]}


def _rollouts(task, level: int, verdicts: list[bool | None]):
    task.task.metadata["level"] = level
    return [
        task.model_copy(update={"verifier": task.verifier.model_copy(update={"result": VerifierResult(passed=p)})})
        for p in verdicts
    ]


def test_level_rates_pool_rollouts_by_their_tasks_level_and_count_undecided_as_failed():
    rollouts = _rollouts(small_retail_task("a"), 2, [True, False, None, True])
    rollouts += _rollouts(small_retail_task("b"), 2, [False] * 4) + _rollouts(small_retail_task("c"), 1, [False] * 4)
    assert level_rates(rollouts) == {1: LevelRate(0, 4), 2: LevelRate(2, 8)}
    assert adapt_levels(level_rates(rollouts)) == {1: [1], 2: [2]}


def _task(task_id: str, instruction: str | None = None):
    task = small_retail_task(task_id)
    if instruction is not None:
        task.task.instruction = instruction
    return task


def test_training_tasks_sharing_an_id_or_an_instruction_with_a_held_out_task_are_dropped():
    heldout = [_task("held")]
    same_text = _task("other-id")  # small_retail_task's instruction, word for word
    same_id = _task("held", "Please cancel order #R2119897 for me.")
    fresh = _task("fresh", "I want order #R2119897 cancelled.")
    spaced = _task("spaced", "  " + heldout[0].task.instruction.replace(" ", "\n  ", 1))  # the same words, respaced
    kept, dropped = keep_disjoint([same_text, same_id, spaced, fresh], heldout)
    assert [t.id for t in kept] == ["fresh"] and dropped == 3
    again = _task("fresh-2", "I want order #R2119897 cancelled.")  # a new task already in the pool, by its text
    assert add_new(kept, [again, _task("held-2"), _task("new", "Cancel #R2119897.")], heldout) == [
        _task("new", "Cancel #R2119897.")
    ]


def test_config_refuses_too_few_rollouts_greedy_learners_one_database_and_round_paths(tmp_path):
    with pytest.raises(ConfigError, match="learner.k must be at least 4"):
        ImproveConfig.load(None, out_dir=tmp_path, learner={"k": 2})
    with pytest.raises(ConfigError, match="temperature must be above 0"):
        ImproveConfig.load(None, out_dir=tmp_path, learner={"sampling": {"temperature": 0.0}})
    with pytest.raises(ConfigError, match="another database"):
        ImproveConfig.load(None, out_dir=tmp_path, heldout={"db_seed": 0})
    with pytest.raises(ConfigError, match=r"sft.data, sft.output_dir are set by each round"):
        ImproveConfig.load(None, out_dir=tmp_path, sft={"data": "x.parquet", "output_dir": "m"})
    config = tmp_path / "improve.yaml"
    config.write_text(f"out_dir: {tmp_path}\nlerner: {{k: 8}}\n")
    result = invoke("improve", "--config", config)
    assert result.exit_code == 2 and "unknown key 'lerner' (did you mean 'learner'?)" in result.output
    # a section keeps its embedded defaults for the keys not given
    cfg = ImproveConfig.load(None, out_dir=tmp_path, learner={"k": 6}, sft={"max_steps": 3})
    assert (cfg.learner.k, cfg.learner.backend, cfg.learner.sampling.max_tokens) == (6, "vllm", 96)
    assert cfg.sft.lora.enabled and cfg.sft.max_steps == 3 and cfg.heldout.db_seed == 1


@pytest.mark.slow
def test_one_round_runs_end_to_end_with_smollm2_on_the_cpu(tmp_path, smol_path):
    """Small retail tasks (three tools, a one-line policy: a prompt of about 500 tokens), one learner turn of 8
    tokens and one SFT step on 512 tokens keep it short; the new level-1 task is synthesized in the full retail world, whose demonstration is longer
    than the SFT's max_length and is skipped for it (said in the summary)."""
    heldout, train = tmp_path / "heldout.parquet", tmp_path / "train.parquet"
    write_records([_task("held")], heldout)
    tasks = [
        _task("train-a", "Please cancel my pending order #R2119897, I no longer need it. Email umar.xu3769@mail.test.")
    ]
    tasks.append(_task("train-dup"))  # the held-out task's instruction: dropped
    for task in tasks:
        task.task.metadata["level"] = 2
    write_records(tasks, train)
    out = tmp_path / "run"
    result = invoke(
        "improve", "--out-dir", out, "--rounds", "1", "--tasks-file", train, "--heldout-file", heldout,
        "--tasks-users", "20", "--new-tasks", "1", "--learner-model", smol_path, "--learner-backend", "transformers",
        "--learner-budget-max-turns", "1", "--learner-sampling-max-tokens", "8",
        "--sft-max-steps", "1", "--sft-max-length", "512", "--sft-batch-size", "1", "--sft-gradient-accumulation", "1",
        "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = last_json(result)
    assert "dropped 1 training task(s)" in result.output
    [row] = report["rounds"]
    assert row["train_tasks"] == 1 and row["train"]["rollouts"] == 4
    # SmolLM2 never solves the level-2 task: one new task a level lower, in the training world
    assert row["levels"] == {"2": {"passes": 0, "rollouts": 4}} and row["plan"] == {"1": [2]}
    assert row["new_tasks"] == {"1": 1}
    [new] = read_records(out / "round_0" / "new_tasks.parquet")
    assert new.task.metadata["level"] == 1
    # every failed rollout is labelled; the labels are counted under the task's kind
    labels = [json.loads(line) for line in (out / "round_0" / "failures.jsonl").read_text().splitlines()]
    assert len(labels) == row["failed_rollouts"] == 4
    assert set(row["failures_by_kind"]) == {"cancel"}
    assert sum(row["failures_by_kind"]["cancel"].values()) == 4
    # demonstrations of both tasks pass; both are selected (the learner never solves them) ...
    assert row["demonstrations"] == {"made": 2, "passed": 2} and row["selection"]["sft"] == 2
    # ... and the long one is skipped by SFT, which trains one step on the other and merges the adapters
    assert row["sft"]["skipped"] == {"too_long": 1} and row["sft"]["steps"] == 1
    assert row["trained"] == str(out / "round_0" / "model") and (out / "round_0" / "model" / "config.json").is_file()
    # the held-out task is evaluated with the declared learner and with the trained one
    evaluations = report["evaluations"]
    assert [e["model"] for e in evaluations] == [smol_path, row["trained"]]
    assert all(e["tasks"] == 1 and e["rollouts"] == 4 and 0.0 <= e["pass^k"] <= e["pass^1"] <= 1 for e in evaluations)
    # the held-out task's verified gold conversation is scored call by call (the cancel call is a write)
    [gold] = read_records(out / "heldout_gold.parquet")
    calls = [step.function for step in gold.trajectory if step.class_ == "api_action"]
    for evaluation in evaluations:
        figures = evaluation["calls"]
        assert figures["conversations"] == 1 and 0 < figures["exact"]["turns"] <= len(calls)
        assert figures["write_exact"]["turns"] == calls.count("cancel_pending_order") == 1
        assert 0 <= figures["exact"]["right"] <= len(calls) and figures["nll_per_token"] > 0
    assert (out / "improve.png").stat().st_size > 0 and json.loads((out / "improve.json").read_text())["k"] == 4
    table = invoke(
        "improve", "--out-dir", tmp_path / "again", "--rounds", "1", "--tasks-file", train, "--heldout-file", heldout,
        "--new-tasks", "0", "--learner-agent", "oracle",
    )  # fmt: skip
    assert table.exit_code == 0, table.output
    assert "held-out pass^1" in table.stdout and "1.000" in table.stdout


def test_round_rows_show_the_held_out_figures_of_every_evaluation_and_what_each_round_trained_on():
    from training.improve_report import round_rows

    calls = {
        "exact": {"right": 79, "turns": 162, "rate": 0.4877, "ci95": [0.41, 0.56]},
        "write_exact": {"right": 0, "turns": 23, "rate": 0.0, "ci95": [0.0, 0.0]},
    }
    evaluations = [
        {"pass^1": 0.0, "pass^k": 0.0, "score": 0.125, "calls": None},
        {"pass^1": 0.25, "pass^k": 0.0625, "score": 0.5, "calls": calls},
    ]
    trained = {
        "train": {"pass^1": 0.0},
        "failed_rollouts": 8,
        "failures_by_kind": {
            "cancel": {"final_state:missing_change": 3, "policy:write_without_confirmation": 1},
            "order_status": {"grounding:ungrounded_id": 2, "final_state:missing_change": 2},
        },
        "new_tasks": {2: 1, 1: 4},
        "selection": {"sft": 6},
        "wall_s": {"heldout_eval": 100.0, "sft": 200.4},
    }
    first, last = round_rows({"k": 4, "evaluations": evaluations, "rounds": [trained]})
    assert first == {
        "round": "0",
        "held-out pass^1": "0.000",
        "pass^4": "0.000",
        "score": "0.125",
        "next call exact": "-",
        "write calls": "-",
        "train pass^1": "0.000",
        "failed": "8",
        "top failure": "final_state:missing_change (5)",
        "new tasks": "L1: 4, L2: 1",
        "SFT set": "6",
        "round s": "300",
    }
    assert (last["held-out pass^1"], last["pass^4"], last["score"], last["top failure"]) == (
        "0.250",
        "0.062",
        "0.500",
        "",
    )
    assert (last["next call exact"], last["write calls"]) == ("79/162 (0.49, 0.41-0.56)", "0/23 (0.00, 0.00-0.00)")
