"""The root command table: it names every registered command, and a command imports only what it needs."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import typer

from pipelines.cli.app import app as registry
from pipelines.cli.main import COMMANDS, load_command
from tests.conftest import ROOT


def test_the_table_names_exactly_the_registered_commands():
    for name in COMMANDS:
        assert load_command(name).name == name
    for entry in COMMANDS.values():
        for module in entry.modules:
            importlib.import_module(module)
    assert sorted(typer.main.get_group(registry).commands) == sorted(COMMANDS)


def test_each_group_entry_lists_every_module_of_its_subcommands():
    # synth and export take their subcommands from two modules each: both must be loaded to run either.
    assert sorted(load_command("synth").commands) == ["backward", "code", "evolve", "rollouts", "tasks"]
    assert sorted(load_command("export").commands) == ["dpo", "hub", "openai", "sharegpt", "verl"]


def modules_after(*args: str) -> set[str]:
    """The modules imported by ``aceforge ARGS`` in a fresh interpreter."""
    script = (
        "import sys, json\n"
        "from pipelines.cli.main import app\n"
        f"sys.argv = ['aceforge', *{list(args)!r}]\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_help_and_formats_import_no_stage():
    heavy = {"curation", "generators", "training", "environments", "dagster", "duckdb", "pyarrow", "torch"}
    light_cli = {
        "pipelines.cli.main",
        "pipelines.cli.app",
        "pipelines.cli.common",
        "pipelines.cli.config",
        "pipelines.cli.formats",
        "pipelines.cli.ingest",
    }
    for args in (["--help"], ["formats"], ["convert", "--help"]):
        loaded = modules_after(*args)
        assert not {m.split(".")[0] for m in loaded} & heavy, args
        assert {m for m in loaded if m.startswith("pipelines.cli.main")} <= light_cli, args


def test_convert_imports_no_stage_nor_the_catalog(tmp_path):
    # `aceforge convert` is measured beside ADP's converters with its start-up included: a real conversion
    # imports what converting needs, not a stage's libraries nor what only some runs use.
    raw = tmp_path / "os.jsonl"
    turns = [
        {"from": "human", "value": "How many files are in /etc?"},
        {"from": "gpt", "value": "Think: count them.\n\nAct: bash\n\n```bash\nls /etc | wc -l\n```"},
        {"from": "human", "value": "The output of the OS:\n211"},
    ]
    raw.write_text(json.dumps({"id": "os-1", "conversations": turns}) + "\n")
    output = tmp_path / "os.parquet"
    loaded = modules_after("convert", "--format", "sharegpt", str(raw), "-o", str(output), "--no-catalog")
    assert output.is_file()
    stages = {"curation", "generators", "training", "environments", "verifiers"}
    # numpy and cloudpickle too: pyarrow imports them only to offer numpy conversions and to pickle Arrow objects
    # holding Python functions, and a convert process hides them (arrow_imports.py).
    libraries = {"dagster", "duckdb", "torch", "transformers", "vllm", "ray", "sklearn", "pandas", "numpy"}
    libraries |= {"cloudpickle"}
    assert not {m.split(".")[0] for m in loaded} & (stages | libraries)
    # Imported where they are used: Arrow's compute kernels (reading older record files), the catalog and the
    # config hash (a run that registers), rich and the progress line (a terminal; a plain line needs no rich).
    only_when_used = {"pyarrow.compute", "data_catalog.catalog", "data_catalog.ingest", "rich.console", "rich.progress"}
    assert not loaded & (only_when_used | {"pipelines.registrar"})


def test_a_command_run_where_triton_is_loaded_exits_without_leak_reports():
    """Freezing the collector at exit (convert does, to skip the exit collections) makes triton's nanobind report
    every object it still holds as leaked; ``aceforge run`` loads triton with vLLM, so no other command freezes."""
    script = "import sys, triton\nfrom pipelines.cli.main import main\nsys.argv = ['aceforge', 'formats']\nmain()\n"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "sharegpt" in done.stdout and "nanobind" not in done.stderr
