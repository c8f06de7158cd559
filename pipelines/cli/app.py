"""The Typer app that command modules register their commands on.

It is a registry, not the entry point: pipelines/cli/main.py lists the commands and
imports a command's module only when that command runs.
"""

import typer

from pipelines.cli.help_panel import install

install()  # every command's --help: flag names whole at any width
app = typer.Typer()
