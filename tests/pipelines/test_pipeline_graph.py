"""The whole graph through Dagster: ingest of real fixtures -> synthesis -> curation -> publish, and a killed run resumed.

One small configuration (4 retail tasks, oracle and perturbed rollouts, no model) keeps it to about a
minute a run on two cores; the model-backed parts are covered by their own slow tests.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from dagster import AssetKey, DagsterEventType, DagsterInstance, RunsFilter

from data_catalog.catalog import Catalog
from data_catalog.dataset_card import FILE_IMAGE
from pipelines.catalog_names import JOB_ASSETS
from pipelines.definitions import JOBS, defs
from pipelines.main_job import run_pipeline
from pipelines.pipeline_config import PipelineConfig
from schemas.io import read_records
from tests.conftest import ADP_FIXTURES, ROOT, TAU_FIXTURES

pytestmark = pytest.mark.slow

SMALL = {
    "tasks": {"n": 4},
    "rollouts": {"model_tasks": 0},
    # The perturbed agent as the declared learner: no model to load, and its faults fail some rollouts, not all.
    "learner": {"agent": "perturbed", "k": 3},
    "select": {"budget": 6},
}
SOURCES = {
    "adp_std": {"format": "adp", "paths": [f"{ADP_FIXTURES}/agenttuning_os/sample_std.json"]},
    "tau_airline": {
        "format": "tau_bench",
        "paths": [f"{TAU_FIXTURES}/tau-bench/historical_trajectories/gpt-4o-airline.excerpt.json"],
    },
}
GRAPH = {
    "converted", "synth_tasks", "rollouts", "learner_rollouts", "verified", "scored", "deduplicated",
    "sft_set", "rl_set", "ace_report", "hub_folder", "verl_export",
}  # fmt: skip


def write_entries(directory: Path) -> Path:
    directory.mkdir(parents=True)
    for name, entry in SOURCES.items():
        (directory / f"{name}.yaml").write_text(json.dumps({"name": name, "license": "MIT", **entry}))
    return directory


def stage_ids(home: Path) -> dict[str, list[str]]:
    """Record ids per stage output, in file order."""
    ids = {}
    for stage in ("verified", "deduplicated", "sft_set", "rl_set"):
        table = pq.read_table(home / "assets" / stage / "all" / "records.parquet", columns=["id"])
        ids[stage] = table.column("id").to_pylist()
    return ids


@pytest.fixture(scope="module")
def pipeline_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("pipeline")
    entries = write_entries(root / "entries")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ACEFORGE_HOME", str(root / "home"))
        mp.setenv("DAGSTER_HOME", str(root / "dagster"))
        (root / "dagster").mkdir()
        said: list[str] = []
        sources, stages = run_pipeline(PipelineConfig.from_mapping(SMALL), entries, "CRITICAL", progress=said.append)
        yield root, entries, sources, {o.stage: o for o in stages}, Catalog(), said


def test_definitions_hold_the_whole_graph_its_jobs_and_blocking_checks():
    graph = defs.resolve_asset_graph()
    assert {key.to_user_string() for key in graph.get_all_asset_keys()} == GRAPH
    assert set(JOBS) == set(JOB_ASSETS) == {"ingest", "synthesize", "curate", "publish"}
    for name in JOBS:  # the main job's list of each job's assets is the job's own
        selected = defs.resolve_job_def(name).asset_layer.selected_asset_keys
        assert sorted(key.to_user_string() for key in selected) == sorted(JOB_ASSETS[name])
    blocking = {
        (c.asset_key.to_user_string(), c.name) for c in graph.asset_check_keys if graph.get_check_spec(c).blocking
    }
    assert blocking == {
        ("converted", "quarantine_rate"),
        ("verified", "schema_valid"),
        ("deduplicated", "duplicate_rate"),
        ("sft_set", "sft_set_verified"),
    }
    assert defs.resolve_assets_def("rollouts").partitions_def.get_partition_keys() == ["retail"]


def test_every_stage_materializes_and_counts_add_up(pipeline_run):
    root, _, sources, stages, catalog, _ = pipeline_run
    assert [(o.source, o.ok) for o in sources] == [("adp_std", True), ("tau_airline", True)]
    assert {name.split("[")[0] for name in stages} == GRAPH - {"converted"}
    assert all(o.ok for o in stages.values()), {n: o.error or o.checks for n, o in stages.items() if not o.ok}
    converted = sum(catalog.get(name).rows for name in SOURCES)
    tasks, rollouts = stages["synth_tasks[retail]"].rows, stages["rollouts[retail]"].rows
    assert tasks == 4 and rollouts == 4 * (1 + 2)  # oracle k=1, perturbed k=2; the llm agent gets no task here
    assert stages["learner_rollouts[retail]"].rows == 4 * 3
    assert stages["verified"].rows == converted + rollouts + tasks  # the learner's rollouts are evidence, not data
    assert stages["scored"].rows == stages["verified"].rows
    audit = pq.read_table(root / "home" / "assets" / "deduplicated" / "all" / "records.dedup.parquet")
    assert stages["deduplicated"].rows + audit.num_rows == stages["scored"].rows
    assert 0 < stages["sft_set"].rows <= 6 and stages["sft_set"].pass_rate == 1.0
    assert stages["rl_set"].rows > 0 and stages["rl_set"].note is None  # the perturbed learner's unequal rewards
    learner = PipelineConfig.from_mapping(SMALL).learner.policy_id()
    scored = {r.id: r.scores for r in read_records(root / "home" / "assets" / "scored" / "all" / "records.parquet")}
    rl = [scored[task.id] for task in read_records(root / "home" / "assets" / "rl_set" / "all" / "records.parquet")]
    assert all(s.learner == learner and s.extra["reward_spread"] > 0 for s in rl)
    learnability = [s.extra["learnability"] for s in rl]
    assert learnability == sorted(learnability, reverse=True)
    learner_runs = list(read_records(root / "home" / "assets" / "learner_rollouts" / "retail" / "records.parquet"))
    assert {r.lineage.config_hash for r in learner_runs} == {learner}
    for name in ("verified", "scored", "deduplicated", "sft_set", "rl_set", "synth_tasks__retail", "rollouts__retail"):
        assert catalog.get(name) is not None, name


# Each record asset's ids in file order, hashed: taken from main before synthesis and ingest were made Stages
# (pipelines/stages/), so that a refactor of the faces that changes which records a stage writes fails here.
IDS_BEFORE_STAGES = {
    "adp_std": "e873c8cfd61d7ab4",
    "tau_airline": "eb27bea55c80ed84",
    "synth_tasks/retail": "803d994ff7df6145",
    "rollouts/retail": "298e2ab587585dac",
    "learner_rollouts/retail": "dd03f427415c6ecf",
    "verified/all": "7fa3d13b68968178",
    "scored/all": "7fa3d13b68968178",
    "deduplicated/all": "e6c00aa4ed5e8b9f",
    "sft_set/all": "3a6e948f1bcafc7b",
    "rl_set/all": "00f227db02a1bbc5",
}


def ids_digest(path: Path) -> str:
    ids = pq.read_table(path, columns=["id"]).column("id").to_pylist()
    return hashlib.sha256("\n".join(ids).encode()).hexdigest()[:16]


def test_every_record_asset_holds_the_same_ids_as_before_the_stages(pipeline_run):
    root, _, _, _, catalog, _ = pipeline_run
    digests = {
        str(path.parent.relative_to(root / "home" / "assets")): ids_digest(path)
        for path in sorted((root / "home" / "assets").glob("*/*/records.parquet"))
    }
    digests |= {name: ids_digest(Path(catalog.get(name).path)) for name in SOURCES}
    assert digests == IDS_BEFORE_STAGES


def test_each_stage_says_when_it_starts_how_far_it_is_and_when_it_ends(pipeline_run):
    *_, said = pipeline_run
    for stage, progress in (
        ("synth_tasks[retail]", "4/4 tasks"),
        ("rollouts[retail]", "4/4 oracle rollouts"),
        ("rollouts[retail]", "8/8 perturbed rollouts"),
        ("learner_rollouts[retail]", "12/12 rollouts"),  # 4 tasks, k=3
    ):
        started = said.index(f"{stage}: started")
        done = next(i for i, line in enumerate(said) if line.startswith(f"{stage}: done: "))
        assert started < next(i for i, s in enumerate(said) if s.startswith(f"{stage}: {progress}, ")) < done
    for stage in ("verified", "scored", "deduplicated", "ace_report", "hub_folder", "verl_export"):
        assert said.index(f"{stage}: started") < next(i for i, s in enumerate(said) if s.startswith(f"{stage}: done"))
    learned = next(i for i, s in enumerate(said) if s.startswith("learner_rollouts[retail]: 12/12 rollouts, "))
    assert said.index("curate: verified, scored, deduplicated, sft_set, rl_set, ace_report ...") > learned


def test_metadata_a_person_reads_in_the_ui(pipeline_run):
    root, *_ = pipeline_run
    with DagsterInstance.from_config(str(root / "dagster")) as instance:
        event = instance.get_latest_materialization_event(AssetKey("scored"))
        meta = event.asset_materialization.metadata
        assert meta["preview"].value.startswith("| id | environment | task | steps | verdict |")
        assert meta["dagster/row_count"].value > 0 and "stage/accuracy_levels" in meta
        columns = {c.name: c.type for c in meta["dagster/column_schema"].value.columns}  # the asset page's columns
        assert list(columns)[:3] == ["id", "schema_version", "env_kind"] and columns["verifier_passed"] == "bool"
        assert columns["trajectory"].startswith("list<struct<class_, content, source")
        [converted] = instance.fetch_materializations(AssetKey("converted"), limit=1).records
        source_columns = converted.asset_materialization.metadata["dagster/column_schema"].value.columns
        assert [c.name for c in source_columns] == list(columns)
        report = instance.get_latest_materialization_event(AssetKey("ace_report")).asset_materialization.metadata
        assert report["plots"].value.count("data:image/png;base64,") == 6
        assert "- dedup: audit of " in report["summary"].value and "- select: SFT " in report["summary"].value
        hub = instance.get_latest_materialization_event(AssetKey("hub_folder")).asset_materialization.metadata
        assert "configs:" in hub["card"].value
    # The UI has no folder to resolve a relative image against: the summary and the card name their plots instead
    # (the plots entry shows them), where summary.md and the Hub card show them from their folders.
    for markdown in (report["summary"].value, hub["card"].value):
        assert not FILE_IMAGE.search(markdown) and "*plot complexity (`" in markdown
    folder = Path(report["folder"].value)
    assert len(FILE_IMAGE.findall((folder / "summary.md").read_text())) == 6
    assert all((folder / m[2]).is_file() for m in FILE_IMAGE.finditer((folder / "summary.md").read_text()))
    card_folder = Path(hub["folder"].value)
    shown = [m[2] for m in FILE_IMAGE.finditer((card_folder / "README.md").read_text())]
    assert len(shown) == 6 and all((card_folder / link).is_file() for link in shown)


def test_the_hub_folder_loads_with_datasets(pipeline_run):
    root, _, _, stages, *_ = pipeline_run
    import datasets

    folder = root / "home" / "assets" / "hub_folder" / "all" / "folder"
    loaded = datasets.load_dataset(str(folder), name="trajectories", cache_dir=str(root / "hf-cache"))
    assert loaded["train"].num_rows == stages["sft_set"].rows
    verl = pq.read_table(root / "home" / "assets" / "verl_export" / "all" / "train.parquet")
    assert verl.num_rows == stages["rl_set"].rows and "reward_model" in verl.column_names


def test_verls_reward_tools_and_user_run_on_the_published_verl_rows(pipeline_run):
    import asyncio
    import importlib.util

    import yaml

    from training.verl_reward import AceforgeTool, AceforgeUser

    root, *_ = pipeline_run
    folder = root / "home" / "assets" / "verl_export" / "all"
    spec = importlib.util.spec_from_file_location("reward", folder / "reward.py")  # as verl loads it
    reward = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reward)
    schemas = {
        t["tool_schema"]["function"]["name"]: t
        for t in yaml.safe_load((folder / "tool_config.yaml").read_text())["tools"]
    }
    [interaction] = yaml.safe_load((folder / "interaction_config.yaml").read_text())["interaction"]
    rows = pq.read_table(folder / "train.parquet").to_pylist()

    async def episode(extra):
        user = AceforgeUser(interaction["config"])
        talk = await user.start_interaction(**extra["interaction_kwargs"])
        answers = []
        for name, kwargs in extra["tools_kwargs"].items():
            if kwargs is None:  # Parquet gives every row the struct field of every tool of the set
                continue
            tool = AceforgeTool(schemas[name]["config"], schemas[name]["tool_schema"])
            instance = await tool.create(create_kwargs=kwargs["create_kwargs"])
            answers.append(tool.worlds[instance] is not None)
            await tool.release(instance)
        await user.finalize_interaction(talk)
        return answers

    for row in rows:
        assert all(asyncio.run(episode(row["extra_info"])))  # each tool of the task builds its world
        idle = reward.compute_score(row["data_source"], "", row["reward_model"]["ground_truth"], row["extra_info"])
        assert 0.0 <= idle < 1.0  # doing nothing does not solve a task of the RL set


def test_a_killed_run_started_again_ends_with_the_same_outputs(pipeline_run, tmp_path):
    root, entries, *_ = pipeline_run
    config = tmp_path / "small.yaml"
    config.write_text(json.dumps(SMALL))
    home = tmp_path / "home"
    env = {**os.environ, "ACEFORGE_HOME": str(home), "ACEFORGE_ENTRIES": str(entries)}
    env.pop("DAGSTER_HOME", None)
    command = [sys.executable, "-m", "pipelines.cli.main", "run", "--config", str(config)]
    first = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)  # fmt: skip
    rollouts = home / "assets" / "rollouts" / "retail" / "records.parquet"
    deadline = time.monotonic() + 600
    while not rollouts.exists() and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.5)
    os.killpg(first.pid, signal.SIGKILL)  # midway: synthesis done, curation not (yet) finished
    first.wait()
    assert rollouts.exists()
    # Started again with Dagster's multiprocess executor: the same jobs, each step in a process of its own.
    again = subprocess.run([*command, "--workers", "2"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "DEBUG" not in again.stderr  # Dagster's engine events stay quiet in the step processes too
    assert stage_ids(home) == stage_ids(root / "home")  # same records, same order, as a run never killed
    for stage, ids in stage_ids(home).items():
        assert len(ids) == len(set(ids)), stage
    versions = [(e.name, e.version) for e in Catalog(home / "catalog.duckdb").list_datasets()]
    assert all(version == 1 for _, version in versions), versions  # nothing registered twice
    with DagsterInstance.from_config(str(home / "dagster")) as instance:
        [curate] = instance.get_runs(RunsFilter(job_name="curate"), limit=1)  # the newest: the killed run's may exist
        started = instance.all_logs(curate.run_id, of_type=DagsterEventType.STEP_START)
        [run_start] = instance.all_logs(curate.run_id, of_type=DagsterEventType.RUN_START)
    pids = {entry.dagster_event.pid for entry in started}
    assert len(pids) == len(started) == 5 and run_start.dagster_event.pid not in pids
