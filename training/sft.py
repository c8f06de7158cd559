"""The SFT stage: render the set, hold out eval records, train with TRL's SFTTrainer, save a model folder.

aceforge renders and tokenizes every record itself (training.render), so the
loss mask is the one its tests pin down and the tokens are those RL and
evaluation produce; TRL receives ``input_ids`` with ``assistant_masks`` and
does labels, packing, batching, checkpoints and the optimizer. Under
``accelerate launch`` the same code runs data-parallel (or with DeepSpeed):
TRL's trainer takes the device and the process group from accelerate.

Records that cannot be rendered, and those whose first loss token lies beyond
``max_length``, are skipped with a reason; longer ones are cut at
``max_length``. Left open, ``max_length`` is chosen from the data: the shortest
length that holds 95% of the records whole, up to ``max_length_cap``. Counts add
up: records = train + eval + skipped; ``SftData.notes`` says in words what was
chosen, cut and skipped.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from generators.llm.model_store import resolve_model
from schemas.record import AgentRecord, stable_id
from schemas.task_identity import task_of
from training.devices import lean_cpu_training
from training.inputs import read_training_input
from training.model_io import load_model, load_tokenizer, save_model_folder
from training.progress import show_progress
from training.render import RenderStats, render_records, tokenize_chat
from training.run_files import (
    CHECKPOINTS,
    TrainingError,
    checkpoint_to_resume,
    last_logged,
    log_callback,
    write_run_files,
)
from training.sft_config import SftConfig

# What holds most records whole without letting a few long ones set the memory of every batch.
COVERAGE = 0.95
LENGTH_STEP = 64

# Why a record was skipped, in words a user reads (render reason codes are in training/render.py).
SKIP_REASONS = {
    "too_long": "have no assistant token within max_length (raise --max-length)",
    "tool_without_spec": "call a tool their environment does not declare",
    "tool_result_without_call": "have a tool result that answers no call",
    "unsupported_step": "hold images or other steps with no text",
    "no_assistant_turn": "have no assistant turn to learn from",
    "turn_mask_unaligned": "have a failed call whose turn the chat template does not mark apart (it would be learned)",
}


@dataclass
class SftData:
    train: list[dict[str, Any]] = field(default_factory=list)
    eval: list[dict[str, Any]] = field(default_factory=list)
    stats: RenderStats = field(default_factory=RenderStats)
    truncated: int = 0
    max_length: int = 0
    max_length_chosen: bool = False  # picked from the data rather than given
    lengths: list[int] = field(default_factory=list)  # tokens of each rendered record, before any cut

    def tokens(self) -> int:
        """Tokens in the training rows (one epoch)."""
        return sum(len(row["input_ids"]) for row in self.train)

    def counts(self) -> dict[str, Any]:
        return {
            **self.stats.as_dict(),
            "truncated": self.truncated,
            "train": len(self.train),
            "eval": len(self.eval),
            "max_length": self.max_length,
        }

    def notes(self) -> list[str]:
        """What was chosen, cut and skipped, in plain words with the flag that changes it."""
        records = self.stats.records
        lines = []
        if self.max_length_chosen and self.lengths:
            lines.append(self._chosen_line())
        if self.truncated:
            lines.append(
                f"cut {self.truncated} of {records} records at {self.max_length} tokens: their later turns are not "
                "trained on (--max-length raises the limit)"
            )
        for reason, count in self.stats.skipped.most_common():
            lines.append(f"skipped {count} of {records} records that {SKIP_REASONS.get(reason, reason)}")
        return lines

    def _chosen_line(self) -> str:
        """The chosen max_length with the share of records it actually holds whole: when --max-length-cap
        stopped it short of COVERAGE, that share is lower, and the line says so rather than claim the aim."""
        whole = sum(length <= self.max_length for length in self.lengths)
        held = f"holds {whole} of {len(self.lengths)} records whole ({whole / len(self.lengths):.0%})"
        needed = covering_length(self.lengths)
        if needed > self.max_length:
            return (
                f"max_length {self.max_length}: the cap (--max-length-cap) {held}; {COVERAGE:.0%} of them would "
                f"need {needed} tokens (--max-length-cap raises the cap, --max-length sets the length)"
            )
        return (
            f"max_length {self.max_length}: chosen from the data, {held} (the aim: {COVERAGE:.0%}; at most "
            "--max-length-cap; --max-length sets it)"
        )


def covering_length(lengths: list[int]) -> int:
    """The shortest multiple of LENGTH_STEP that holds COVERAGE of the (non-empty) lengths whole."""
    needed = sorted(lengths)[math.ceil(COVERAGE * len(lengths)) - 1]
    return -(-needed // LENGTH_STEP) * LENGTH_STEP


def choose_max_length(lengths: list[int], cap: int) -> int:
    """``covering_length``, at most ``cap``."""
    return min(cap, covering_length(lengths)) if lengths else cap


def prepare_data(records: list[AgentRecord] | Any, tokenizer: Any, template: str, cfg: SftConfig) -> SftData:
    """Tokenized rows (input_ids, assistant_masks), cut to max_length, split into train and eval by task."""
    data = SftData()
    tokenized = list(
        render_records(records, data.stats, lambda _, chat: tokenize_chat(tokenizer, chat, template), cfg.rendering)
    )
    data.max_length_chosen = cfg.max_length is None
    data.lengths = [len(tokens["input_ids"]) for _, tokens in tokenized]
    data.max_length = cfg.max_length or choose_max_length(data.lengths, cfg.max_length_cap)
    rows = []
    for record, tokens in tokenized:
        if len(tokens["input_ids"]) > data.max_length:
            tokens = {key: value[: data.max_length] for key, value in tokens.items()}
            if not any(tokens["assistant_masks"]):  # nothing left to learn from: a skip, not a render
                data.stats.rendered -= 1
                data.stats.skipped["too_long"] += 1
                continue
            data.truncated += 1
        rows.append({"id": record.id, "task": task_of(record), **tokens})
    tasks = [row.pop("task") for row in rows]
    held_out = _eval_ids(list(dict.fromkeys(tasks)), cfg.eval_fraction, cfg.seed)
    for row, task in zip(rows, tasks):
        (data.eval if task in held_out else data.train).append(row)
    return data


def _eval_ids(ids: list[str], fraction: float, seed: int) -> set[str]:
    """round(fraction * n) task ids (at least one, never all) with the smallest seeded hashes: order-independent.

    Held out by task (schemas/task_identity.py), so the rollouts of one task are all on one side."""
    if fraction <= 0 or len(ids) < 2:
        return set()
    count = min(len(ids) - 1, max(1, round(fraction * len(ids))))
    return set(sorted(ids, key=lambda rid: stable_id("eval", seed, rid))[:count])


def build_trainer(cfg: SftConfig, model_path: str, tokenizer: Any, data: SftData, callbacks: list | None = None) -> Any:
    from datasets import Dataset
    from trl import SFTTrainer

    def dataset(rows: list[dict[str, Any]]) -> Any:
        return Dataset.from_list([{"input_ids": r["input_ids"], "assistant_masks": r["assistant_masks"]} for r in rows])

    lean_cpu_training()
    return SFTTrainer(
        model=load_model(model_path),
        args=cfg.trl_config(cfg.output_dir / CHECKPOINTS, has_eval=bool(data.eval), max_length=data.max_length),
        train_dataset=dataset(data.train),
        eval_dataset=dataset(data.eval) if data.eval else None,
        processing_class=tokenizer,
        peft_config=cfg.lora.peft_config() if cfg.lora.enabled else None,
        callbacks=callbacks,
    )


def run_sft(
    cfg: SftConfig, resume: bool = False, say: Callable[[str], None] = lambda _: None, bar: bool = True
) -> dict[str, Any]:
    """Train, save the model folder and the run files; return the summary. ``say`` gets the notes on the data and,
    without ``bar`` (not a terminal), the training's progress lines (training/progress.py)."""
    started = time.perf_counter()
    records = read_training_input(cfg.data)
    checkpoint = checkpoint_to_resume(cfg.output_dir) if resume else None
    model_path = resolve_model(cfg.model)
    tokenizer, template = load_tokenizer(model_path, cfg.chat_template)
    data = prepare_data(records, tokenizer, template, cfg)
    if not data.train:
        raise TrainingError("; ".join([f"{cfg.data}: no record to train on", *data.notes()]))
    for note in data.notes():
        say(note)
    cfg.output_dir.mkdir(parents=True, exist_ok=True)
    trainer = build_trainer(cfg, model_path, tokenizer, data, [log_callback(cfg.output_dir)])
    with show_progress(trainer, say, bar):
        result = trainer.train(resume_from_checkpoint=checkpoint)
    save_model_folder(trainer, tokenizer, cfg.output_dir, model_path, cfg.lora.enabled)
    summary = {
        "stage": "sft",
        "model": str(cfg.output_dir),
        "base_model": model_path,
        "data": str(cfg.data),
        **data.counts(),
        "steps": result.global_step,
        "train_loss": result.training_loss,
        "eval_loss": last_logged(trainer.state.log_history, "eval_loss"),
        "train_runtime_s": round(result.metrics.get("train_runtime", 0.0), 2),
        "tokens_per_epoch": data.tokens(),
        "resumed_from": checkpoint,
        "wall_s": round(time.perf_counter() - started, 2),
    }
    if trainer.is_world_process_zero():
        write_run_files(cfg.output_dir, cfg, summary)
    return summary
