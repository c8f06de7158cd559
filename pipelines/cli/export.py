"""The ``export`` command group: datasets written for other tools (the Hugging Face Hub, trainers).

Each exporter registers its command on ``export_app`` from its own module.
"""

import typer

from pipelines.cli.app import app

export_app = typer.Typer(
    help="Export record datasets for other tools: the Hugging Face Hub, trainers.",
    no_args_is_help=True,
)
app.add_typer(export_app, name="export")
