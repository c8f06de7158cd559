"""A third-party package adds a format and an environment through entry points, without editing aceforge.

The test writes a tiny package (pyproject.toml + one module), pip-installs it
into a fresh venv, and runs `aceforge` there: `formats` and `env list` show the
plug-ins, and `convert` converts a literal file with the plug-in format.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from data_catalog.sources import FORMATS
from environments.registry import ENVIRONMENTS
from schemas.io import read_records
from schemas.steps import MessageAction, TextObservation

PYPROJECT = """\
[build-system]
requires = ["setuptools>=69"]
build-backend = "setuptools.build_meta"

[project]
name = "aceforge-qa-plugin"
version = "0.3.0"

[project.entry-points."aceforge.formats"]
qa_pairs = "aceforge_qa_plugin:QaPairsConverter"

[project.entry-points."aceforge.environments"]
counter = "aceforge_qa_plugin:CounterWorld"

[tool.setuptools]
py-modules = ["aceforge_qa_plugin"]
"""

MODULE = '''\
"""One format and one environment for aceforge, declared as entry points in pyproject.toml."""

from data_catalog.sources.base import Converter, require
from environments.tool_world import ToolWorld, params, tool
from schemas.record import AgentRecord, Source, record_id
from schemas.steps import MessageAction, TextObservation


class QaPairsConverter(Converter):
    name = "qa_pairs"
    description = "Question/answer pairs ({qid, question, answer}) as one user turn and one agent answer."

    def convert(self, raw):
        qid = require(raw, "qid", str)
        return AgentRecord(
            id=record_id(self.dataset, self.name, qid),
            trajectory=[
                TextObservation(content=require(raw, "question", str), source="user"),
                MessageAction(content=require(raw, "answer", str)),
            ],
            source=Source(dataset=self.dataset, format=self.name, original_id=qid),
        )


class CounterWorld(ToolWorld):
    """Counters that only go up (a plug-in environment)."""

    name = "counter"

    def generate_state(self, seed):
        return {"counters": {"clicks": {"value": seed}}}

    @tool("The value of a counter.", params({"counter": {"type": "string"}}))
    def read(self, counter):
        return self.row("counters", counter, "counter")["value"]

    @tool("Add one to a counter.", params({"counter": {"type": "string"}}), access="write")
    def increment(self, counter):
        row = self.edit("counters", counter, "counter")
        row["value"] += 1
        return row["value"]
'''


def write_plugin_package(folder: Path) -> Path:
    folder.mkdir()
    (folder / "pyproject.toml").write_text(PYPROJECT)
    (folder / "aceforge_qa_plugin.py").write_text(MODULE)
    return folder


def make_venv_over_this_one(folder: Path) -> Path:
    """A fresh venv that also sees this environment's packages (aceforge, setuptools, pip) but installs into its own.

    ``--system-site-packages`` would expose the base interpreter's packages, not this venv's, so a .pth
    file adds this venv's site-packages as a site dir (its own .pth files, e.g. aceforge's editable finder, run too).
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    (Path(site) / "aceforge_host_env.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    return python


@pytest.mark.slow  # a venv, a pip install and three CLI processes: about 20 s on 2 cores
def test_an_installed_package_adds_a_format_and_an_environment(tmp_path):
    assert "qa_pairs" not in FORMATS and "counter" not in ENVIRONMENTS  # not here: only in the plug-in's venv
    package = write_plugin_package(tmp_path / "qa_plugin")
    python = make_venv_over_this_one(tmp_path / "venv")
    pip = [
        python,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "--no-cache-dir",
        "-q",
        str(package),
    ]
    installed = subprocess.run(pip, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    env = {**os.environ, "ACEFORGE_HOME": str(tmp_path / "home"), "COLUMNS": "200"}

    def aceforge(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [python, "-m", "pipelines.cli.main", *args], cwd=tmp_path, env=env, capture_output=True, text=True
        )

    listed = aceforge("formats")
    assert listed.returncode == 0, listed.stderr
    assert "qa_pairs" in listed.stdout and "Question/answer pairs" in listed.stdout and "tau_bench" in listed.stdout

    environments = aceforge("env", "list", "--json")
    assert environments.returncode == 0, environments.stderr
    rows = {row["name"]: row for row in json.loads(environments.stdout)}
    assert rows["counter"] == {
        "name": "counter",
        "tools": 2,
        "doc": "Counters that only go up (a plug-in environment).",
    }
    assert {"retail", "airline", "code"} <= set(rows)

    raw = tmp_path / "qa.jsonl"
    raw.write_text(
        '{"qid": "q1", "question": "What is 2 + 2?", "answer": "4"}\n{"qid": "q2", "question": "No answer here"}\n'
    )
    out = tmp_path / "qa.parquet"
    converted = aceforge("convert", str(raw), "-f", "qa_pairs", "-o", str(out), "--no-catalog", "--json")
    assert converted.returncode == 0, converted.stderr
    stats = json.loads(converted.stdout.strip().splitlines()[-1])
    assert (stats["converted"], stats["quarantined"]) == (1, 1)
    [record] = list(read_records(out))
    assert record.source.format == "qa_pairs" and record.source.original_id == "q1"
    assert record.trajectory == [
        TextObservation(content="What is 2 + 2?", source="user"),
        MessageAction(content="4"),
    ]
