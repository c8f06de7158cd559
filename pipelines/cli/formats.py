"""``aceforge formats``: the registered raw formats, the layouts each reads and its options.

Its own module, apart from ``convert``, so that listing formats does not build
the convert command's configuration model and flags.
"""

from __future__ import annotations

from pipelines.cli.app import app
from pipelines.cli.common import out, plain_text


@app.command("formats")
def list_formats() -> None:
    """List the registered raw formats: what each reads (its layouts), its options, and whether `convert`'s
    default --format auto detects it."""
    from rich.table import Table

    from data_catalog.sources import formats
    from data_catalog.sources.base import Converter

    table = Table(
        "format", "description and layouts read", "options (--option key=value)", "--format auto", show_lines=True
    )
    for name, cls in formats().items():
        layouts = "".join(f"\n• {layout}" for layout in cls.layouts)
        options = "\n".join(f"{key}: {help_text}" for key, help_text in cls.options.items()) or "-"
        auto = "detects its layouts" if cls.sniff is not Converter.sniff else "not detected: give --format"
        cells = (name, cls.description + layouts, options)
        table.add_row(*(plain_text(cell, multiline=True) for cell in cells), auto)
    out.print(table)
