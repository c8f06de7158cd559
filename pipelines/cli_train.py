"""``aceforge train sft|rl`` and ``aceforge eval``: the training stages and evaluation on held-out tasks.

Each prints progress on stderr and its summary as one JSON line on stdout; the
summary, the full configuration and the trainer's log also land in the output
folder (training/run_files.py). Heavy libraries load inside the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli_app import app
from pipelines.cli_common import FAILED, fail, print_json, say
from pipelines.cli_config import with_config
from training.rl_config import RlConfig
from training.sft_config import SftConfig

train_app = typer.Typer(help="Train on selected sets: SFT and RL (GRPO with verifier rewards), with TRL.")
app.add_typer(train_app, name="train")

RESUME_HELP = "Continue from the newest checkpoint in output_dir/checkpoints."


def _need_file(path: Path, what: str) -> None:
    if not path.is_file():
        fail(f"{what} not found: {path}")


@train_app.command("sft")
@with_config(SftConfig)
def sft(cfg: SftConfig, resume: Annotated[bool, typer.Option("--resume", help=RESUME_HELP)] = False) -> None:
    """Supervised fine-tuning on an SFT set (assistant-only loss); saves a model folder in output_dir."""
    from training.run_files import TrainingError
    from training.sft import run_sft

    _need_file(cfg.data, "SFT set")
    try:
        summary = run_sft(cfg, resume)
    except TrainingError as exc:
        fail(str(exc), FAILED)
    say(f"trained {summary['steps']} steps on {summary['train']} records; model in {summary['model']}")
    print_json(summary)


@train_app.command("rl")
@with_config(RlConfig)
def rl(cfg: RlConfig, resume: Annotated[bool, typer.Option("--resume", help=RESUME_HELP)] = False) -> None:
    """GRPO on an RL set of tasks: episodes run in each task's environment, rewarded by its verifier."""
    from training.rl import run_rl
    from training.run_files import TrainingError

    _need_file(cfg.data, "RL set")
    try:
        summary = run_rl(cfg, resume)
    except TrainingError as exc:
        fail(str(exc), FAILED)
    say(f"trained {summary['steps']} GRPO steps on {summary['tasks']} tasks; model in {summary['model']}")
    print_json(summary)
