"""The Typer app that command modules register their commands on.

It is a registry, not the entry point: pipelines/cli/main.py lists the commands and
imports a command's module only when that command runs.
"""

import typer
from typer.core import TyperCommand, TyperGroup


def _with_help_panel(format_help):
    """``format_help`` with our options panel put in place first (help_panel.py): it needs typer's rich_utils,
    which only a help text loads, so a command that runs without --help never imports it (40 ms of start-up)."""

    def with_panel(self, ctx, formatter):
        from pipelines.cli.help_panel import install

        install()  # every command's --help: flag names whole at any width
        return format_help(self, ctx, formatter)

    return with_panel


for _cls in (TyperCommand, TyperGroup):
    _cls.format_help = _with_help_panel(_cls.format_help)
app = typer.Typer()
