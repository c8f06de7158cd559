"""What a training run leaves in its output folder besides the model: config, summary, log, checkpoints.

- ``config.yaml``: the stage's full configuration (every default spelled out), ready to run again;
- ``summary.json``: counts (records rendered and skipped by reason, train/eval split), steps, losses, speed;
- ``train_log.jsonl``: every log line of the trainer (loss, learning rate, rewards, ...), as it happens;
- ``checkpoints/checkpoint-N``: what ``--resume`` continues from.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from schemas.stage_config import StageConfig

CHECKPOINTS = "checkpoints"
LOG_FILE = "train_log.jsonl"
SUMMARY_FILE = "summary.json"
CONFIG_FILE = "config.yaml"


class TrainingError(RuntimeError):
    """A stage that cannot run on this input (nothing to train on, nothing to resume)."""


def is_main_process() -> bool:
    """Rank 0, or no launcher at all (``accelerate launch`` and torchrun set RANK in each process)."""
    return int(os.environ.get("RANK", "0")) == 0


def checkpoint_to_resume(output_dir: Path) -> str:
    """The newest checkpoint under ``output_dir``; TrainingError when there is none."""
    from transformers.trainer_utils import get_last_checkpoint

    run_dir = output_dir / CHECKPOINTS
    found = get_last_checkpoint(str(run_dir)) if run_dir.is_dir() else None
    if found is None:
        raise TrainingError(f"--resume: no checkpoint under {run_dir}")
    return found


def log_callback(output_dir: Path) -> Any:
    """A TrainerCallback appending each log dict (with its step) to train_log.jsonl."""
    from transformers import TrainerCallback

    path = output_dir / LOG_FILE

    class JsonlLog(TrainerCallback):
        def on_log(self, args, state, control, logs=None, **kwargs):
            if logs and state.is_world_process_zero:
                with path.open("a") as handle:
                    handle.write(json.dumps({"step": state.global_step, **logs}) + "\n")

    return JsonlLog()


def read_log(output_dir: Path) -> list[dict[str, Any]]:
    path = output_dir / LOG_FILE
    return [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() else []


def last_logged(log_history: list[dict[str, Any]], key: str) -> Any:
    """The last value the trainer logged under ``key`` (None if never)."""
    return next((entry[key] for entry in reversed(log_history) if key in entry), None)


def write_run_files(output_dir: Path, cfg: StageConfig, summary: dict[str, Any]) -> None:
    output_dir.mkdir(parents=True, exist_ok=True)
    (output_dir / CONFIG_FILE).write_text(cfg.to_yaml())
    (output_dir / SUMMARY_FILE).write_text(json.dumps(summary, indent=2, default=str) + "\n")
