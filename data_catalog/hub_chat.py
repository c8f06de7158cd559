"""The ``sft`` config of a Hub export: each trajectory as chat ``messages`` + ``tools``, as TRL's SFTTrainer reads them.

``load_dataset(repo, "sft")`` gives rows ``{id, messages, tools}`` that
``SFTTrainer(train_dataset=...)`` takes unchanged. Both columns are ``datasets``
``Json`` values (JSON text in Parquet, Python objects when read): as plain Arrow
structs, every row's tool-call arguments and tool schemas would be unified
across rows, and each call would render with every other call's argument names
set to null.

The rows come from the trajectory shards already written, split by split, so a
chat is in the same split as its record. How a record becomes a chat is the
caller's (training.render, through ``to_chat``): a record it cannot render
(``None``) has no chat row, and the card says how many rows each config holds.

A row ends with the assistant's last turn: what follows it (the user's closing "Thank you, that is all I
needed.", a last tool result) teaches nothing, since SFT learns the assistant's turns, and a chat that ends on
another role is not what a finished conversation looks like to a trainer. The turns dropped are counted, and
the card says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from data_catalog.hub_shards import DEFAULT_CONFIG, TRAJECTORIES, Shard, iter_batches
from schemas.arrow_schema import row_to_record
from schemas.record import AgentRecord

SFT = "sft"
ChatRow = Callable[[AgentRecord], dict[str, Any] | None]


def write_chat_config(folder: Path, shards: list[Shard], to_chat: ChatRow) -> tuple[list[Shard], int]:
    """``sft/{split}-00000-of-00001.parquet`` for each split that has trajectories; their Shards, and how many
    turns after the assistant's last were dropped."""
    from datasets import Features, Json, List, Value

    features = Features({"id": Value("string"), "messages": List(Json()), "tools": List(Json())})
    written, dropped = [], 0
    for split, records in trajectories_by_split(folder, shards):
        rows = []
        for record in records:
            chat = _chat(record, to_chat)
            if chat is not None:
                chat["messages"], after = ending_with_the_assistant(chat["messages"])
                rows.append(chat)
                dropped += after
        if rows:
            written.append(write_config_split(folder, SFT, split, rows, features))
    return written, dropped


def ending_with_the_assistant(messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The messages up to the assistant's last turn, and how many came after it (all of them kept when the
    assistant never speaks: such a chat has nothing to end on)."""
    last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=None)
    if last is None:
        return messages, 0
    return messages[: last + 1], len(messages) - last - 1


def trajectories_by_split(folder: Path, shards: list[Shard]) -> Iterator[tuple[str, Iterator[AgentRecord]]]:
    """(split, its trajectory records, read lazily) for each split of the folder's record shards that has some."""
    trajectories = [s for s in shards if s.config in (TRAJECTORIES, DEFAULT_CONFIG) and _has_steps(folder, s)]
    for split in sorted({s.split for s in trajectories}):
        files = [folder / s.path for s in trajectories if s.split == split]
        yield split, (row_to_record(row) for batch in iter_batches(files) for row in batch.to_pylist())


def write_config_split(folder: Path, config: str, split: str, rows: list[dict[str, Any]], features: Any) -> Shard:
    """``{config}/{split}-00000-of-00001.parquet``: outside ``data/``, which holds record shards only (the catalog
    reads ``data/**`` as records)."""
    from datasets import Dataset

    path = Path(config) / f"{split}-00000-of-00001.parquet"
    (folder / path).parent.mkdir(parents=True, exist_ok=True)
    with datasets_bars_off():
        Dataset.from_list(rows, features=features).to_parquet(folder / path)
    return Shard(config, split, path, len(rows), (folder / path).stat().st_size)


def _chat(record: AgentRecord, to_chat: ChatRow) -> dict[str, Any] | None:
    chat = to_chat(record)
    return None if chat is None else {"id": record.id, "messages": chat["messages"], "tools": chat["tools"]}


def _has_steps(folder: Path, shard: Shard) -> bool:
    """A default-config shard holds trajectories unless the export is of tasks alone."""
    import pyarrow.parquet as pq

    if shard.config == TRAJECTORIES:
        return True
    column = pq.read_table(folder / shard.path, columns=["num_steps"]).column("num_steps")
    return any(n for n in column.to_pylist())


@contextmanager
def datasets_bars_off() -> Iterator[None]:
    """No ``datasets`` progress bars inside (a one-shard write or a local read is not long work to watch)."""
    import datasets

    enabled = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if enabled:
            datasets.enable_progress_bars()
