"""Ad-hoc CLI outputs never take a pipeline dataset's catalog name."""

from __future__ import annotations

import json

from data_catalog.catalog import Catalog
from pipelines.catalog_names import PIPELINE_ASSETS, adhoc_name, is_pipeline_name
from pipelines.definitions import build_definitions
from tests.pipelines.cli_helpers import OS_STD, invoke


def test_the_reserved_assets_are_the_pipelines_assets():
    keys = build_definitions().resolve_asset_graph().get_all_asset_keys()
    assert {key.path[0] for key in keys} == PIPELINE_ASSETS


def test_pipeline_names_are_assets_their_partitions_and_the_catalog_sources(data_home):
    for name in ("scored", "rollouts__retail", "converted__demo_bookstore_chat", "demo_bookstore_chat_quarantine"):
        assert is_pipeline_name(name) and adhoc_name(name) == f"cli_{name}"
    for name in ("my_scored", "scored_by_me", "rollouts_mine", "chats"):
        assert not is_pipeline_name(name) and adhoc_name(name) == name


def test_a_cli_output_named_like_a_pipeline_dataset_gets_its_own_name(data_home, tmp_path):
    """The fault: `score rollouts.parquet -o scored.parquet` became version 2 of the pipeline's `scored`, and
    `SELECT ... FROM scored` read the ad-hoc file."""
    pipeline_run = tmp_path / "pipeline.parquet"
    assert invoke("convert", "-f", "adp", OS_STD, "-o", pipeline_run, "--no-catalog").exit_code == 0
    Catalog().register_dataset("scored", pipeline_run, 5, details={"asset": "scored"})  # what the pipeline does
    for stem in ("scored", "demo_bookstore_chat"):
        result = invoke("convert", "-f", "adp", OS_STD, "-o", tmp_path / f"{stem}.parquet")
        assert result.exit_code == 0
        assert f"registered as cli_{stem} (version 1)" in result.stderr
    listed = {(d["name"], d["version"]) for d in json.loads(invoke("catalog", "list", "--all", "--json").stdout)}
    assert listed == {
        ("scored", 1),
        ("cli_scored", 1),
        ("cli_scored_quarantine", 1),
        ("cli_demo_bookstore_chat", 1),
        ("cli_demo_bookstore_chat_quarantine", 1),
    }
    assert Catalog().get("scored").path == str(pipeline_run)
