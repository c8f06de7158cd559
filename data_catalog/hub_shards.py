"""Record Parquet files -> the Hub's shard layout: ``data/[{config}/]{split}-00000-of-0000N.parquet``.

Rows keep the one record schema (schemas/arrow_schema.py), so every shard
passes ``aceforge validate`` and reads back into AgentRecords. Each row goes to
a config by its record kind and to a split by its task:

- kind: a row with no trajectory steps is a synthesized *task* (q, E and the
  verifier spec, for RL and evaluation); a row with steps is a *trajectory*.
  Both kinds in one dataset become two configs, ``trajectories`` and ``tasks``,
  under ``data/{config}/``; one kind alone is the ``default`` config in ``data/``.
- split: ``train``, or ``test`` for a seeded share of tasks. The key is the
  record's task: its first lineage parent (a rollout's task id) or else its own
  id, so a task and its rollouts always land in the same split.

A shard is closed once its size on disk reaches ``max_shard_bytes``; row
groups hold at most an eighth of that in Arrow memory, so a shard overshoots
by one compressed row group and its footer at most (a record is never split,
so one larger than the limit makes a shard of its own). Row order is kept, so the
same input and settings give the same shards.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from schemas.arrow_schema import RECORD_SCHEMA, STATISTICS_COLUMNS, upgrade_record_batch
from schemas.task_identity import task_of_row

TASKS = "tasks"
TRAJECTORIES = "trajectories"
DEFAULT_CONFIG = "default"
TRAIN = "train"
TEST = "test"
MAX_ROW_GROUP_BYTES = 64 * 2**20
READ_BATCH_ROWS = 1024


@dataclass(frozen=True)
class Shard:
    config: str
    split: str
    path: Path  # relative to the export folder
    rows: int
    bytes: int


def config_dir(config: str, several: bool) -> str:
    """Where a config's shards live, relative to the folder."""
    return f"data/{config}" if several else "data"


def is_test(key: str, test_fraction: float, seed: int) -> bool:
    """A seeded, stable draw in [0, 1) per task key: below ``test_fraction`` means held out."""
    digest = hashlib.blake2b(f"{seed}:{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64 < test_fraction


def _split_column(batch: pa.RecordBatch, test_fraction: float, seed: int) -> pa.Array:
    if test_fraction <= 0:
        return pa.array([TRAIN] * batch.num_rows, pa.string())
    rows = zip(*(batch.column(name).to_pylist() for name in ("id", "lineage", "details")))
    return pa.array([TEST if is_test(task_of_row(*row), test_fraction, seed) else TRAIN for row in rows], pa.string())


def _kind_column(batch: pa.RecordBatch) -> pa.Array:
    no_steps = pc.fill_null(pc.equal(batch.column("num_steps"), 0), False)
    return pc.if_else(no_steps, TASKS, TRAJECTORIES)


class ShardWriter:
    """One config's split as numbered shards, written as ``.partial`` files until the count is known."""

    def __init__(self, folder: Path, config: str, directory: str, split: str, max_bytes: int):
        self.folder, self.config, self.directory, self.split = folder, config, directory, split
        self.max_bytes = max_bytes
        self.row_group_bytes = max(1, min(max_bytes // 8, MAX_ROW_GROUP_BYTES))
        self._pending: list[pa.Table] = []
        self._pending_bytes = 0
        self._done: list[tuple[Path, int, int]] = []  # (partial path, rows, bytes)
        self._sink: pa.OSFile | None = None
        self._writer: pq.ParquetWriter | None = None
        self._path: Path | None = None
        self._rows = 0

    def write(self, table: pa.Table) -> None:
        # Slices of about a row group each, so a shard can close between them.
        step = max(1, table.num_rows * self.row_group_bytes // max(table.nbytes, 1))
        for start in range(0, table.num_rows, step):
            piece = table.slice(start, step)
            self._pending.append(piece)
            self._pending_bytes += piece.nbytes
            if self._pending_bytes >= self.row_group_bytes:
                self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        if self._writer is None:
            path = self.folder / self.directory / f".{self.split}-{len(self._done):05d}.parquet.partial"
            path.parent.mkdir(parents=True, exist_ok=True)
            self._sink = pa.OSFile(str(path), "wb")
            self._writer = pq.ParquetWriter(
                self._sink, RECORD_SCHEMA, compression="zstd", write_statistics=STATISTICS_COLUMNS
            )
            self._path = path
        table = pa.concat_tables(self._pending)
        self._writer.write_table(table, row_group_size=table.num_rows)
        self._rows += table.num_rows
        self._pending, self._pending_bytes = [], 0
        if self._sink.tell() >= self.max_bytes:
            self._close_shard()

    def _close_shard(self) -> None:
        self._writer.close()
        self._sink.close()
        self._done.append((self._path, self._rows, self._path.stat().st_size))
        self._writer, self._sink, self._rows = None, None, 0

    def close(self) -> list[Shard]:
        """Write what is left and give every shard its final name ``{split}-{i:05d}-of-{n:05d}.parquet``."""
        self._flush()
        if self._writer is not None:
            self._close_shard()
        shards = []
        for index, (partial, rows, size) in enumerate(self._done):
            final = partial.with_name(f"{self.split}-{index:05d}-of-{len(self._done):05d}.parquet")
            partial.rename(final)
            shards.append(Shard(self.config, self.split, final.relative_to(self.folder), rows, size))
        return shards


def iter_batches(files: Iterable[str | Path]) -> Iterator[pa.RecordBatch]:
    for path in files:
        yield from pq.ParquetFile(path).iter_batches(batch_size=READ_BATCH_ROWS)


def write_shards(
    files: list[str | Path], folder: Path, kinds: set[str], max_shard_bytes: int, test_fraction: float, seed: int
) -> list[Shard]:
    """Shard the records of ``files`` into ``folder``; ``kinds`` (known beforehand) decides the layout."""
    several = len(kinds) > 1
    writers: dict[tuple[str, str], ShardWriter] = {}
    for batch in iter_batches(files):
        batch = upgrade_record_batch(batch)  # a file of an earlier schema version gives rows of this one
        table = pa.Table.from_batches([batch])
        kind, split = _kind_column(batch), _split_column(batch, test_fraction, seed)
        for (k, s), rows in _groups(table, kind, split):
            config = k if several else DEFAULT_CONFIG
            writer = writers.get((config, s))
            if writer is None:
                writer = writers[(config, s)] = ShardWriter(
                    folder, config, config_dir(config, several), s, max_shard_bytes
                )
            writer.write(rows)
    return [shard for key in sorted(writers) for shard in writers[key].close()]


def _groups(table: pa.Table, kind: pa.Array, split: pa.Array) -> Iterator[tuple[tuple[str, str], pa.Table]]:
    for k in pc.unique(kind).to_pylist():
        for s in pc.unique(split).to_pylist():
            mask = pc.and_(pc.equal(kind, k), pc.equal(split, s))
            rows = table.filter(mask)
            if rows.num_rows:
                yield (k, s), rows
