"""Entry point of the `aceforge` console script.

Each area keeps its commands in its own module, which registers them on the
shared registry app (pipelines/cli/app.py) when imported. The root group here
imports a command's modules only when that command runs, so ``aceforge --help``
and a light command such as ``formats`` do not pay for importing every stage
(pydantic models, environments, curation, training).
"""

import importlib
import signal
from typing import Any, NamedTuple

import typer
from typer import _click
from typer.core import TyperCommand, TyperGroup

from pipelines.cli.common import FAILED, INTERRUPTED, USAGE, say, say_error
from pipelines.interrupts import Interrupts
from runtime.elapsed import slow_steps_to
from runtime.plugins import PluginError
from schemas.versions import SchemaError


class Entry(NamedTuple):
    modules: tuple[str, ...]
    """The modules that register the command (a group's subcommands may come from several)."""
    summary: str
    """Its line in ``aceforge --help``; the command's own --help has the full text."""


# In the order a user meets them. tests/pipelines/test_cli_lazy.py checks this table against the registrations.
COMMANDS = {
    "demo": Entry(("pipelines.cli.run",), "Write the demo raw sources: a bookstore's support logs in five formats."),
    "formats": Entry(("pipelines.cli.formats",), "List the raw formats: the layouts each reads and its options."),
    "convert": Entry(("pipelines.cli.ingest",), "Convert raw trajectories of one format into Parquet AgentRecords."),
    "validate": Entry(("pipelines.cli.records",), "Check that a file's rows parse into AgentRecords."),
    "migrate": Entry(("pipelines.cli.migrate",), "Rewrite the record files of a folder as the current schema version."),
    "show": Entry(("pipelines.cli.records",), "Show one record readably: source, E, q, every τ step, v."),
    "export-adp": Entry(("pipelines.cli.records",), "Export records as ADP v1 JSONL."),
    "export-atif": Entry(("pipelines.cli.export_atif",), "Export records as Harbor ATIF trajectories (JSONL)."),
    "catalog": Entry(("pipelines.cli.catalog",), "The DuckDB catalog of every dataset written: list, sql."),
    "env": Entry(("pipelines.cli.env",), "Executable environments (retail, airline, ...): tools, policy, databases."),
    "model": Entry(("pipelines.cli.generate",), "Local model folders (the default SmolLM2 converted from its GGUF)."),
    "generate": Entry(("pipelines.cli.generate",), "Generate for every request in a prompts file (resumable)."),
    "synth": Entry(
        ("pipelines.cli.synth", "pipelines.cli.synth_rollouts"),
        "Synthesize tasks and verified rollouts in the tool worlds.",
    ),
    "verify": Entry(("pipelines.cli.verify",), "Re-run the verifier chain on records and count changed verdicts."),
    "score": Entry(("pipelines.cli.curation",), "Score records on accuracy, complexity and diversity (ACE)."),
    "dedup": Entry(("pipelines.cli.curation",), "Remove exact, structural, near-text and semantic duplicates."),
    "select": Entry(("pipelines.cli.curation",), "Choose the SFT and RL sets; every record left out gets its reason."),
    "report": Entry(("pipelines.cli.curation",), "Render the ACE report: histograms, embedding map, counts."),
    "train": Entry(("pipelines.cli.train",), "Train on selected sets: SFT and RL (GRPO with verifier rewards)."),
    "eval": Entry(("pipelines.cli.train",), "pass^1..pass^k of a model on held-out tasks."),
    "improve": Entry(
        ("pipelines.cli.improve",), "Rounds that train the declared learner on its failures, judged on held-out tasks."
    ),
    "export": Entry(
        ("pipelines.cli.export_hub", "pipelines.cli.export_trainers"),
        "Export datasets for other tools: the Hugging Face Hub, trainers.",
    ),
    "run": Entry(("pipelines.cli.run",), "The main job: ingest, synthesize, verify, curate and publish via Dagster."),
    "ui": Entry(("pipelines.cli.ui",), "Start the Dagster UI on the aceforge pipelines."),
}


def load_command(name: str) -> _click.Command:
    """Import the modules that register ``name`` and build its click command."""
    from pipelines.cli.app import app as registry

    for module in COMMANDS[name].modules:
        importlib.import_module(module)
    return typer.main.get_group(registry).commands[name]


class LazyCommands(TyperGroup):
    """The root group: lists COMMANDS from the table, imports a command's modules only to run it."""

    def __init__(self, **attrs: Any) -> None:
        attrs["commands"] = {name: TyperCommand(name=name, help=entry.summary) for name, entry in COMMANDS.items()}
        super().__init__(**attrs)

    def resolve_command(
        self, ctx: _click.Context, args: list[str]
    ) -> tuple[str | None, _click.Command | None, list[str]]:
        if args and args[0] in COMMANDS:
            return args[0], load_command(args[0]), args[1:]
        return super().resolve_command(ctx, args)  # an unknown name: click's error with a suggestion

    def invoke(self, ctx: _click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SchemaError as exc:  # a record file of a newer aceforge, or of no record schema: one line, any command
            say_error(str(exc))
            raise typer.Exit(FAILED) from None
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the `with` blocks on the way out stopped engines and clusters
            say("interrupted: the work in hand stopped and nothing more was launched; run the command again to resume")
            raise typer.Exit(INTERRUPTED) from None


app = typer.Typer(
    name="aceforge",
    cls=LazyCommands,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def root() -> None:
    """aceforge: convert, synthesize, verify, score and select agent trajectories as (E, q, τ, v) records."""
    slow_steps_to(say)  # converting a model, starting an engine: the person waiting sees it on stderr


def _terminate_as_interrupt(signum: int, frame: Any) -> None:
    """SIGTERM does what Ctrl-C does (Dagster stops the step in hand, KeyboardInterrupt unwinds the rest): the
    current SIGINT handler is Dagster's during a step, Python's default (KeyboardInterrupt) elsewhere. It is
    called, not signalled: a command started with SIGINT ignored (a script's background job) stops all the same."""
    handler = signal.getsignal(signal.SIGINT)
    if not callable(handler):  # ignored (or no Python handler): what Python's default would raise
        raise KeyboardInterrupt
    handler(signal.SIGINT, frame)


def main() -> None:
    # A parent may have blocked them for its children (the mask is inherited): a command must hear both.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    signal.signal(signal.SIGTERM, _terminate_as_interrupt)
    try:
        with Interrupts():  # an interrupt dropped inside a finalizer is sent again
            app()
    except PluginError as exc:  # a plug-in that failed to load: one line naming it, not a traceback
        say_error(str(exc))
        raise SystemExit(USAGE) from None


if __name__ == "__main__":
    main()
