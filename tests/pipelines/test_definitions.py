"""The Dagster ingest assets: definitions load, partitions follow the catalog entries, and
materializing every partition on the real fixtures writes Parquet, registers it and reports counts."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from dagster import AssetKey, DagsterInstance, materialize

from data_catalog.catalog import Catalog
from data_catalog.entries import PACKAGE_DIR, load_entries
from pipelines.definitions import build_definitions
from pipelines.main_job import run_ingest
from pipelines.stages.ingest import IngestConfig
from runtime.ports import free_port
from tests.conftest import ADP_FIXTURES, FIXTURES, ROOT, TAU_FIXTURES

DAGSTER = Path(sys.executable).with_name("dagster")
DEFINITIONS = ROOT / "pipelines" / "definitions.py"

QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}

# name -> (format, input path(s), options): one source per format, on the real samples.
SOURCES = {
    "adp_std": ("adp", [f"{ADP_FIXTURES}/*/sample_std.json"], {}),
    "alfworld": ("sharegpt", [f"{ADP_FIXTURES}/agenttuning_alfworld/sample_raw.json"], {"dialect": "react"}),
    "code_feedback": ("sharegpt", [f"{ADP_FIXTURES}/code_feedback/sample_raw.json"], {"dialect": "markdown"}),
    "codeact": ("sharegpt", [f"{ADP_FIXTURES}/codeactinstruct/sample_raw.json"], {"dialect": "codeact"}),
    "mini_coder": ("mini_swe_agent", [f"{ADP_FIXTURES}/mini-coder/sample_raw.json"], {}),
    "nebius_swe": ("swe_agent", [f"{ADP_FIXTURES}/nebius_SWE-agent-trajectories/sample_raw.json"], {}),
    "nnetnav": ("web_steps", [f"{ADP_FIXTURES}/nnetnav-live/sample_raw.json"], {}),
    "synatra": ("synatra", [f"{ADP_FIXTURES}/synatra/sample_raw.json"], {}),
    "tau_airline": ("tau_bench", [f"{TAU_FIXTURES}/tau-bench/historical_trajectories/gpt-4o-airline.excerpt.json"], {}),
    "tau2_runs": (
        "tau2_results",
        [f"{TAU_FIXTURES}/tau2-bench/feature-gym/results/gpt-4.1_airline_default_gpt-4.1_1trials.json"],
        {},
    ),
    "tau2_tasks": ("tau2_tasks", [f"{TAU_FIXTURES}/tau2-bench/v0.2.0/domains/airline/tasks.json"], {}),
}


def raw_count(paths: list[str]) -> int:
    """Raw items in the inputs, counted straight from the JSON."""
    total = 0
    for pattern in paths:
        for path in sorted(FIXTURES.glob(pattern.replace(f"{FIXTURES}/", ""))):
            data = json.loads(path.read_text())
            total += len(data["simulations"]) if isinstance(data, dict) else len(data)
    return total


def write_entries(directory):
    directory.mkdir()
    for name, (fmt, paths, options) in SOURCES.items():
        entry = {"name": name, "format": fmt, "paths": paths, "license": "see PROVENANCE.md", "options": options}
        (directory / f"{name}.yaml").write_text(json.dumps(entry))  # JSON is YAML
    return directory


@pytest.fixture(scope="module")
def materialized(tmp_path_factory):
    """Every fixture partition materialized once into a fresh data directory."""
    root = tmp_path_factory.mktemp("ingest")
    entries = write_entries(root / "entries")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ACEFORGE_HOME", str(root / "home"))
        converted = build_definitions(entries).resolve_assets_def("converted")
        instance = DagsterInstance.ephemeral()
        results = {
            key: materialize([converted], instance=instance, partition_key=key, run_config=QUIET)
            for key in converted.partitions_def.get_partition_keys()
        }
        catalog_rows = {e.name: e.rows for e in Catalog().list_datasets()}
        yield results, catalog_rows, instance


def metadata(result) -> dict:
    (materialization,) = result.asset_materializations_for_node("converted")
    return {key: getattr(value, "value", value) for key, value in materialization.metadata.items()}


def test_project_definitions_load_with_one_partition_per_demo_entry():
    from pipelines.definitions import defs

    converted = defs.resolve_assets_def("converted")
    assert converted.partitions_def.get_partition_keys() == [e.name for e in load_entries(PACKAGE_DIR)]
    (spec,) = converted.check_specs
    assert (spec.name, spec.blocking, spec.asset_key) == ("quarantine_rate", True, AssetKey("converted"))
    assert converted.group_names_by_key[AssetKey("converted")] == "ingest"


def test_every_fixture_partition_materializes_with_counts_and_catalog_rows(materialized):
    results, catalog_rows, _ = materialized
    assert sorted(results) == sorted(SOURCES)
    for name, result in results.items():
        meta = metadata(result)
        assert result.success, name
        assert meta["raw_items"] == raw_count(SOURCES[name][1]), name
        assert meta["read"] == meta["converted"] + meta["quarantined"], name
        assert meta["quarantined"] == 0 and meta["converted"] > 0, (name, meta["top_errors"])
        assert meta["dagster/row_count"] == meta["converted"] == catalog_rows[name]
        assert pq.ParquetFile(meta["output"]).metadata.num_rows == meta["converted"]
        assert catalog_rows[f"{name}_quarantine"] == 0
        assert meta["catalog_dataset"] == f"{name}@1" and meta["format"] == SOURCES[name][0]
        assert [e.passed for e in result.get_asset_check_evaluations()] == [True]


def test_grouping_format_reads_one_record_per_trajectory(materialized):
    results, _, _ = materialized
    rows = json.loads((ADP_FIXTURES / "nnetnav-live" / "sample_raw.json").read_text())
    meta = metadata(results["nnetnav"])
    assert (meta["raw_items"], meta["read"]) == (len(rows), len({r["id"] for r in rows}))


def test_materializations_are_recorded_per_partition_in_the_instance(materialized):
    _, _, instance = materialized
    status = instance.get_latest_materialization_event(AssetKey("converted"))
    assert status is not None
    keys = instance.get_materialized_partitions(AssetKey("converted"))
    assert keys == set(SOURCES)


def test_quarantine_check_fails_over_the_threshold_and_blocks(data_home, tmp_path):
    """The demo ADP source quarantines 2 of 12 records: fine at 0.25, a failed blocking check at 0.1."""
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "demo.yaml").write_text((PACKAGE_DIR / "demo_bookstore_adp.yaml").read_text())
    converted = build_definitions(entries).resolve_assets_def("converted")
    instance = DagsterInstance.ephemeral()
    strict = {**QUIET, "ops": {"converted": {"config": {"max_quarantine_rate": 0.1}}}}
    result = materialize(
        [converted], instance=instance, partition_key="demo_bookstore_adp", run_config=strict, raise_on_error=False
    )
    (evaluation,) = result.get_asset_check_evaluations()
    assert not evaluation.passed and not result.success
    assert evaluation.metadata["quarantine_rate"].value == pytest.approx(2 / 12)
    assert metadata(result)["quarantined"] == 2  # the data were still written and registered
    assert Catalog().get("demo_bookstore_adp_quarantine").rows == 2
    outcomes = run_ingest(instance, entries, IngestConfig(max_quarantine_rate=0.25), log_level="CRITICAL")
    assert [(o.source, o.ok, o.check_passed) for o in outcomes] == [("demo_bookstore_adp", True, True)]


def test_missing_input_fails_the_partition_with_its_reason(data_home, tmp_path):
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "gone.yaml").write_text("name: gone\nformat: adp\npaths: [nowhere/*.json]\nlicense: MIT\n")
    (outcome,) = run_ingest(DagsterInstance.ephemeral(), entries, log_level="CRITICAL")
    assert not outcome.ok and outcome.metadata == {}
    assert "source 'gone': no input matches" in outcome.error


def dagster_env(data_home) -> dict:
    (data_home / "dagster").mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "ACEFORGE_ENTRIES"}
    return {**env, "ACEFORGE_HOME": str(data_home), "DAGSTER_HOME": str(data_home / "dagster")}


def test_dagster_cli_materializes_a_partition(data_home):
    command = [
        str(DAGSTER),
        "asset",
        "materialize",
        "-f",
        str(DEFINITIONS),
        "--select",
        "converted",
        "--partition",
        "demo_bookstore_qa",
    ]
    done = subprocess.run(command, env=dagster_env(data_home), capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "RUN_SUCCESS" in done.stderr
    assert Catalog().get("demo_bookstore_qa").rows == 16
    with DagsterInstance.from_config(str(data_home / "dagster")) as instance:
        assert instance.get_materialized_partitions(AssetKey("converted")) == {"demo_bookstore_qa"}


def graphql(port: int, query: str) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql",
        data=json.dumps({"query": query}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["data"]


@pytest.mark.slow
def test_dagster_dev_serves_the_partitioned_asset_and_its_check(data_home):
    port = free_port()
    server = subprocess.Popen(
        [str(DAGSTER), "dev", "-f", str(DEFINITIONS), "-p", str(port), "-h", "127.0.0.1"],
        env=dagster_env(data_home),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        # dagster dev stops on SIGTERM only if SIGINT is not ignored (it maps one to the other), and a test
        # run started in the background of a script inherits SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 240
        while True:
            try:
                nodes = graphql(port, "{ assetNodes { assetKey { path } partitionKeys hasAssetChecks } }")["assetNodes"]
                break
            except (OSError, KeyError, TypeError):
                assert server.poll() is None and time.monotonic() < deadline, "dagster dev did not come up"
                time.sleep(1)
        by_key = {"/".join(n["assetKey"]["path"]): n for n in nodes}
        assert sorted(by_key) == sorted(
            "/".join(key.path) for key in build_definitions().resolve_asset_graph().get_all_asset_keys()
        )
        assert by_key["converted"] == {
            "assetKey": {"path": ["converted"]},
            "partitionKeys": [e.name for e in load_entries(PACKAGE_DIR)],
            "hasAssetChecks": True,
        }
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        finally:
            # Its code servers exit on their own heartbeat timeout; don't leave them waiting.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGKILL)
