"""The registrar's one rule: lineage and config hash from the stage, its config and its inputs, for the CLI and the
pipeline alike."""

from __future__ import annotations

import os

import pyarrow as pa
import pyarrow.parquet as pq

from curation.config import DedupConfig
from data_catalog.catalog import Catalog
from pipelines.registrar import OutputOptions, StageOutput, register


class DedupCommand(DedupConfig, OutputOptions):
    """What ``aceforge dedup`` reads: the stage's config plus where its output goes."""


def table(path, rows: int):
    pq.write_table(pa.table({"id": [f"r{i}" for i in range(rows)]}), path)
    return path


def test_parents_are_the_inputs_catalog_versions_and_the_hash_follows_them(data_home, tmp_path):
    catalog = Catalog()
    upstream = table(tmp_path / "up.parquet", 3)
    (up,) = register(catalog, "scored", None, [], [StageOutput("scored", upstream, 3)])
    out = table(tmp_path / "out.parquet", 2)
    side = table(tmp_path / "out.dedup.parquet", 1)
    outputs = [StageOutput("deduplicated", out, 2), StageOutput("deduplicated_dedup", side, 1, kind="table")]
    main, audit = register(catalog, "deduplicated", DedupConfig(), [upstream], outputs)
    assert main.parents == ["scored@1"] and audit.parents == ["deduplicated@1"]
    assert main.config_hash == audit.config_hash and main.details["stage"] == "deduplicated"

    # The CLI's output options name the output, not its content: the same hash, so the same version.
    again = register(catalog, "deduplicated", DedupCommand(dataset="other", catalog=True), [upstream], outputs)
    assert [v.version for v in again] == [1, 1]
    # Another config, or another version of the input, is another hash and a new version.
    assert register(catalog, "deduplicated", DedupConfig(minhash_threshold=0.5), [upstream], outputs)[0].version == 2
    table(upstream, 4)
    register(catalog, "scored", None, [], [StageOutput("scored", upstream, 4)])
    changed = register(catalog, "deduplicated", DedupConfig(minhash_threshold=0.5), [upstream], outputs)[0]
    assert changed.version == 3 and changed.parents == ["scored@2"]


def test_a_file_outside_the_catalog_counts_by_path_and_modification_time(data_home, tmp_path):
    catalog = Catalog()
    raw, out = table(tmp_path / "raw.parquet", 1), table(tmp_path / "out.parquet", 1)
    first = register(catalog, "score", None, [raw], [StageOutput("out", out, 1)])[0]
    assert first.parents == [] and register(catalog, "score", None, [raw], [StageOutput("out", out, 1)])[0] == first
    os.utime(raw, ns=(0, raw.stat().st_mtime_ns + 10**9))
    assert register(catalog, "score", None, [raw], [StageOutput("out", out, 1)])[0].version == 2
