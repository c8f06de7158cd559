"""The root Typer app; command modules register on it (see pipelines/cli.py)."""

import typer

app = typer.Typer(
    name="aceforge",
    help="aceforge: convert, synthesize, verify, score and select agent trajectories as (E, q, τ, v) records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
