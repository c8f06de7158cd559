"""One stage, two faces: with nothing given, the CLI and the UI (the launchpad of the Dagster jobs) run every stage
on the same configuration, generation backend included."""

from __future__ import annotations

import pytest
import typer
from dagster._core.system_config.objects import ResolvedRunConfig
from typer.testing import CliRunner

from pipelines.cli.config import with_config
from pipelines.cli.synth_rollouts import RolloutCommand
from pipelines.definitions import JOBS, build_definitions, build_resources
from pipelines.main_job import SECTIONS
from pipelines.pipeline_config import PipelineConfig
from schemas.stage_config import StageConfig


def cli_config(model: type[StageConfig]) -> StageConfig:
    """The config a command decorated with ``@with_config(model)`` gets when run without flags."""
    seen = []
    app = typer.Typer()

    @app.command()
    @with_config(model)
    def command(cfg: StageConfig) -> None:
        seen.append(cfg)

    result = CliRunner().invoke(app, [])
    assert result.exit_code == 0, result.output
    return seen[0]


@pytest.fixture
def launchpad(monkeypatch) -> dict[str, ResolvedRunConfig]:
    """Each job's run config as the UI launches it when nothing is edited: its ops' and resources' defaults."""
    for name in ("ACEFORGE_BACKEND", "ACEFORGE_MODEL", "ACEFORGE_BASE_URL", "ACEFORGE_ENTRIES"):
        monkeypatch.delenv(name, raising=False)
    defs = build_definitions()
    return {name: ResolvedRunConfig.build(defs.resolve_job_def(name), {}) for name in JOBS}


def test_every_stage_of_aceforge_run_has_the_launchpads_defaults(launchpad):
    sections = cli_config(PipelineConfig).model_dump(mode="json")
    ops = {op: config.config for job in launchpad.values() for op, config in job.ops.items()}
    assert set(SECTIONS) <= set(ops)
    for op, section in SECTIONS.items():
        assert ops[op] == sections[section], op


def test_the_generation_resource_has_the_rollout_commands_backend(launchpad):
    """An llm agent of the rollouts asset generates as ``aceforge synth rollouts --agent llm`` does: the same
    backend (vLLM with a GPU, else transformers), model and context length."""
    resource = launchpad["synthesize"].resources["generation"].config
    command = cli_config(RolloutCommand).model_dump(mode="json", include=set(resource))
    assert resource == command == {"backend": None, "model": "default", "base_url": [], "max_model_len": 8192}


def test_the_generation_resource_reads_the_environment(monkeypatch):
    monkeypatch.setenv("ACEFORGE_BACKEND", "openai")
    monkeypatch.setenv("ACEFORGE_BASE_URL", "http://127.0.0.1:8000/v1,http://127.0.0.1:8001/v1")
    monkeypatch.delenv("ACEFORGE_MODEL", raising=False)
    resource = build_resources()["generation"]  # what the definitions hold
    llm = resource.apply(RolloutCommand(agent="llm", k=2))
    assert (llm.backend, llm.model, llm.base_url, llm.max_model_len, llm.k) == (
        "openai",
        "default",
        ["http://127.0.0.1:8000/v1", "http://127.0.0.1:8001/v1"],
        8192,
        2,
    )
