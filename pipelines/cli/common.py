"""What every command module shares: the stderr console, one-line errors with exit codes, JSON output, and
``plain_text``, the one way record or user text reaches the terminal."""

from __future__ import annotations

import re
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

# C0 controls, DEL and C1 controls (ESC and CSI start window titles, links, screen clears; a bare CR rewrites
# the line; BEL rings), and the Unicode marks that reorder the text after them (bidi embeddings, overrides,
# isolates): printed as they are, a record's text could drive the terminal or disguise itself.
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_JSON_UNESCAPED = re.compile(r"[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # what orjson writes as it is
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}

USAGE = 2  # bad arguments: unknown format, missing input, bad option
FAILED = 1  # the command ran but produced nothing usable
INTERRUPTED = 130  # Ctrl-C or SIGTERM, as shells report a command killed by SIGINT (128 + 2)


def shown(text: str, multiline: bool = False) -> str:
    """``text`` with its control characters written out (``\\x1b``, ``\\r``, ``\\u202e``), so printing it can
    neither move the cursor, retitle the window, make a link nor clear the screen. ``multiline`` keeps newlines
    and tabs (and CRLF, as a newline); otherwise they are written out too, for one-line cells and messages."""
    if multiline:
        text = text.replace("\r\n", "\n")
    return _CONTROLS.sub(lambda m: _written_out(m[0], multiline), text)


def _written_out(char: str, multiline: bool) -> str:
    if multiline and char in "\n\t":
        return char
    return _NAMED.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


def plain_text(value: object, style: str = "", multiline: bool = False) -> Text:
    """Record or user text as rich prints it: controls written out (``shown``) and no markup read (``[red]``
    stays ``[red]``). Every command prints such text through this."""
    return Text(shown(str(value), multiline), style=style)


def say_error(message: str) -> None:
    err.print(Text.assemble(("error: ", "bold red"), plain_text(message)), highlight=False, soft_wrap=True)


def say(message: str) -> None:
    err.print(plain_text(message), highlight=False, soft_wrap=True)


def fail(message: str, code: int = USAGE) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code``; never a traceback."""
    say_error(message)
    raise typer.Exit(code)


@contextmanager
def disk_full_is_one_line(folders: dict[Path, str], what: str) -> Iterator[None]:
    """Within: a full disk (or quota) anywhere under ``folders`` ends the command with one line naming the folder
    and the space it had, exit code FAILED (runtime/disk.py), never a traceback."""
    from runtime.disk import DiskFull, space_watched

    try:
        with space_watched(folders, what):
            yield
    except DiskFull as exc:
        fail(str(exc), FAILED)


def print_json(value: Any) -> None:
    """One line of JSON on stdout (dates and other objects as strings); controls inside strings as \\u escapes
    (orjson escapes the C0 ones; DEL, C1 and bidi marks, which it writes as they are, too)."""
    text = orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS).decode()
    typer.echo(_JSON_UNESCAPED.sub(lambda m: f"\\u{ord(m[0]):04x}", text))


def one_line(error: object, limit: int | None = None) -> str:
    """An error's message on one line (each run of whitespace made one space), cut at ``limit`` characters."""
    return " ".join(str(error).split())[:limit]


def clip(text: str | None, limit: int) -> str:
    if text is None:
        return ""
    return text if limit <= 0 or len(text) <= limit else text[: limit - 1] + "…"
