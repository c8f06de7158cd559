"""``aceforge synth rollouts | code``: k verified rollouts per task, and code tasks checked in the sandbox.

Both register on the ``synth`` sub-app of pipelines/cli/synth.py. ``rollouts`` runs the rollouts stage of
pipelines/stages/synth.py (the one the rollouts asset runs) with one policy: it reads a tasks file (``synth tasks``,
``synth evolve`` or ``synth code`` output; anything else is a one-line error, exit 2), rolls each task out k times,
verifies every rollout with the chain and writes them all, passed or not, with v filled; records that are not tasks
go to a quarantine file with their reason. Outputs are registered in the catalog unless ``--no-catalog``.
Exit codes: 0 when something was written, 1 when nothing was, 2 on usage errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from data_catalog.catalog import safe_name
from generators.rollouts.config import RolloutConfig
from generators.synthesis.code.tasks import CodeTaskConfig
from pipelines.cli.common import fail
from pipelines.cli.config import with_config
from pipelines.cli.synth import (
    AsJson,
    Output,
    check_output,
    progress_bar,
    read_tasks,
    report,
    run_stage,
    synth_app,
    write_and_report,
)
from pipelines.pipeline_config import RolloutsSection
from pipelines.registrar import OutputOptions
from pipelines.stages import StageError
from pipelines.stages.synth import SYNTH_ROLLOUTS, load_generator
from runtime.executor import ExecutorConfig


class RolloutCommand(RolloutConfig, OutputOptions, ExecutorConfig):
    """``aceforge synth rollouts``."""


class CodeTaskCommand(CodeTaskConfig, OutputOptions):
    """``aceforge synth code``."""


@synth_app.command("rollouts")
@with_config(RolloutCommand)
def rollouts_cmd(
    cfg: RolloutCommand,
    tasks: Annotated[
        Path, typer.Argument(help="Tasks (.parquet or .jsonl) from synth tasks, synth evolve or synth code.")
    ],
    output: Output,
    as_json: AsJson = False,
) -> None:
    """Roll every task out k times (agent x user simulator x environment), verify each rollout with the chain
    (structure -> replay -> constraints) and write them all with v filled; conversations waiting for a model are
    served together, one backend batch per step."""
    from runtime.executor import open_executor

    check_output(output)
    inputs = read_tasks(tasks)
    dataset = safe_name(cfg.dataset or output.stem)
    section = RolloutsSection(runs=[cfg], model_tasks=len(inputs))  # the one policy on every task
    with open_executor(cfg) as executor:
        ran = run_stage(
            SYNTH_ROLLOUTS,
            {"tasks": inputs, "source": str(tasks), "dataset": dataset},
            {"records": output, "quarantine": output.with_name(output.stem + ".quarantine.parquet")},
            section,
            executor,
        )
    stats = ran.summary["by_agent"][cfg.agent]
    report(ran.products[0].rows, stats, ran.lines, output, dataset, cfg, as_json, "synth rollouts", (tasks,))


@synth_app.command("code")
@with_config(CodeTaskCommand)
def code_cmd(cfg: CodeTaskCommand, output: Output, as_json: AsJson = False) -> None:
    """Code tasks: a model proposes Python function tasks (prompt, reference solution, tests; JSON-schema output
    where the backend has it); each is kept only if its reference passes in the sandbox and `return None` fails.
    Rejected proposals go to OUTPUT's quarantine file with their reason code."""
    from generators.synthesis.code.tasks import run_code_tasks
    from schemas.io import QuarantineWriter

    check_output(output)
    dataset = safe_name(cfg.dataset or output.stem)
    try:
        generator = load_generator(cfg)
    except StageError as exc:
        fail(str(exc))
    try:
        with progress_bar("checking code proposals", cfg.n) as on_progress:
            run = run_code_tasks(cfg, generator, dataset, on_progress)
    finally:
        generator.close()
    if run.rejected:
        with QuarantineWriter(output.with_name(output.stem + ".quarantine.parquet")) as rejects:
            for index, reason, raw in run.rejected:
                rejects.write_row("synth code", index, reason, raw)
    stats = {**run.as_dict(), "scenario_fallbacks": {}}  # templates only: code scenarios never fall back
    write_and_report(run.records, stats, output, dataset, cfg, as_json, "synth code", model=cfg.model)
