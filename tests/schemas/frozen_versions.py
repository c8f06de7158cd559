"""The frozen record files of every schema version (tests/schemas/versions/), for the tests of each reader."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from schemas.io import read_records, write_records
from schemas.versions import SCHEMA_VERSION

VERSIONS = Path(__file__).parent / "versions"
SHAPES = sorted(p.name for p in VERSIONS.iterdir() if p.is_dir())
OLD_SHAPES = [shape for shape in SHAPES if shape.split("-")[0] != SCHEMA_VERSION]  # of earlier versions
LEARNER = "518fea0842e01c1cdbb22fb3"  # the id of the learner whose rollouts scored the examples (c5b4d37 on)
NEWER = f"{int(SCHEMA_VERSION.split('.')[0]) + 1}.0"  # a version above this aceforge's


def newer_parquet(path: Path, version: str = NEWER) -> Path:
    """The examples, written by this aceforge, with a score field no version of it has, saying ``version``."""
    write_records(read_records(VERSIONS / "1.0-initial" / "records.parquet"), path)
    table = pq.read_table(path)
    scores = table.column("scores").combine_chunks()
    mood = pa.array(["calm"] * len(table))
    scores = pa.StructArray.from_arrays([*scores.flatten(), mood], names=[*scores.type.names, "mood"])
    table = table.set_column(table.schema.get_field_index("scores"), "scores", scores)
    table = table.set_column(1, "schema_version", pa.array([version] * len(table)))
    pq.write_table(table, path)
    return path
