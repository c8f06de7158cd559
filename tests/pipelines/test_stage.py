"""One stage, two faces: each ``Stage`` (pipelines/stages/) made into its ``aceforge`` command and its Dagster asset.
The curation and ingest stages' two take the same configuration; run on the same records (ingest's: the same raw
source), every stage's two keep the same records (verify's: with the same verdicts)."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest
import typer
from dagster import DagsterInstance, asset, materialize
from dagster._core.system_config.objects import ResolvedRunConfig

from curation.config import ReportConfig
from data_catalog.catalog import Catalog
from data_catalog.entries import PACKAGE_DIR
from pipelines.assets.curate import stage_asset
from pipelines.assets.record_store import StoredRecords, asset_dir
from pipelines.assets.resources import StorageResource
from pipelines.catalog_names import JOB_ASSETS
from pipelines.cli.app import app
from pipelines.cli.curation import DedupCommand, ScoreCommand, SelectCommand
from pipelines.cli.ingest import ConvertCommand
from pipelines.definitions import build_definitions, build_resources, defs
from pipelines.main_job import _error
from pipelines.pipeline_config import PipelineConfig
from pipelines.stages import RECORDS_FILE
from pipelines.stages.curation import CURATION
from pipelines.stages.ingest import INGEST
from pipelines.stages.verify import VERIFY
from schemas.io import read_records, write_records
from tests.curation.helpers import chat_record, rollout_of, task_record, trajectory_record
from tests.pipelines.cli_helpers import invoke, last_json
from tests.pipelines.verify_records import inputs as records_to_verify

COMMAND_CONFIG = {
    "score": ScoreCommand,
    "dedup": DedupCommand,
    "select": SelectCommand,
    "report": ReportConfig,
    "convert": ConvertCommand,
}
BUDGET = 2


@pytest.mark.parametrize("stage", [INGEST, *CURATION], ids=lambda stage: stage.name)
def test_the_command_and_the_asset_take_the_same_fields_with_the_same_defaults(stage):
    command = typer.main.get_command(app).commands[stage.name]
    flags = {param.name.split("__")[0] for param in command.params}
    job = next(job for job, keys in JOB_ASSETS.items() if stage.outputs[0].asset in keys)
    launchpad = ResolvedRunConfig.build(defs.resolve_job_def(job), {}).ops[stage.op].config
    fields = set(stage.config.model_fields)
    assert fields <= flags and set(launchpad) == fields
    # What the command runs on without flags (the pipeline gives select its budget, which the command requires).
    required = {name: launchpad[name] for name, field in stage.config.model_fields.items() if field.is_required()}
    assert COMMAND_CONFIG[stage.name].load(None, **required).model_dump(mode="json", include=fields) == launchpad


def given_records(tmp_path):
    """Three verified cancellations (one repeated, one of another order), two chats and two tasks; the learner ("smol") solves task-1 once in
    two tries (its frontier, an RL task) and task-2 every time."""
    tasks = [task_record("task-1"), task_record("task-2", order_id="W7")]
    records = [
        trajectory_record("cancel-w1", "W1"),
        trajectory_record("cancel-w1-again", "W1"),
        trajectory_record("cancel-w3", "W3", reason="ordered twice"),
        chat_record("chat-oslo", "Will it rain in Oslo?", "Probably, it is Oslo."),
        chat_record("chat-moon", "How far is the Moon?", "About 384,400 km."),
        *tasks,
    ]
    learner = [rollout_of(tasks[0], 0, True, "smol"), rollout_of(tasks[0], 1, False, "smol")]
    learner += [rollout_of(tasks[1], 0, True, "smol"), rollout_of(tasks[1], 1, True, "smol")]
    write_records(records, tmp_path / "verified.parquet")
    write_records(learner, tmp_path / "learner.parquet")
    return tmp_path / "verified.parquet", tmp_path / "learner.parquet"


def ids(path) -> list[str]:
    return pq.read_table(path, columns=["id"]).column("id").to_pylist()


def through_the_cli(tmp_path, verified, learner) -> dict[str, list[str]]:
    out = tmp_path / "cli"
    steps = [
        ("score", verified, "-o", out / "scored.parquet", "--rollouts", learner),
        ("dedup", out / "scored.parquet", "-o", out / "deduped.parquet"),
        ("select", out / "deduped.parquet", "--out-dir", out / "sets", "--budget", BUDGET),
        ("report", out / "scored.parquet", "--selection", out / "sets", "-o", out / "report"),
        ("report", out / "sets", "-o", out / "report-of-the-selection"),
    ]
    for step in steps:
        result = invoke(*step)
        assert result.exit_code == 0, result.output
    sets = out / "sets"
    files = {"scored": out / "scored.parquet", "deduplicated": out / "deduped.parquet"}
    return {
        name: ids(path)
        for name, path in {**files, "sft_set": sets / "sft.parquet", "rl_set": sets / "rl.parquet"}.items()
    }


def materialized(tmp_path, given: dict[str, object], stages, run_config=None) -> tuple[StorageResource, dict]:
    """``stages``' assets materialized on the ``given`` assets (asset key -> a records file): their storage, and
    whether each of their checks passed."""
    storage = StorageResource()
    (tmp_path / "dagster").mkdir()

    def given_asset(name, path):
        @asset(name=name, io_manager_key="record_store")
        def records(context) -> StoredRecords:
            target = asset_dir(storage, context) / RECORDS_FILE
            target.write_bytes(path.read_bytes())
            return StoredRecords(target)

        return records

    result = materialize(
        [
            *(given_asset(name, path) for name, path in given.items()),
            *(stage_asset(s, PipelineConfig()) for s in stages),
        ],
        instance=DagsterInstance.local_temp(str(tmp_path / "dagster")),
        resources=build_resources(storage),
        run_config=run_config or {},
        raise_on_error=False,
    )
    assert result.success, _error(result)
    return storage, {check.check_name: check.passed for check in result.get_asset_check_evaluations()}


def through_dagster(tmp_path, verified, learner) -> dict[str, list[str]]:
    given = {"verified": verified, "learner_rollouts": learner}
    storage, checks = materialized(tmp_path, given, CURATION, {"ops": {"selected": {"config": {"budget": BUDGET}}}})
    assert checks == {"duplicate_rate": True, "sft_set_verified": True}
    keys = ("scored", "deduplicated", "sft_set", "rl_set")
    return {key: ids(storage.asset_dir([key], None) / RECORDS_FILE) for key in keys}


def test_the_command_and_the_asset_keep_the_same_records(data_home, tmp_path):
    verified, learner = given_records(tmp_path)
    cli = through_the_cli(tmp_path, verified, learner)
    assert cli == through_dagster(tmp_path, verified, learner)
    # Each stage changed what it kept: dedup removed the repeat and the same cancellation of another order, select
    # took the one verified success and the learner's frontier task.
    assert cli["deduplicated"] == ["cancel-w1", "chat-oslo", "chat-moon", "task-1", "task-2"]
    assert (cli["sft_set"], cli["rl_set"]) == (["cancel-w1"], ["task-1"])
    # The report: the same plots and summary, of every scored record with the dedup and selection counts. Given
    # the `select` folder alone the command reports the selection's input instead: the deduplicated records.
    asset_report, cli_report = data_home / "assets" / "ace_report" / "all", tmp_path / "cli" / "report"
    assert (cli_report / "summary.md").read_text() == (asset_report / "summary.md").read_text()
    of_the_selection = tmp_path / "cli" / "report-of-the-selection"
    for folder in (asset_report, cli_report, of_the_selection):
        assert sorted(png.name for png in folder.glob("*.png")) == [f"{name}.png" for name in PLOTS]
        assert summary_lines(folder) == ["- dedup: audit of 2 removed records", "- select: SFT 1, RL 1"]
    assert records_line(cli_report) == "- records: 7 (2 tasks, 5 trajectories)"
    assert records_line(of_the_selection) == "- records: 5 (2 tasks, 3 trajectories)"


PLOTS = ("complexity", "dedup", "difficulty", "embedding_map", "pass_rate", "rejects")


def records_line(folder) -> str:
    return next(line for line in (folder / "summary.md").read_text().splitlines() if line.startswith("- records:"))


def summary_lines(folder) -> list[str]:
    lines = (folder / "summary.md").read_text().splitlines()
    return [line for line in lines if line.startswith(("- dedup:", "- select:"))]


def verdicts(path) -> dict[str, tuple[bool | None, str | None]]:
    return {r.id: (r.verifier.result and r.verifier.result.passed, r.verifier.version) for r in read_records(path)}


def test_verify_and_the_verified_asset_give_the_same_verdicts(data_home, tmp_path):
    """The command verifies one file; the asset the sources and the rollouts (the same records, split in two) and
    passes the synthesized tasks through after them."""
    records = records_to_verify()
    files = {name: tmp_path / f"{name}.parquet" for name in ("all", "converted", "rollouts", "synth_tasks")}
    write_records(records, files["all"])
    write_records(records[:2], files["converted"])
    write_records(records[2:], files["rollouts"])
    write_records([task_record("task-1")], files["synth_tasks"])
    result = invoke("verify", files["all"], "-o", tmp_path / "cli-verified.parquet")
    assert result.exit_code == 0, result.output
    cli = verdicts(tmp_path / "cli-verified.parquet")
    given = {name: path for name, path in files.items() if name != "all"}
    storage, checks = materialized(tmp_path, given, [VERIFY])
    assert checks == {"schema_valid": True}
    asset = verdicts(storage.asset_dir(["verified"], None) / RECORDS_FILE)
    assert list(asset) == [*(record.id for record in records), "task-1"]
    assert asset == {**cli, **verdicts(files["synth_tasks"])}  # the task as it was given
    # The chain changed three stored verdicts and left the record it has no check for as stored.
    assert {rid: passed for rid, (passed, _) in cli.items()} == {
        "right-but-stored-failed": True,
        "right-and-stored-passed": True,
        "never-verified": False,
        "not-verifiable": True,
        "retail-cancel": False,
    }


# The demo ADP source's records, as aceforge run's ingest writes its raw file: ten convert, two lines are quarantined.
DEMO_ADP = "demo_bookstore_adp"
DEMO_ADP_IDS = [
    "demo_bookstore_adp-b996251243dfb20c6e452642",
    "demo_bookstore_adp-c4e1912eb657da1c5a71739f",
    "demo_bookstore_adp-cfa3aa49df3be63eee3da46d",
    "demo_bookstore_adp-f5ca0a476ecef3fef327bd52",
    "demo_bookstore_adp-768d0bdea223576630e1b531",
    "demo_bookstore_adp-3ef5f5e8435b54a9cf532f7e",
    "demo_bookstore_adp-d3c454107bd99a395bb80803",
    "demo_bookstore_adp-bbda57fbaf9f813f073d3f24",
    "demo_bookstore_adp-90eebb5800c8d00df184d972",
    "demo_bookstore_adp-1f59a8389e53359885e1cf6a",
]


def test_convert_and_the_converted_asset_keep_the_same_records(data_home, tmp_path):
    """One catalog source converted by its partition of the asset (which writes the demo source's raw file, as
    ``aceforge run`` does) and by the command given the same file, dataset name and licence: the same records, the
    same rows quarantined, and the same conversion in the catalog (one config hash)."""
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / f"{DEMO_ADP}.yaml").write_text((PACKAGE_DIR / f"{DEMO_ADP}.yaml").read_text())
    converted = build_definitions(entries).resolve_assets_def("converted")
    (tmp_path / "dagster").mkdir()
    result = materialize(
        [converted],
        instance=DagsterInstance.local_temp(str(tmp_path / "dagster")),
        partition_key=DEMO_ADP,
        raise_on_error=False,
    )
    assert result.success, _error(result)
    assert [(check.check_name, check.passed) for check in result.get_asset_check_evaluations()] == [
        ("quarantine_rate", True)
    ]
    (materialization,) = result.asset_materializations_for_node("converted")
    asset = {key: getattr(value, "value", value) for key, value in materialization.metadata.items()}
    raw = data_home / "demo" / "raw" / "bookstore_adp.jsonl"
    cli = tmp_path / "cli.parquet"
    ran = invoke("convert", "-f", "adp", raw, "-o", cli, "--dataset", DEMO_ADP, "--license", "CC0-1.0", "--json")
    assert ran.exit_code == 0, ran.output
    counts = ("read", "raw_items", "converted", "quarantined")
    assert {key: asset[key] for key in counts} == {key: last_json(ran)[key] for key in counts}
    assert {key: asset[key] for key in counts} == {"read": 12, "raw_items": 12, "converted": 10, "quarantined": 2}
    assert ids(cli) == ids(asset["output"]) == DEMO_ADP_IDS
    quarantined = [
        pq.read_table(path, columns=["index", "error"]).to_pylist()
        for path in (cli.with_name("cli.quarantine.parquet"), asset["quarantine"])
    ]
    assert quarantined[0] == quarantined[1] and [row["index"] for row in quarantined[0]] == [3, 4]
    # The command registers under cli_<name> (the pipeline owns the source's name), by the same conversion.
    catalog = Catalog()
    assert catalog.get(f"cli_{DEMO_ADP}").config_hash == catalog.get(DEMO_ADP).config_hash
