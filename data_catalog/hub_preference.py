"""The ``preference`` config of a Hub export: chosen / rejected conversations with tool calls, as TRL's DPOTrainer
reads them.

``load_dataset(repo, "preference")`` gives rows ``{id, task_id, prompt, chosen, rejected, tools, chosen_id,
rejected_id, chosen_reward, rejected_reward}`` that ``DPOTrainer(train_dataset=...)`` takes unchanged: the
message and tool columns are ``datasets`` ``Json`` values, for the reason hub_chat.py gives.

The pairs come from the trajectory shards already written, split by split (a task and its rollouts share a
split), so a pair is in its task's split. Which rollouts pair up, and how, is the caller's (exporters/dpo.py,
through ``to_pairs``); a split without a pair has no file, and the card says how many rows the config holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from data_catalog.hub_chat import trajectories_by_split, write_config_split
from data_catalog.hub_shards import Shard
from schemas.record import AgentRecord

PREFERENCE = "preference"
PairRows = Callable[[Iterable[AgentRecord]], Iterator[dict[str, Any]]]


def write_preference_config(folder: Path, shards: list[Shard], to_pairs: PairRows) -> list[Shard]:
    """``preference/{split}-00000-of-00001.parquet`` for each split whose trajectories make a pair; their Shards."""
    from datasets import Features, Json, List, Value

    features = Features(
        {
            **{name: Value("string") for name in ("id", "task_id", "chosen_id", "rejected_id")},
            **{name: List(Json()) for name in ("prompt", "chosen", "rejected", "tools")},
            **{name: Value("float64") for name in ("chosen_reward", "rejected_reward")},
        }
    )
    written = []
    for split, records in trajectories_by_split(folder, shards):
        rows = list(to_pairs(records))
        if rows:
            written.append(write_config_split(folder, PREFERENCE, split, rows, features))
    return written
