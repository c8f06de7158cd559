"""What every command module shares: the stderr console, one-line errors with exit codes, JSON output."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import orjson
import typer
from rich.console import Console
from rich.text import Text

# Human messages and progress go to stderr, so stdout stays clean for data (tables, --json).
err = Console(stderr=True)
out = Console(soft_wrap=True)
if not out.is_terminal and out.width < 160:
    # Piped or captured output: wide tables beat tables with clipped names.
    out.width = 160

USAGE = 2  # bad arguments: unknown format, missing input, bad option
FAILED = 1  # the command ran but produced nothing usable


def say_error(message: str) -> None:
    err.print(Text.assemble(("error: ", "bold red"), message), highlight=False, soft_wrap=True)


def say(message: str) -> None:
    err.print(Text(message), highlight=False, soft_wrap=True)


def fail(message: str, code: int = USAGE) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code``; never a traceback."""
    say_error(message)
    raise typer.Exit(code)


@contextmanager
def disk_full_is_one_line(folders: dict[Path, str], what: str) -> Iterator[None]:
    """Within: a full disk (or quota) anywhere under ``folders`` ends the command with one line naming the folder
    and the space it had, exit code FAILED (schemas/disk.py), never a traceback."""
    from schemas.disk import DiskFull, space_watched

    try:
        with space_watched(folders, what):
            yield
    except DiskFull as exc:
        fail(str(exc), FAILED)


def print_json(value: Any) -> None:
    """One line of JSON on stdout (dates and other objects as strings)."""
    typer.echo(orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS).decode())


def one_line(error: object, limit: int | None = None) -> str:
    """An error's message on one line (each run of whitespace made one space), cut at ``limit`` characters."""
    return " ".join(str(error).split())[:limit]


def clip(text: str | None, limit: int) -> str:
    if text is None:
        return ""
    return text if limit <= 0 or len(text) <= limit else text[: limit - 1] + "…"
