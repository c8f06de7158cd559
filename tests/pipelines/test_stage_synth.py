"""One stage, two faces, for synthesis: ``aceforge synth tasks`` / ``synth rollouts`` and the synth_tasks, rollouts
and learner_rollouts assets run the stages of pipelines/stages/synth.py. They take the same fields; on the same
literal inputs they write the same records with the same verdicts; both quarantine what is not a task and refuse a
backend that cannot serve a run."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
import typer
from dagster import DagsterInstance, StaticPartitionsDefinition, asset, materialize
from dagster._core.system_config.objects import ResolvedRunConfig

from generators.rollouts.config import PolicyConfig, RolloutConfig
from generators.synthesis.config import SynthTasksConfig
from pipelines.assets.record_store import StoredRecords, asset_dir
from pipelines.assets.resources import GenerationResource, StorageResource
from pipelines.assets.synth import build_synth_assets
from pipelines.cli.app import app
from pipelines.cli.synth import SynthTasksCommand
from pipelines.cli.synth_rollouts import RolloutCommand
from pipelines.definitions import build_resources, defs
from pipelines.main_job import _error
from pipelines.pipeline_config import PipelineConfig, RolloutsSection
from pipelines.stages import RECORDS_FILE
from pipelines.stages.synth import SYNTH_ROLLOUTS, SYNTHESIS
from schemas.io import write_records
from tests.generators.rollouts.helpers import balance_task, cancel_task
from tests.pipelines.cli_helpers import invoke, last_json

# The command that runs each stage, and the config of one run of it (synth rollouts runs one policy: one entry of
# the rollouts section's runs, or the learner's).
COMMANDS = {
    "tasks": ("tasks", SynthTasksCommand, SynthTasksConfig),
    "rollouts": ("rollouts", RolloutCommand, RolloutConfig),
    "learner": ("rollouts", RolloutCommand, PolicyConfig),
}


@pytest.mark.parametrize("stage", SYNTHESIS, ids=lambda stage: stage.name)
def test_the_command_and_the_asset_take_the_same_fields(stage):
    name, command_config, run_config = COMMANDS[stage.name]
    command = typer.main.get_command(app).commands["synth"].commands[name]
    flags = {param.name.split("__")[0] for param in command.params}
    launchpad = ResolvedRunConfig.build(defs.resolve_job_def("synthesize"), {}).ops[stage.op].config
    assert set(launchpad) == set(stage.config.model_fields)
    assert launchpad == getattr(PipelineConfig(), stage.name).model_dump(mode="json")  # the pipeline's embedded run
    fields = set(run_config.model_fields)
    assert fields <= flags
    if stage is SYNTH_ROLLOUTS:
        assert all(set(run) == fields for run in launchpad["runs"])
    # Without flags the command runs the run config's own defaults.
    assert command_config.load(None).model_dump(mode="json", include=fields) == run_config().model_dump(mode="json")


# The same literal inputs for both faces: 3 retail tasks; the oracle once and a perturbed agent twice per task; a
# perturbed learner twice per task.
SMALL = PipelineConfig(
    tasks=SynthTasksConfig(n=3),
    rollouts=RolloutsSection(
        runs=[RolloutConfig(agent="oracle", k=1), RolloutConfig(agent="perturbed", k=2, seed=3)], model_tasks=0
    ),
    learner=PolicyConfig(agent="perturbed", k=2),
)
CLI_STEPS = {  # output -> `aceforge synth ...` arguments
    "tasks": ("tasks", "--env", "retail", "--n", 3),
    "oracle": ("rollouts", "TASKS", "--agent", "oracle", "--k", 1),
    "perturbed": ("rollouts", "TASKS", "--agent", "perturbed", "--k", 2, "--seed", 3),
    "learner": ("rollouts", "TASKS", "--agent", "perturbed", "--k", 2),
}
TASKS = [
    ("retail-constraint_first-81deb02a649d0151c1515059", None),  # a task has no verdict: nothing was tried yet
    ("retail-constraint_first-09a31a7e1ed738a487b33391", None),
    ("retail-constraint_first-2ddfc1feb21970a1442e4c2a", None),
]
ROLLOUTS = [  # the oracle solves each task; the perturbed agent's faults fail every one of its tries
    ("rollout-eaef941e064983fbfd2bef39", True),
    ("rollout-8a286481d68cc89e45b74113", True),
    ("rollout-92844abeb770a7c56300a51d", True),
    ("rollout-bb56fa816ad9a6a2d4ce706d", False),
    ("rollout-f8e17478a5f105a4c0d01f12", False),
    ("rollout-a1d79e69e0affc3e38ccc1cf", False),
    ("rollout-80dc5f4d42e083f4e2338612", False),
    ("rollout-1d56587613d1b03cf3ff8e69", False),
    ("rollout-3b94260d5981a72d5fdc86b5", False),
]
LEARNER_ROLLOUTS = [  # the same agent as the perturbed run, with another seed: other rollouts
    ("rollout-bc5f00395108b0ac818582ea", False),
    ("rollout-03b1c32d252c18b7b28a4e43", False),
    ("rollout-c6ca1bcc41f0974b2b8c3b86", False),
    ("rollout-af43a23c386c4e8f64cfe597", False),
    ("rollout-3f8d15412b32f29fed17f4f8", False),
    ("rollout-4cd5b53ef87f0fbb83c03886", False),
]


def records(path) -> list[tuple[str, bool | None]]:
    table = pq.read_table(path, columns=["id", "verifier_passed"])
    return list(zip(table.column("id").to_pylist(), table.column("verifier_passed").to_pylist(), strict=True))


def through_the_cli(tmp_path) -> dict[str, list]:
    files = {name: tmp_path / "cli" / f"{name}.parquet" for name in CLI_STEPS}
    for name, (command, *args) in CLI_STEPS.items():
        args = [files["tasks"] if arg == "TASKS" else arg for arg in args]
        result = invoke("synth", command, *args, "-o", files[name], "--no-catalog")
        assert result.exit_code == 0, result.output
    return {
        "synth_tasks": records(files["tasks"]),
        "rollouts": records(files["oracle"]) + records(files["perturbed"]),
        "learner_rollouts": records(files["learner"]),
    }


def through_dagster(tmp_path, storage, assets, generation=None):
    (tmp_path / "dagster").mkdir()
    return materialize(
        assets,
        instance=DagsterInstance.local_temp(str(tmp_path / "dagster")),
        resources=build_resources(storage, generation),
        partition_key="retail",
        raise_on_error=False,
    )


def test_the_command_and_the_asset_write_the_same_records(data_home, tmp_path):
    storage = StorageResource()
    result = through_dagster(tmp_path, storage, build_synth_assets(SMALL))
    assert result.success, _error(result)
    keys = ("synth_tasks", "rollouts", "learner_rollouts")
    assets = {key: records(storage.asset_dir([key], "retail") / RECORDS_FILE) for key in keys}
    assert assets == through_the_cli(tmp_path)
    assert assets == {"synth_tasks": TASKS, "rollouts": ROLLOUTS, "learner_rollouts": LEARNER_ROLLOUTS}
    # and they carry the same lineage: the command's output options are not part of the tasks' config hash
    hashes = {tuple(json.loads(row)["config_hash"] for row in pq.read_table(path, columns=["lineage"])[0].to_pylist())
              for path in (storage.asset_dir(["synth_tasks"], "retail") / RECORDS_FILE, tmp_path / "cli" / "tasks.parquet")}  # fmt: skip
    assert len(hashes) == 1


def given_tasks(path):
    """A synth_tasks asset (retail) that holds the records of ``path``."""

    @asset(name="synth_tasks", io_manager_key="record_store", partitions_def=StaticPartitionsDefinition(["retail"]))
    def tasks(context) -> StoredRecords:
        target = asset_dir(StorageResource(), context) / RECORDS_FILE
        target.write_bytes(path.read_bytes())
        return StoredRecords(target)

    return tasks


def test_both_faces_quarantine_a_record_that_is_not_a_task(data_home, tmp_path):
    unverifiable = cancel_task().model_copy(update={"id": "no-constraints"}, deep=True)
    unverifiable.task.constraints = []
    tasks = tmp_path / "tasks.parquet"
    write_records([cancel_task(), unverifiable, balance_task()], tasks)
    output = tmp_path / "cli.parquet"
    result = invoke("synth", "rollouts", tasks, "--k", 1, "-o", output, "--no-catalog", "--json")
    assert result.exit_code == 0, result.output
    assert (last_json(result)["skipped"], last_json(result)["rollouts"]) == (1, 2)
    storage = StorageResource()
    pipeline = PipelineConfig(rollouts=RolloutsSection(runs=[RolloutConfig(agent="oracle", k=1)] * 2))
    result = through_dagster(tmp_path, storage, [given_tasks(tasks), build_synth_assets(pipeline)[1]])
    assert result.success, _error(result)
    folder = storage.asset_dir(["rollouts"], "retail")
    cli, pipeline_rows = (
        pq.read_table(path).to_pylist()
        for path in (output.with_name("cli.quarantine.parquet"), folder / "records.quarantine.parquet")
    )
    reason = "has neither constraints nor tests to verify a rollout against"
    # once, though both runs of the asset skip it; where it was read from, its position there, why
    assert [(row["source"], row["index"], row["error"]) for row in cli] == [(str(tasks), 1, reason)]
    given = storage.asset_dir(["synth_tasks"], "retail") / RECORDS_FILE
    assert [(row["source"], row["index"], row["error"]) for row in pipeline_rows] == [(str(given), 1, reason)]
    assert records(folder / RECORDS_FILE) == records(output) * 2


def test_both_faces_refuse_a_backend_that_cannot_serve_the_run(data_home, tmp_path):
    """An llm agent whose tool calls are JSON-schema output, on a backend without it: one line, before any model
    loads (the command exits 2 with it; the asset fails with it)."""
    message = "backend transformers has no JSON-schema output"
    tasks = tmp_path / "tasks.parquet"
    write_records([cancel_task()], tasks)
    flags = ("--agent", "llm", "--tool-calls", "schema", "--backend", "transformers")
    result = invoke("synth", "rollouts", tasks, *flags, "-o", tmp_path / "x.parquet")
    assert result.exit_code == 2 and message in result.stderr
    llm = RolloutsSection(runs=[RolloutConfig(agent="llm", tool_calls="schema", k=1)], model_tasks=1)
    rollouts = build_synth_assets(PipelineConfig(rollouts=llm))[1]
    storage = StorageResource()
    result = through_dagster(
        tmp_path, storage, [given_tasks(tasks), rollouts], GenerationResource(backend="transformers")
    )
    assert not result.success and message in _error(result)
