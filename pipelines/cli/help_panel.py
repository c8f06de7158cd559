"""The options panels of every ``--help``, with flag names never cut.

Typer's own panel spreads an option over five columns (long names, short names, the ``--no-`` names, type,
help) and, when they do not fit, cuts every column alike: at 80 columns ``run --help-all`` printed
``--tasks-writer-b…`` for 70 flags. Here an option's names are one column as wide as its longest name, the
``--no-`` form on a line of its own, and the type, help and default share the rest, where they wrap.
``install`` puts this panel in place of typer's (pipelines/cli/app.py calls it), and has a command's later
paragraphs wrapped to the terminal as its first one is (typer keeps their source line breaks: a docstring's
lines then broke mid-sentence at any width but the source's).
"""

from __future__ import annotations

from typing import Any

from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from typer import rich_utils


def install() -> None:
    rich_utils._print_options_panel = options_panel
    rich_utils._fix_linebreaks = reflowed


def reflowed(paragraphs: list[str], markup_mode: Any = None) -> str:
    """The paragraphs of a help text after its first, each one line for the terminal to wrap; a list or an
    indented block keeps its lines (the signature of typer's ``_fix_linebreaks``)."""
    kept = ("-", "*", " ", "\b")
    return "\n\n".join(
        p if any(line.startswith(kept) for line in p.split("\n")) else p.replace("\n", " ") for p in paragraphs
    )


def options_panel(*, name: str, params: list[Any], ctx: Any, markup_mode: Any, console: Any) -> None:
    """One panel of options or arguments (the signature of typer's ``_print_options_panel``)."""
    from typer.core import TyperArgument

    if not params:
        return
    rows = []
    for param in params:
        if isinstance(param, TyperArgument):
            names = Text(param.display_name_raw + ("..." if param.metavar is None and param.nargs != 1 else ""))
        else:
            names = rich_utils.highlighter(", ".join(param.opts))
            if param.secondary_opts:
                names.append("\n")
                names.append_text(rich_utils.negative_highlighter(", ".join(param.secondary_opts)))
        kind = Text(style=rich_utils.STYLE_TYPES, overflow="fold")
        kind.append(param.display_type_rich(ctx=ctx) or "")
        number_range = param._get_number_range_help_str()
        if number_range:
            kind.append(rich_utils.RANGE_STRING.format(number_range))
        described = rich_utils._get_parameter_help(param=param, ctx=ctx, markup_mode=markup_mode)
        kind = rich_utils.types_highlighter(kind)
        parts = described.renderables
        if parts and isinstance(parts[0], Text):  # the type runs on into the help text, which wraps under both
            parts[0] = Text.assemble(kind, " ", parts[0]) if kind.plain else parts[0]
        elif kind.plain:
            parts.insert(0, kind)
        required = Text(rich_utils.REQUIRED_SHORT_STRING, style=rich_utils.STYLE_REQUIRED_SHORT)
        rows.append((required if param.required else Text(""), names, described))
    table = Table(highlight=True, show_header=False, expand=True, box=None, padding=(0, 1), pad_edge=False)
    starred = any(row[0].plain for row in rows)
    if starred:
        table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)  # the names: whole, whatever the width
    table.add_column(ratio=1)
    for row in rows:
        table.add_row(*(row if starred else row[1:]))
    console.print(
        Panel(
            table,
            border_style=rich_utils.STYLE_OPTIONS_PANEL_BORDER,
            title=name,
            title_align=rich_utils.ALIGN_OPTIONS_PANEL,
        )
    )
