"""Ingesting a catalog source through the ingest stage, as the ``converted`` asset does: outputs under the data
directory, registered, versioned by content."""

from __future__ import annotations

import shutil

from data_catalog.catalog import Catalog
from data_catalog.entries import PACKAGE_DIR, load_entry
from pipelines.registrar import register_source
from pipelines.stages.ingest import INGEST, Converted, IngestConfig
from tests.conftest import ADP_FIXTURES


def ingested(entry) -> Converted:
    inputs, outputs = INGEST.from_assets({"source": entry}, {})
    return INGEST.run(inputs, outputs, IngestConfig(), None)


def entry_for(tmp_path, paths, name="alfworld", fmt="adp", options=""):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\nformat: {fmt}\nlicense: MIT\npaths: {paths!r}\n{options}")
    return load_entry(path)


def test_ingest_writes_under_data_home_and_registers_records_and_quarantine(data_home, tmp_path):
    entry = entry_for(tmp_path, [str(ADP_FIXTURES / "agenttuning_alfworld" / "sample_std.json")])
    result = ingested(entry)
    assert (result.stats.read, result.stats.converted, result.stats.quarantined) == (5, 5, 0)
    assert result.stats.output == str(data_home / "datasets" / "alfworld" / result.config_hash / "records.parquet")
    catalog = Catalog()
    assert catalog.list_datasets() == []  # converting registers nothing: its caller does
    records, quarantine = register_source(catalog, entry.name, result)
    assert records.name == "alfworld" and records.rows == 5
    assert quarantine.name == "alfworld_quarantine" and quarantine.kind == "quarantine"
    assert quarantine.parents == ["alfworld@1"]
    assert catalog.sql("SELECT count(*), min(source.license), min(source.dataset) FROM alfworld").rows == [
        (5, "MIT", "alfworld")
    ]
    assert catalog.sql("SELECT count(*) FROM alfworld_quarantine").rows == [(0,)]


def test_rerun_keeps_the_version_changed_input_adds_one(data_home, tmp_path):
    raw = tmp_path / "raw.json"
    shutil.copy(ADP_FIXTURES / "agenttuning_os" / "sample_std.json", raw)
    entry = entry_for(tmp_path, [str(raw)], name="os")
    catalog = Catalog()
    first = ingested(entry)
    assert register_source(catalog, entry.name, first)[0].version == 1
    assert register_source(catalog, entry.name, ingested(entry))[0].version == 1
    raw.write_text(raw.read_text().replace("ls /etc", "ls /usr"))
    changed = ingested(entry)
    assert register_source(catalog, entry.name, changed)[0].version == 2 and changed.config_hash != first.config_hash
    # Both versions stay readable side by side.
    assert catalog.sql("SELECT (SELECT count(*) FROM os__v1), (SELECT count(*) FROM os__v2)").rows == [(5, 5)]


def test_generated_demo_source_is_written_when_missing(data_home):
    entry = load_entry(PACKAGE_DIR / "demo_bookstore_chat.yaml")
    assert not (data_home / "demo").exists()
    result = ingested(entry)
    assert (result.stats.converted, result.stats.quarantined) == (24, 4)
    assert (data_home / "demo" / "raw" / "bookstore_chat.jsonl").is_file()
