"""Record files of different schema versions in the catalog and the Hub export: a view over both shapes has every
column of either, a Hub export of an older file is of the current version."""

from __future__ import annotations

import shutil

import pyarrow.parquet as pq

from data_catalog.catalog import Catalog
from data_catalog.dataset_stats import dataset_stats
from data_catalog.hub_shards import write_shards
from exporters.hub_folder import resolve_source
from schemas.arrow_schema import RECORD_SCHEMA
from schemas.io import read_records
from schemas.versions import SCHEMA_VERSION
from tests.schemas.frozen_versions import LEARNER, VERSIONS


def test_a_view_over_files_of_two_shapes_has_the_fields_of_both(data_home, tmp_path):
    folder = tmp_path / "shards"
    folder.mkdir()
    # The file without scores.learner sorts first: read by position, its shape would hide the other's field.
    shutil.copy(VERSIONS / "1.0-initial" / "records.parquet", folder / "a.parquet")
    shutil.copy(VERSIONS / "1.0-learner" / "records.parquet", folder / "b.parquet")
    Catalog().register_dataset("mixed", folder / "*.parquet", 6)
    rows = Catalog().sql("SELECT id, scores.learner, scores.accuracy FROM mixed ORDER BY scores.learner, id").rows
    assert len(rows) == 6
    assert [learner for _, learner, _ in rows] == [LEARNER, LEARNER, None, None, None, None]
    assert sorted(a for _, _, a in rows if a is not None) == [1.0, 1.0]
    stats = dataset_stats(sorted(folder.glob("*.parquet")))
    assert (stats.rows, stats.tasks) == (6, 2)


def test_a_hub_export_of_an_older_file_writes_shards_of_the_current_version(tmp_path):
    old = VERSIONS / "1.0-initial" / "records.parquet"
    source = resolve_source(str(old))  # refused before: "not a record Parquet file"
    shards = write_shards(source.files, tmp_path / "hub", {"trajectories", "tasks"}, 10**6, 0.0, 0)
    files = [tmp_path / "hub" / shard.path for shard in shards]
    assert all(pq.read_schema(f).equals(RECORD_SCHEMA) for f in files)
    assert {v for f in files for v in pq.read_table(f).column("schema_version").to_pylist()} == {SCHEMA_VERSION}
    assert sorted((r for f in files for r in read_records(f)), key=lambda r: r.id) == sorted(
        read_records(old), key=lambda r: r.id
    )
