"""The curate job reads what the graph's lineage shows: the materialization of ``converted`` Dagster recorded for
each source, not whatever the catalog registered last under the source's name (by ``aceforge convert``, another
run, an older partition after a failed ingest).

A small configuration (3 retail tasks, oracle and perturbed rollouts, no model) keeps it to seconds.
"""

from __future__ import annotations

import json
import os

import pyarrow.parquet as pq
from dagster import AssetSelection, DagsterInstance, materialize

from data_catalog.catalog import Catalog
from pipelines.assets.resources import StorageResource
from pipelines.definitions import build_assets, build_resources, defs
from pipelines.main_job import _error, pipeline_run_config, run_ingest
from pipelines.pipeline_config import PipelineConfig
from runtime.settings import data_home as settings_home
from runtime.settings import data_home_scope
from tests.conftest import ADP_FIXTURES
from tests.pipelines.cli_helpers import OS_STD, invoke

SMALL = PipelineConfig.from_mapping(  # as the CLI reads a config: sections over their defaults
    {"tasks": {"n": 3}, "rollouts": {"model_tasks": 0}, "learner": {"agent": "perturbed", "k": 2}}
)
NEWER = ADP_FIXTURES / "agenttuning_alfworld" / "sample_std.json"  # other records of the same format


def write_entry(entries, name, path):
    (entries / f"{name}.yaml").write_text(
        json.dumps({"name": name, "format": "adp", "license": "MIT", "paths": [str(path)]})
    )


def materialize_stages(instance, entries, keys, partition=None, storage=None):
    return materialize(
        build_assets(entries, SMALL),
        selection=AssetSelection.assets(*keys),
        instance=instance,
        partition_key=partition,
        resources=build_resources(storage),
        run_config=pipeline_run_config(SMALL, keys, "CRITICAL"),
        raise_on_error=False,
    )


def ids(path) -> list[str]:
    return pq.read_table(path, columns=["id"]).column("id").to_pylist()


def test_verified_reads_the_recorded_materialization_not_the_catalogs_newest(data_home, tmp_path, monkeypatch):
    entries = tmp_path / "entries"
    entries.mkdir()
    write_entry(entries, "adp_std", OS_STD)
    monkeypatch.setenv("ACEFORGE_ENTRIES", str(entries))
    instance = DagsterInstance.ephemeral()
    [source] = run_ingest(instance, entries, log_level="CRITICAL")
    recorded = Catalog().get("adp_std")
    assert source.ok and source.metadata["catalog_dataset"] == f"adp_std@{recorded.version}"

    # A newer version of the source, converted outside Dagster: the CLI registers it as cli_adp_std ...
    newer = tmp_path / "adp_std.parquet"
    converted = invoke("convert", NEWER, "-f", "adp", "-o", newer)
    assert converted.exit_code == 0 and "registered as cli_adp_std (version 1)" in converted.stderr
    # ... and a later registration under the source's own name (another run's, an older partition's) makes it the
    # catalog's newest adp_std: what `SELECT ... FROM adp_std` reads, but not what Dagster recorded.
    assert Catalog().register_dataset("adp_std", newer, len(ids(newer))).version == recorded.version + 1
    assert set(ids(newer)).isdisjoint(ids(recorded.data_path))

    synth = materialize_stages(instance, entries, ("synth_tasks", "rollouts"), "retail")
    assert synth.success, _error(synth)
    curate = materialize_stages(instance, entries, ("verified",))
    assert curate.success, _error(curate)
    verified = ids(data_home / "assets" / "verified" / "all" / "records.parquet")
    assert set(ids(recorded.data_path)) <= set(verified) and set(ids(newer)).isdisjoint(verified)
    tasks, rollouts = (
        data_home / "assets" / name / "retail" / "records.parquet" for name in ("synth_tasks", "rollouts")
    )
    assert len(verified) == source.metadata["converted"] + len(ids(tasks)) + len(ids(rollouts))

    # A source the graph knows but Dagster never materialized: the curate job names it instead of skipping it.
    write_entry(entries, "adp_alfworld", NEWER)
    failed = materialize_stages(instance, entries, ("verified",))
    assert not failed.success
    assert "asset converted[adp_alfworld] has not been materialized" in _error(failed)


def test_every_upstream_asset_is_an_input_the_io_managers_load():
    """No deps-only edge: what an asset reads of another comes through an input, so the lineage shows every read."""
    graph = defs.resolve_asset_graph()
    for key in graph.get_all_asset_keys():
        assets_def = defs.resolve_assets_def(key)
        loaded = {
            assets_def.keys_by_input_name[i.name]
            for i in assets_def.node_def.input_defs
            if i.dagster_type.display_name != "Nothing"
        }
        assert loaded == set(graph.get(key).parent_keys), key.to_user_string()


def test_a_run_with_its_own_data_directory_leaves_the_environment_alone(data_home, tmp_path, monkeypatch):
    """The storage resource's data directory holds all the run writes; $ACEFORGE_HOME is neither used nor changed."""
    entries = tmp_path / "entries"
    entries.mkdir()
    write_entry(entries, "adp_std", OS_STD)
    monkeypatch.setenv("ACEFORGE_ENTRIES", str(entries))
    own, instance = tmp_path / "own-home", DagsterInstance.ephemeral()
    storage = StorageResource(home=str(own))
    for keys, partition in (
        (("converted",), "adp_std"),
        (("synth_tasks", "rollouts"), "retail"),
        (("verified",), None),
    ):
        result = materialize_stages(instance, entries, keys, partition, storage)
        assert result.success, _error(result)
        assert os.environ["ACEFORGE_HOME"] == str(data_home)
    assert not data_home.exists()
    assert Catalog(own / "catalog.duckdb").get("adp_std").rows == 5
    assert [p.parent.parent.name for p in (own / "datasets").glob("*/*/records.parquet")] == ["adp_std"]
    assert len(ids(own / "assets" / "verified" / "all" / "records.parquet")) > 5


def test_the_data_home_scope_is_the_enclosing_codes_only(data_home, tmp_path):
    with data_home_scope(tmp_path / "scoped"):
        assert settings_home() == tmp_path / "scoped" and os.environ["ACEFORGE_HOME"] == str(data_home)
    assert settings_home() == data_home
