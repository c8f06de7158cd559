"""The RL stage: GRPO (TRL's GRPOTrainer) on tasks, with multi-turn episodes and the verifier as reward.

TRL samples each task ``num_generations`` times per step and hands the
prompts to ``rollout_func`` (training/episodes.py), which plays the episodes
in the tasks' environments with the model being trained and returns their
tokens, the mask that keeps tool results and user turns out of the loss, and
each episode's reward V(τ, C). KL, clipping and loss settings pass straight
to TRL (training/rl_config.py).

Tasks that cannot start an episode (not a task, no constraints, a scenario in
the wrong shape, an initial state that cannot be rebuilt, a prompt that
leaves no room for a turn within max_length) are skipped with their reason
before training; counts add up. Left open, max_length is the longest prompt
plus room for the budget's turns. Episodes are scored one per micro-batch, a
group's worth accumulated per optimizer step: activations of one episode at
a time.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from environments.from_record import InitialStateError, build_environment
from generators.llm.model_store import resolve_model
from generators.rollouts.records import task_problem
from generators.rollouts.scenario import scenario_problem
from schemas.record import AgentRecord
from training.devices import lean_cpu_training
from training.episodes import EpisodeRunner, EpisodeSettings
from training.inputs import read_training_input
from training.model_io import load_model, load_tokenizer, save_model_folder
from training.progress import show_progress
from training.rl_config import RlConfig
from training.run_files import (
    CHECKPOINTS,
    TrainingError,
    checkpoint_to_resume,
    last_logged,
    log_callback,
    write_run_files,
)
from training.sft import choose_max_length
from verifiers.base import default_env_factory

TASK_KEY = "task_id"  # carried in each prompt message: TRL passes rollout_func the prompts only


def usable_tasks(records: Any) -> tuple[list[AgentRecord], Counter]:
    """The tasks an episode can start from, and the others counted by reason."""
    tasks, skipped = [], Counter()
    for record in records:
        problem = task_problem(record) or scenario_problem(record.task.user_scenario)
        if problem is None:
            try:
                build_environment(record.environment, default_env_factory)
            except InitialStateError as exc:
                problem = f"has an initial state that cannot be rebuilt ({exc.code})"
        if problem is None:
            tasks.append(record)
        else:
            skipped[problem] += 1
    return tasks, skipped


def no_task_message(path: Any, skipped: Counter) -> str:
    """Why a file gives no task to train (or export for RL) on, in one line."""
    reasons = "; ".join(f"{count} record(s): {reason}" for reason, count in skipped.most_common())
    return (
        f"{path}: no task to train on ({reasons}); RL takes tasks with constraints, "
        "as `aceforge select` writes them in its RL set or `aceforge synth tasks` makes them"
    )


def verifier_reward(prompts: list, completions: list, episode_reward: list[float], **kwargs: Any) -> list[float]:
    """GRPO's reward: each episode's V(τ, C), computed by the rollout function."""
    return list(episode_reward)


def rollout_function(runner: EpisodeRunner, tasks: dict[str, AgentRecord]) -> Any:
    def rollout(prompts: list[list[dict[str, Any]]], trainer: Any) -> dict[str, Any]:
        model = trainer.accelerator.unwrap_model(trainer.model)
        episodes = runner.run(model, [tasks[prompt[0][TASK_KEY]] for prompt in prompts])
        return {
            "prompt_ids": [e.prompt_ids for e in episodes],
            "completion_ids": [e.completion_ids for e in episodes],
            "logprobs": None,  # TRL recomputes them with the model (no vLLM importance sampling here)
            "env_mask": [e.env_mask for e in episodes],
            "episode_reward": [runner.reward(e) for e in episodes],
        }

    return rollout


NO_ROOM = "has a prompt that leaves no room for a turn within max_length (raise --max-length)"


def episode_runner(cfg: RlConfig, tokenizer: Any, template: str) -> EpisodeRunner:
    """The runner of the episodes; its max_length is set by ``fit_max_length``."""
    settings = EpisodeSettings(
        max_turn_tokens=cfg.max_turn_tokens,
        max_length=cfg.max_length or cfg.max_length_cap,
        temperature=cfg.temperature,
        top_p=cfg.top_p,
        budget=cfg.budget,
        user=cfg.user,
        reward=cfg.reward,
        rendering=cfg.rendering,
    )
    return EpisodeRunner(tokenizer, template, settings)


def fit_max_length(cfg: RlConfig, runner: EpisodeRunner, tasks: list[AgentRecord]) -> tuple[list[AgentRecord], str]:
    """Set the episodes' max_length (given, or chosen from the prompts); the tasks with room for a turn; a note."""
    prompts = {task.id: runner.prompt_length(task) for task in tasks}
    longest = max(prompts.values())
    if cfg.max_length:
        max_length = cfg.max_length
        note = f"max_length {max_length} (the longest prompt is {longest} tokens)"
    else:
        room = cfg.budget.max_turns * 2 * cfg.max_turn_tokens
        max_length = choose_max_length([longest + room], cfg.max_length_cap)  # SFT's rounding and cap
        note = (
            f"max_length {max_length}: chosen from the tasks, the longest prompt ({longest} tokens) and room for "
            f"{cfg.budget.max_turns} turns (at most --max-length-cap; --max-length sets it)"
        )
    runner.settings.max_length = max_length
    return [t for t in tasks if prompts[t.id] + cfg.max_turn_tokens <= max_length], note


def build_trainer(cfg: RlConfig, model_path: str, tokenizer: Any, runner: EpisodeRunner, tasks: list) -> Any:
    from datasets import Dataset
    from trl import GRPOTrainer

    # The prompt column only routes each row to its task; episodes build their own prompts.
    rows = [{"prompt": [{"role": "user", "content": t.task.instruction or t.id, TASK_KEY: t.id}]} for t in tasks]
    lean_cpu_training()
    trainer = GRPOTrainer(
        model=load_model(model_path),
        reward_funcs=[verifier_reward],
        args=cfg.trl_config(cfg.output_dir / CHECKPOINTS),
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        peft_config=cfg.lora.peft_config() if cfg.lora.enabled else None,
        rollout_func=rollout_function(runner, {t.id: t for t in tasks}),
        callbacks=[log_callback(cfg.output_dir)],
    )
    return trainer


def run_rl(
    cfg: RlConfig, resume: bool = False, say: Callable[[str], None] = lambda _: None, bar: bool = True
) -> dict[str, Any]:
    """Train, save the model folder and the run files; return the summary. ``say`` gets the note on max_length
    and, without ``bar`` (not a terminal), the training's progress lines (training/progress.py)."""
    started = time.perf_counter()
    records = read_training_input(cfg.data)
    checkpoint = checkpoint_to_resume(cfg.output_dir) if resume else None
    tasks, skipped = usable_tasks(records)
    if not tasks:
        raise TrainingError(no_task_message(cfg.data, skipped))
    model_path = resolve_model(cfg.model)
    tokenizer, template = load_tokenizer(model_path, cfg.chat_template)
    runner = episode_runner(cfg, tokenizer, template)
    fitting, note = fit_max_length(cfg, runner, tasks)
    if len(fitting) < len(tasks):
        skipped[NO_ROOM] += len(tasks) - len(fitting)
    if not fitting:
        raise TrainingError(no_task_message(cfg.data, skipped))
    tasks = fitting
    say(note)
    cfg.output_dir.mkdir(parents=True, exist_ok=True)
    trainer = build_trainer(cfg, model_path, tokenizer, runner, tasks)
    with show_progress(trainer, say, bar):
        result = trainer.train(resume_from_checkpoint=checkpoint)
    save_model_folder(trainer, tokenizer, cfg.output_dir, model_path, cfg.lora.enabled)
    summary = {
        "stage": "rl",
        "model": str(cfg.output_dir),
        "base_model": model_path,
        "data": str(cfg.data),
        "records": len(tasks) + sum(skipped.values()),
        "tasks": len(tasks),
        "skipped": dict(skipped.most_common()),
        "max_length": runner.settings.max_length,
        "steps": result.global_step,
        "reward": last_logged(trainer.state.log_history, "reward"),
        **runner.stats(),
        "resumed_from": checkpoint,
        "wall_s": round(time.perf_counter() - started, 2),
    }
    if trainer.is_world_process_zero():
        write_run_files(cfg.output_dir, cfg, summary)
    return summary
