"""The README's conversion examples run as written, on the demo's files under the names the README gives them."""

from __future__ import annotations

import gzip
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from data_catalog.demo import write_demo_sources
from tests.conftest import ROOT

ACEFORGE = Path(sys.executable).with_name("aceforge")


BASH_BLOCK = re.compile(r"```bash\n(.*?)```", re.DOTALL)


def block_commands(block: str) -> list[str]:
    """A bash block's command lines: comments cut, optional ``[...]`` parts left out, blank lines dropped."""
    lines = (re.sub(r"\s*\[[^\]]*\]", "", re.sub(r"\s+#.*$", "", line)).strip() for line in block.splitlines())
    return [line for line in lines if line]


def readme_block(heading: str) -> list[str]:
    """The commands of the first bash block under ``heading``."""
    readme = (ROOT / "README.md").read_text()
    return block_commands(BASH_BLOCK.search(readme[readme.index(heading) :]).group(1))


def test_the_conversion_examples_run_as_written(tmp_path):
    sources = write_demo_sources(tmp_path / "demo")
    work = tmp_path / "work"
    (work / "runs").mkdir(parents=True)
    shutil.copy(sources["bookstore_runs.json"], work / "runs" / "bookstore_runs.json")
    shutil.copy(sources["bookstore_chat.jsonl"], work / "chats.jsonl")
    (work / "data.json.gz").write_bytes(gzip.compress(sources["bookstore_react.json"].read_bytes()))
    runs = json.loads(sources["bookstore_runs.json"].read_text())
    (work / "runs.jsonl").write_text("".join(json.dumps(run) + "\n" for run in runs))
    env_path = f"{ACEFORGE.parent}:/usr/bin:/bin"

    commands = readme_block("### Converting your own data")
    assert len(commands) >= 8 and commands[1].startswith("aceforge convert runs/")
    for command in commands:
        result = subprocess.run(
            ["bash", "-c", command],
            cwd=work,
            env={"PATH": env_path, "ACEFORGE_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, (command, result.stderr[-2000:])
    assert (work / "runs.parquet").is_file() and (work / "chats.adp.jsonl").stat().st_size > 0


def readme_commands() -> list[list[str]]:
    """Every ``aceforge`` line of the README's bash blocks, as arguments."""
    blocks = BASH_BLOCK.findall((ROOT / "README.md").read_text())
    return [shlex.split(line)[1:] for block in blocks for line in block_commands(block) if line.startswith("aceforge ")]


def test_every_readme_command_uses_options_its_help_lists():
    env = {"PATH": f"{ACEFORGE.parent}:/usr/bin:/bin", "COLUMNS": "200", "HOME": "/tmp"}

    helps: dict[tuple[str, ...], str | None] = {}

    def help_text(words: list[str]) -> str | None:
        """The command's help (asked once per command), None when ``words`` is not a command."""
        if tuple(words) not in helps:
            flag = "--help-all" if words == ["run"] else "--help"
            result = subprocess.run([str(ACEFORGE), *words, flag], env=env, capture_output=True, text=True, timeout=60)
            helps[tuple(words)] = result.stdout if result.returncode == 0 else None
        return helps[tuple(words)]

    commands = readme_commands()
    assert len(commands) >= 35
    checked = 0
    for args in commands:
        words = [a for a in args[:2] if not a.startswith("-")]
        # The longest prefix that is a command: `synth rollouts`, else `score` (its next word is a file).
        text = help_text(words[:2]) if len(words) == 2 else None
        text = text or help_text(words[:1])
        assert text is not None, args
        for option in (a.split("=")[0] for a in args if a.startswith("-") and a != "-"):
            assert re.search(rf"(^|[\s,│]){re.escape(option)}([\s,│]|$)", text, re.MULTILINE), (args, option)
            checked += 1
    assert checked >= 40
