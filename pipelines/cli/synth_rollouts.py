"""``aceforge synth rollouts | code``: k verified rollouts per task, and code tasks checked in the sandbox.

Both register on the ``synth`` sub-app of pipelines/cli/synth.py. ``rollouts``
reads a tasks file (``synth tasks``, ``synth evolve`` or ``synth code``
output; anything else is a one-line error, exit 2), rolls each task out k
times, verifies every rollout with the chain and writes them all, passed or
not, with v filled; records that are not tasks go to a quarantine file with
their reason. Outputs are registered in the catalog unless ``--no-catalog``.
Exit codes: 0 when something was written, 1 when nothing was, 2 on usage errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from data_catalog.catalog import safe_name
from generators.rollouts.config import RolloutConfig
from generators.synthesis.code.tasks import CodeTaskConfig
from pipelines.catalog_names import adhoc_name
from pipelines.cli.common import FAILED, fail, one_line, out, print_json, say
from pipelines.cli.config import with_config
from pipelines.cli.synth import AsJson, Output, check_output, progress_bar, read_tasks, synth_app, write_and_report
from pipelines.registrar import OutputOptions, StageOutput, register_or_warn
from runtime.executor import ExecutorConfig
from schemas.record import AgentRecord

ROLLOUTS = "synth rollouts"


def make_generator(cfg, needs_schema: bool = False, needs_tools: bool = False):
    """The run's cached generator; a backend that cannot serve what the run needs is a usage error (exit 2)."""
    from generators.llm.backends import BACKENDS

    backend = cfg.backend_name()
    capabilities = BACKENDS.get(backend).capabilities
    if needs_schema and not capabilities.supports_json_schema:
        fail(f"backend {backend} has no JSON-schema output; --tool-calls schema needs one (e.g. --backend vllm)")
    if needs_tools and not capabilities.supports_tools:
        fail(
            f"backend {backend} does not take tools; use --tool-calls schema with a backend that has JSON-schema output"
        )
    try:
        return cfg.make_generator()
    except (OSError, ValueError, ImportError) as exc:  # a model that is not there, an engine that will not start
        fail(f"cannot load model {cfg.model!r} with backend {backend}: {one_line(exc, 300)}")


def counted(records: Iterable[AgentRecord], total: int, on_progress) -> Iterator[AgentRecord]:
    for done, record in enumerate(records, 1):
        on_progress(done, total)
        yield record


def report_rollouts(summary: dict[str, Any], output: Path, written: int, as_json: bool) -> None:
    if as_json:
        print_json({"output": str(output), **summary})
        return
    acceptance = f"{summary['acceptance']:.1%}" if summary["acceptance"] is not None else "-"
    out.print(
        f"{summary['rollouts']} rollouts of {summary['tasks']} tasks: passed {summary['passed']}, failed "
        f"{summary['failed']}, undecided {summary['undecided']} (acceptance {acceptance}); leakage {summary['leakage']}"
    )
    if summary["passed_unfinished"]:
        out.print(f"passed without the user ending the conversation: {summary['passed_unfinished']}")
    for title in ("end_reasons", "verifier_reasons", "faults", "skipped_by_reason"):
        if summary[title]:
            counts = ", ".join(f"{code} {count}" for code, count in summary[title].items())
            out.print(f"{title.replace('_', ' ')}: {counts}")
    say(f"wrote {written} records -> {output}")


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
    from generators.rollouts.runner import RolloutSummary, run_rollouts
    from runtime.executor import open_executor
    from schemas.io import LazyQuarantine, write_records

    check_output(output)
    inputs = read_tasks(tasks)
    dataset = safe_name(cfg.dataset or output.stem)
    summary = RolloutSummary()
    skipped = LazyQuarantine(output.with_name(output.stem + ".quarantine.parquet"))
    position = {record.id: index for index, record in enumerate(inputs)}

    def on_skipped(record: AgentRecord, reason: str) -> None:
        skipped.write(str(tasks), position[record.id], reason, record.model_dump(mode="json"))

    generator = None
    try:
        with (
            open_executor(cfg) as executor,
            progress_bar(f"rolling out ({cfg.agent} x {cfg.user})", len(inputs) * cfg.k) as on_progress,
        ):
            if cfg.uses_model() and not executor.spread:  # else each worker makes its own
                llm_agent = cfg.agent == "llm"
                generator = make_generator(
                    cfg, llm_agent and cfg.tool_calls == "schema", llm_agent and cfg.tool_calls == "native"
                )
            records = run_rollouts(inputs, cfg, generator, dataset, summary, on_skipped, executor=executor)
            written = write_records(counted(records, len(inputs) * cfg.k, on_progress), output)
    finally:
        skipped.close()
        if generator is not None:
            generator.close()
    stats = summary.as_dict()
    if cfg.catalog and written:
        registered = StageOutput(adhoc_name(dataset), output, written, details={"command": ROLLOUTS, **stats})
        register_or_warn(ROLLOUTS, cfg, [tasks], [registered], say)
    report_rollouts(stats, output, written, as_json)
    if not written:
        raise typer.Exit(FAILED)


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
    generator = make_generator(cfg)
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
