"""One task identity: an evolved task and its rollouts stay together in every split."""

from __future__ import annotations

import pyarrow.parquet as pq

from data_catalog.hub_shards import write_shards
from schemas.io import write_records
from schemas.task_identity import task_of
from tests.curation.helpers import rollout_of, task_record


def evolved(base_id: str, order_id: str):
    """A task made from another (its lineage names the base task), and not a rollout of it."""
    task = task_record(f"evolved-{order_id}", order_id=order_id)
    task.lineage.parents = [base_id]
    return task


def test_a_rollout_belongs_to_its_task_and_an_evolved_task_to_itself():
    task = evolved("base-1", "W1")
    rollout = rollout_of(task, 0, True)
    assert task_of(task) == "evolved-W1"
    assert task_of(rollout) == "evolved-W1"


def test_hub_splits_keep_each_evolved_task_with_its_rollouts(tmp_path):
    records = []
    for n in range(30):
        task = evolved(f"base-{n}", f"W{n}")
        records += [task, *(rollout_of(task, i, i % 2 == 0) for i in range(3))]
    write_records(records, tmp_path / "in.parquet")
    shards = write_shards([tmp_path / "in.parquet"], tmp_path / "out", {"tasks", "trajectories"}, 2**30, 0.3, 0)
    split_of_task: dict[str, set[str]] = {}
    for shard in shards:
        for record_id in pq.read_table(tmp_path / "out" / shard.path, columns=["id"]).column("id").to_pylist():
            split_of_task.setdefault(record_id.split("-r")[0], set()).add(shard.split)
    assert len(split_of_task) == 30
    assert all(len(splits) == 1 for splits in split_of_task.values())
    assert {split for splits in split_of_task.values() for split in splits} == {"train", "test"}
