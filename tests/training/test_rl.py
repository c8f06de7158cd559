"""The RL stage on SmolLM2 (CPU): a GRPO step of multi-turn episodes in the retail world, verifier rewards."""

from __future__ import annotations

import re

import pytest

from schemas.io import write_records
from tests.pipelines.cli_helpers import invoke, last_json
from tests.training.helpers import oracle_rollout, retail_cancel_task, small_retail_task
from training.rl import episode_runner, fit_max_length
from training.rl_config import RlConfig
from training.run_files import read_log


def told_task():
    """The small cancel task asking only to be told about it, its gold writing nothing: SmolLM2's replies earn 1
    when they speak of cancelling and state nothing the tools did not show, 0 otherwise, so its groups' rewards
    differ. (On the cancel task itself SmolLM2 earns 0 in every episode: it never calls a tool, and partial credit
    is only for the gold end state reached.)"""
    task = small_retail_task()
    told = [c for c in task.task.constraints if c["id"] == "told"]
    q = task.task.model_copy(update={"constraints": told, "expected_outputs": {"gold_actions": [], "outcome": "read"}})
    return task.model_copy(update={"task": q})


@pytest.mark.slow
def test_an_rl_step_logs_verifier_rewards_and_changes_the_parameters(tmp_path, smol_path):
    import torch
    from transformers import AutoModelForCausalLM

    task = told_task()
    tasks = tmp_path / "tasks.parquet"
    write_records([task, oracle_rollout(task)], tasks)  # the rollout is not a task: skipped with its reason
    out = tmp_path / "rl"
    result = invoke(
        "train", "rl", "--data", tasks, "--output-dir", out, "--max-steps", "1", "--num-generations", "4",
        "--max-turn-tokens", "40", "--max-length", "1024", "--budget-max-turns", "2", "--temperature", "0.7",
        "--top-p", "0.9", "--logging-steps", "1", "--learning-rate", "1e-5",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = last_json(result)
    assert (summary["records"], summary["tasks"], summary["steps"], summary["episodes"]) == (2, 1, 1, 4)
    assert summary["skipped"] == {"has a trajectory already (not a task)": 1}
    assert sum(summary["end_reasons"].values()) == 4
    # Off a terminal (the test's output is not one), the step in plain words, with tokens/s and time left.
    assert re.search(r"^step 1/1, loss \S+, [\d,]+ tokens/s, 0 s left$", result.stderr, re.MULTILINE), result.stderr
    steps = [entry for entry in read_log(out) if "rewards/verifier_reward/mean" in entry]
    [step] = steps
    # The graded reward (verifiers/reward.py) per episode; the group's rewards differ, so advantages do too.
    assert step["step"] == 1 and 0.0 < step["reward"] < 1.0 and step["reward_std"] > 0
    base = AutoModelForCausalLM.from_pretrained(smol_path, dtype=torch.float32).state_dict()
    trained = AutoModelForCausalLM.from_pretrained(out, dtype=torch.float32).state_dict()
    unchanged = [name for name, tensor in trained.items() if torch.equal(tensor, base[name])]
    assert unchanged == []


def test_rl_config_refuses_a_user_simulator_that_needs_a_model(tmp_path):
    result = invoke("train", "rl", "--data", tmp_path / "t.parquet", "--output-dir", tmp_path / "o", "--user", "llm")
    assert result.exit_code == 2 and "user simulator 'llm' calls a model" in result.output
    result = invoke(
        "train", "rl", "--data", tmp_path / "t.parquet", "--output-dir", tmp_path / "o", "--batch-size", "3"
    )
    assert result.exit_code == 2 and "multiple of num_generations" in result.output


def test_max_length_left_open_holds_the_longest_prompt_and_the_budgets_turns(
    tmp_path, smol_tokenizer, training_template
):
    small, full = small_retail_task("small"), retail_cancel_task("full")  # 3 tools and a line of policy; all of them
    cfg = RlConfig(data=tmp_path / "t.parquet", output_dir=tmp_path, max_turn_tokens=64)
    runner = episode_runner(cfg, smol_tokenizer, training_template)
    prompts = {task.id: runner.prompt_length(task) for task in (small, full)}
    assert prompts["small"] < 1000 < prompts["full"]
    kept, note = fit_max_length(cfg, runner, [small, full])
    assert [task.id for task in kept] == ["small", "full"]
    # The longest prompt + 4 turns x 2 x 64 tokens, rounded up to a multiple of 64.
    assert runner.settings.max_length == -(-(prompts["full"] + 512) // 64) * 64
    assert note.startswith(f"max_length {runner.settings.max_length}: chosen from the tasks")

    given = RlConfig(data=tmp_path / "t.parquet", output_dir=tmp_path, max_turn_tokens=64, max_length=1000)
    kept, _ = fit_max_length(given, runner, [small, full])
    assert [task.id for task in kept] == ["small"] and runner.settings.max_length == 1000


def test_episodes_are_scored_one_per_micro_batch_a_group_per_optimizer_step(tmp_path):
    args = RlConfig(data=tmp_path / "t.parquet", output_dir=tmp_path).trl_config(tmp_path)
    assert (args.per_device_train_batch_size, args.gradient_accumulation_steps, args.num_generations) == (1, 4, 4)
    assert args.generation_batch_size == 4  # one group of episodes generated per optimizer step
    wide = RlConfig(data=tmp_path / "t.parquet", output_dir=tmp_path, batch_size=4, num_generations=8)
    args = wide.trl_config(tmp_path)
    assert (args.per_device_train_batch_size, args.gradient_accumulation_steps) == (4, 2)
