"""CLI flags come from the stage's config model: --help shows its text, flags override YAML, typos name the key."""

from __future__ import annotations

import resource
import subprocess
import sys
from typing import Literal

import pytest
import typer
from dagster import DagsterInstance, materialize
from pydantic import Field
from typer.testing import CliRunner

from data_catalog.entries import PACKAGE_DIR
from generators.llm.config import BackendConfig, GenerateConfig
from generators.rollouts.config import RolloutConfig
from pipelines.assets.config_schema import config_schema
from pipelines.cli.config import with_config
from pipelines.definitions import build_definitions
from pipelines.pipeline_config import PipelineConfig
from schemas.stage_config import StageConfig
from tests.conftest import BILLION_LAUGHS, ROOT
from tests.pipelines.cli_helpers import OS_STD, invoke


class Inner(StageConfig):
    depth: int = 2
    """How deep to go."""


class Demo(StageConfig):
    steps: int = 3
    """Number of steps to take."""
    mode: Literal["fast", "careful"] = "fast"
    """Pace of the stage."""
    verbose: bool = False
    """Say more."""
    tags: list[str] = Field(default_factory=list)
    """Tags (repeatable)."""
    extra: dict[str, str] = Field(default_factory=dict)
    """Extra options, key=value."""
    inner: Inner = Field(default_factory=Inner)
    """A section."""
    judge: BackendConfig | None = None
    """An optional backend section."""


demo_app = typer.Typer()


@demo_app.command()
@with_config(Demo)
def show(cfg: Demo, name: str = typer.Argument(..., help="A name.")) -> None:
    typer.echo(f"{name} {cfg.model_dump_json()}")


def run_demo(*args: str):
    result = CliRunner().invoke(demo_app, list(args))
    return result, (Demo.model_validate_json(result.stdout.split(" ", 1)[1]) if result.exit_code == 0 else None)


def test_help_shows_the_models_text_and_defaults():
    text = CliRunner().invoke(demo_app, ["--help"], env={"COLUMNS": "200"}).stdout
    for expected in (
        "Number of steps to take.",
        "--steps",
        "--mode",
        "fast|careful",
        "--no-verbose",
        "--inner-depth",
        "How deep to go.",
        "--judge-model",
        "--config",
        "A name.",
    ):
        assert expected in text, expected
    assert "3" in text.split("Number of steps to take.")[1].split("\n")[0]  # the model's default is shown


def test_flags_override_yaml_and_yaml_overrides_the_model(tmp_path):
    config = tmp_path / "demo.yaml"
    config.write_text("steps: 5\nmode: careful\nextra: {a: '1'}\ninner: {depth: 7}\n")
    _, cfg = run_demo("x", "--config", str(config))
    assert (cfg.steps, cfg.mode, cfg.extra, cfg.inner.depth, cfg.verbose) == (5, "careful", {"a": "1"}, 7, False)
    _, cfg = run_demo("x", "--config", str(config), "--steps", "9", "--inner-depth", "1", "--tags", "p", "--tags", "q")
    assert (cfg.steps, cfg.mode, cfg.inner.depth, cfg.tags) == (9, "careful", 1, ["p", "q"])
    _, cfg = run_demo("x", "--extra", "k=v=w", "--verbose", "--judge-model", "m")
    assert cfg.extra == {"k": "v=w"} and cfg.verbose and cfg.judge == BackendConfig(model="m")
    _, cfg = run_demo("x")
    assert cfg == Demo()  # nothing given: the model's defaults, and no judge section


def test_typo_in_yaml_or_flag_fails_naming_the_key(tmp_path):
    config = tmp_path / "demo.yaml"
    config.write_text("stpes: 5\n")
    result, _ = run_demo("x", "--config", str(config))
    assert result.exit_code == 2 and "unknown key 'stpes' (did you mean 'steps'?)" in result.stderr
    result, _ = run_demo("x", "--stpes", "5")
    assert result.exit_code == 2 and "--stpes" in result.stderr
    result, _ = run_demo("x", "--mode", "slow")
    assert result.exit_code == 2 and "slow" in result.stderr
    result, _ = run_demo("x", "--extra", "novalue")
    assert result.exit_code == 2 and "--extra expects key=value, got 'novalue'" in result.stderr


def test_an_alias_bomb_as_config_fails_fast_in_bounded_memory(tmp_path, data_home):
    """The attack: a 10-line YAML alias bomb as --config hung at 1.5 GB."""
    config = tmp_path / "bomb.yaml"
    config.write_text(BILLION_LAUGHS)
    limit = 3 << 30  # address space: imports take well under it; expanding the bomb would not fit
    command = [
        sys.executable,
        "-m",
        "pipelines.cli.main",
        "convert",
        "-f",
        "adp",
        str(OS_STD),
        "-o",
        str(tmp_path / "o.parquet"),
    ]
    done = subprocess.run(
        [*command, "--config", str(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: config {config} expands to more than 100,000 values (aliases nested in aliases?): refused"
    ]
    assert not (tmp_path / "o.parquet").exists()


def test_real_commands_use_the_pattern(tmp_path):
    text = invoke("generate", "--help", env={"COLUMNS": "200"}).stdout
    assert GenerateConfig.model_fields["max_model_len"].description in text
    config = tmp_path / "gen.yaml"
    config.write_text("max_tokns: 5\n")
    result = invoke("generate", tmp_path / "none.jsonl", "-o", tmp_path / "o.jsonl", "--config", config)
    assert result.exit_code == 2 and "unknown key 'max_tokns' (did you mean 'max_tokens'?)" in result.stderr
    config.write_text("backend: nope\n")
    result = invoke("generate", tmp_path / "none.jsonl", "-o", tmp_path / "o.jsonl", "--config", config)
    assert result.exit_code == 2 and "unknown backend 'nope'" in result.stderr


def test_dagster_config_comes_from_the_same_model(data_home, tmp_path):
    schema = config_schema(Demo)
    assert schema["steps"].default_value == 3 and schema["steps"].description == "Number of steps to take."
    assert schema["inner"].default_value == {"depth": 2} and not schema["judge"].is_required
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "demo.yaml").write_text((PACKAGE_DIR / "demo_bookstore_adp.yaml").read_text())
    converted = build_definitions(entries).resolve_assets_def("converted")
    bad = {"ops": {"converted": {"config": {"max_quarantine_rate": 3.0}}}}
    result = materialize(
        [converted],
        instance=DagsterInstance.ephemeral(),
        partition_key="demo_bookstore_adp",
        run_config=bad,
        raise_on_error=False,
    )
    assert not result.success
    (failure,) = result.get_step_failure_events()
    assert "max_quarantine_rate: Input should be less than or equal to 1" in str(failure.step_failure_data.error)


@pytest.mark.parametrize("command", ["convert", "generate", "verify", "run"])
def test_each_moved_command_takes_a_config_file(command):
    assert "--config" in invoke(command, "--help").stdout


def test_a_long_command_shows_its_sections_under_help_all_only():
    short = invoke("run", "--help", env={"COLUMNS": "80"}).stdout
    assert len(short.splitlines()) < 120  # it was 895 lines at 80 columns, flag names cut to "…"
    assert "--learner-k" not in short and "--environments" in short  # sections named, top-level flags shown
    # grouped by stage, as the UI groups the assets: the sections' names, and a heading per stage
    assert "synthesize: tasks, rollouts, learner; curate: score, dedup, select, report;" in " ".join(short.split())
    assert "executor: executor;" in " ".join(short.split())
    assert "--max-duplicate-rate" in short.split("Curate options")[1].split("Publish options")[0]
    full = invoke("run", "--help-all", env={"COLUMNS": "200"})
    assert full.exit_code == 0
    assert "--learner-k" in full.stdout.split("Synthesize: section learner (also --config YAML)")[1]
    assert "--executor-engine" in full.stdout.split("Executor: section executor (also --config YAML)")[1]
    # A command with few flags shows its sections at once, each under its own heading.
    score = invoke("score", "--help", env={"COLUMNS": "200"}).stdout
    assert "Section learner (also --config YAML)" in score and "--learner-agent" in score
    assert "--help-all" not in score


def test_output_options_belong_to_commands_not_to_the_pipelines_stages():
    """The record store names and registers what an asset writes: no pipeline section offers catalog or dataset,
    while the commands that write a file still do (--no-catalog, --dataset)."""
    sections = {name: field.annotation for name, field in PipelineConfig.model_fields.items()}
    for name, section in sections.items():
        if isinstance(section, type) and issubclass(section, StageConfig):
            assert not {"catalog", "dataset"} & set(section.model_fields), name
    assert not {"catalog", "dataset"} & set(RolloutConfig.model_fields)  # the rollouts section's runs
    for command in (("score",), ("dedup",), ("select",), ("synth", "tasks"), ("synth", "rollouts"), ("eval",)):
        text = invoke(*command, "--help", env={"COLUMNS": "200"}).stdout
        assert "--no-catalog" in text and "--dataset" in text, command
    assert "--no-catalog" in invoke("export", "hub", "--help", env={"COLUMNS": "200"}).stdout
