"""What every command module shares: the consoles, one-line errors with exit codes, JSON output, and
``plain_text``, the one way record or user text reaches the terminal.

``err`` and ``out`` are rich consoles on stderr and stdout, made when a module first imports them: rich is a
tenth of a quick command's start-up, and ``convert``, which ``ingest-vs-adp.sh`` times start-up included,
prints plain lines only (``say``)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import orjson
import typer

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


def __getattr__(name: str) -> Console:
    """``err`` (human messages and progress, so that stdout stays clean for data: tables, --json) and ``out``."""
    if name not in ("err", "out"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _console(name)


def _console(name: str) -> Console:
    console = globals().get(name)
    if console is None:
        from rich.console import Console

        console = Console(stderr=True) if name == "err" else Console(soft_wrap=True)
        if name == "out" and not console.is_terminal and console.width < 160:
            console.width = 160  # piped or captured output: wide tables beat tables with clipped names
        globals()[name] = console
    return console


def stderr_is_terminal() -> bool:
    """Whether progress lines may be drawn on stderr: a terminal, as rich judges it (rich is not imported to
    learn that stderr is a file or a pipe)."""
    return sys.stderr.isatty() and _console("err").is_terminal


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
    from rich.text import Text

    return Text(shown(str(value), multiline), style=style)


def say_error(message: str) -> None:
    from rich.text import Text

    _console("err").print(Text.assemble(("error: ", "bold red"), plain_text(message)), highlight=False, soft_wrap=True)


def say(message: str) -> None:
    """A line on stderr for the person running the command. Rich prints an unstyled line as it is, so until a
    module has made the ``err`` console (and with it maybe a live progress display to print above), the line is
    written without rich."""
    console = globals().get("err")
    if console is None:
        sys.stderr.write(shown(message) + "\n")
    else:
        console.print(plain_text(message), highlight=False, soft_wrap=True)


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
