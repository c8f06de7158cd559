"""Every command's --help (and run --help-all) at 80 columns: every flag name it shows is printed whole.

Typer's own panel cut them to fit: `run --help-all` showed 70 names as `--tasks-writer-b…` at 80 columns.
"""

from __future__ import annotations

import re

import pytest
from typer.core import TyperGroup, TyperOption

from pipelines.cli.main import COMMANDS, load_command
from tests.pipelines.cli_helpers import invoke


def leaf_commands() -> list[tuple[list[str], object]]:
    """(the words that name it, the command) for every command and group subcommand."""
    found = []
    for name in COMMANDS:
        command = load_command(name)
        if isinstance(command, TyperGroup):
            found += [([name, sub], command.commands[sub]) for sub in sorted(command.commands)]
        else:
            found.append(([name], command))
    return found


LEAVES = {tuple(words): command for words, command in leaf_commands()}
HELPS = [(list(words), "--help") for words in LEAVES] + [(["run"], "--help-all")]


@pytest.mark.parametrize(("words", "flag"), HELPS, ids=[" ".join(w) + " " + f for w, f in HELPS])
def test_every_flag_name_is_whole_at_80_columns(words, flag):
    command = LEAVES[tuple(words)]
    result = invoke(*words, flag, env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"})
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    shown = [p for p in command.params if isinstance(p, TyperOption) and (flag == "--help-all" or not p.hidden)]
    names = ["--help", *(name for p in shown for name in (*p.opts, *p.secondary_opts))]
    missing = [n for n in names if not re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", result.stdout)]
    assert missing == [], f"cut or missing in {' '.join(words)} {flag}: {missing[:5]}"
    assert "…" not in result.stdout


def test_a_later_paragraph_of_a_description_wraps_to_the_terminal():
    """Typer kept the source line breaks of a description's later paragraphs: at 200 columns `run --help` broke
    "oracle and perturbed / rollouts" where the docstring's line ended."""
    result = invoke("run", "--help", env={"COLUMNS": "200", "TERMINAL_WIDTH": "200"})
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert any("oracle and perturbed rollouts, and SmolLM2-135M as the declared learner" in line for line in lines)
