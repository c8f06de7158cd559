"""Record and user text reaches the terminal as text: the commands that print it write its control characters
out (``\\x1b``, ``\\r``) and read no rich markup in it, on a colour terminal too.

The attack: `aceforge show` and `catalog sql` printed record text raw, so a record could retitle the window
(OSC 0), plant a link (OSC 8), clear the screen, switch to the alternate screen, ring the bell, rewrite a
line with a bare CR, or style itself with rich markup.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest

from data_catalog.catalog import Catalog
from pipelines.cli.common import shown
from schemas.io import write_records
from schemas.record import AgentRecord, Environment, Source, Task
from schemas.steps import ApiAction, MessageAction, TextObservation
from tests.conftest import ROOT

TITLE = "\x1b]0;pwned title\x07"
LINK = "\x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\"
CLEAR = "\x1b[2J\x1b[H"
ALTERNATE = "\x1b[?1049h"
HOSTILE = (
    f"hello {TITLE} {LINK} {CLEAR} {ALTERNATE} bell\x07 safe\rFAKE c1\x9b2J"
    " \u202egnp.exe [red]not red[/red] [link=https://evil.example]x[/link] :smile:"
)
# What a colour terminal may receive: rich's own SGR colours, newlines; nothing else below 0x20, no C1, no bidi.
SGR = re.compile(r"\x1b\[[0-9;]*m")
CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_controls_are_written_out_and_multiline_views_keep_newlines_and_tabs():
    text = "a\x1bb\r\nc\rd\te\x9bf\u202eg\x00\x7f\nh"
    assert shown(text) == "a\\x1bb\\r\\nc\\rd\\te\\x9bf\\u202eg\\x00\\x7f\\nh"
    assert shown(text, multiline=True) == "a\\x1bb\nc\\rd\te\\x9bf\\u202eg\\x00\\x7f\nh"
    assert shown("C:\\Users\\ünïcode [red] ~") == "C:\\Users\\ünïcode [red] ~"  # the rest stays as it is


@pytest.fixture
def hostile(data_home, tmp_path):
    """A record whose every text is HOSTILE, in a folder whose name holds an OSC title, registered as `hostile`."""
    record = AgentRecord(
        id=f"rec-{TITLE}",
        environment=Environment(kind="tool_world", name=HOSTILE, policy=HOSTILE),
        task=Task(instruction=HOSTILE),
        trajectory=[
            TextObservation(content=HOSTILE, source="user"),
            MessageAction(content=HOSTILE, reasoning=HOSTILE),
            ApiAction(function="lookup", kwargs={"q": HOSTILE}, tool_call_id=HOSTILE),
            TextObservation(content=HOSTILE, source="tool", name=HOSTILE),
        ],
        source=Source(dataset="hostile", format="test", original_id=HOSTILE),
    )
    path = tmp_path / f"dir{TITLE}" / "hostile.parquet"
    path.parent.mkdir()
    write_records([record], path)
    Catalog().register_dataset("hostile", path, 1)
    return path


def run(*args: str) -> tuple[int, str, str]:
    """The CLI in its own process, on what rich takes for a colour terminal."""
    env = {**os.environ, "FORCE_COLOR": "1", "TERM": "xterm-256color", "COLUMNS": "400"}
    done = subprocess.run(
        [sys.executable, "-m", "pipelines.cli.main", *args], capture_output=True, text=True, env=env, cwd=ROOT
    )
    return done.returncode, done.stdout, done.stderr


def inert(output: str) -> str:
    """``output`` without rich's colours, once nothing else in it can drive a terminal."""
    plain = SGR.sub("", output)
    assert not CONTROLS.search(plain), CONTROLS.findall(plain)
    assert "\x1b]" not in output and "\x07" not in output  # no OSC title or link, no bell
    return plain


def test_show_prints_every_text_of_the_record_inert(hostile):
    code, stdout, stderr = run("show", str(hostile), "--max-chars", "0")
    assert code == 0, stderr
    text = inert(stdout)
    assert text.count("\\x1b]0;pwned title\\x07") >= 8  # environment, policy, task, steps, reasoning, id
    assert "\\x1b]8;;https://evil.example/\\x1b\\click me" in text and "\\x1b[?1049h" in text
    assert "safe\\rFAKE" in text and "c1\\x9b2J" in text and "\\u202egnp.exe" in text
    assert "[red]not red[/red]" in text and "[link=https://evil.example]x[/link]" in text and ":smile:" in text
    missing = run("show", str(hostile), "--id", HOSTILE + "x")
    assert missing[0] == 1 and "no record with id" in inert(missing[2])


def test_catalog_sql_and_list_print_record_text_and_paths_inert(hostile):
    code, stdout, stderr = run(
        "catalog", "sql", f'SELECT instruction, source.original_id AS "{TITLE}" FROM hostile', "--max-chars", "0"
    )
    assert code == 0, stderr
    text = inert(stdout)
    assert "\\x1b]0;pwned title\\x07" in text.splitlines()[1]  # the column's name, in the header
    assert "[red]not red[/red]" in text and "safe\\rFAKE" in text
    code, stdout, _ = run("catalog", "sql", "SELECT instruction FROM hostile", "--json")
    assert json.loads(inert(stdout)) == [{"instruction": HOSTILE}]  # JSON escapes them, and reads back the same
    code, stdout, _ = run("catalog", "list")
    assert code == 0 and f"dir{shown(TITLE)}" in inert(stdout)
    # A message built from the query's own text (DuckDB's error repeats it).
    code, _, stderr = run("catalog", "sql", f"SELECT error('{TITLE}{CLEAR}')")
    assert code == 1 and "\\x1b]0;pwned title\\x07\\x1b[2J" in inert(stderr)


def test_validate_prints_a_bad_rows_id_and_error_inert(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": HOSTILE, "trajectory": HOSTILE}) + "\n")
    code, stdout, stderr = run("validate", str(bad))
    assert code == 1
    assert "(id hello \\x1b]0;pwned title\\x07" in inert(stdout)
    inert(stderr)


@pytest.mark.parametrize("colour_terminal", [False, True])
def test_a_line_said_without_rich_is_the_line_rich_prints(colour_terminal, capsys, monkeypatch):
    # say() writes without rich until a module has made the err console (convert makes none, to start faster):
    # the very text rich prints for the line, on a colour terminal too, with its controls written out.
    from rich.console import Console

    from pipelines.cli import common

    monkeypatch.delitem(vars(common), "err", raising=False)
    common.say(HOSTILE)
    written = capsys.readouterr().err
    buffer = io.StringIO()
    rich = Console(file=buffer, force_terminal=colour_terminal, color_system="truecolor", width=40)
    rich.print(common.plain_text(HOSTILE), highlight=False, soft_wrap=True)
    assert written == buffer.getvalue() == shown(HOSTILE) + "\n"
    assert "err" not in vars(common)  # saying made no console


def test_convert_says_its_lines_inert_on_a_colour_terminal(tmp_path):
    raw = tmp_path / "in.jsonl"
    raw.write_text(json.dumps({"id": "1", "conversations": [{"from": "human", "value": "hi"}]}) + "\n")
    output = tmp_path / f"out{TITLE}.parquet"  # the line names the output
    code, _, stderr = run("convert", "--format", "sharegpt", str(raw), "-o", str(output), "--no-catalog")
    assert code == 0 and output.is_file()
    assert f"converted 1 of 1 records -> {shown(str(output))}" in inert(stderr)
