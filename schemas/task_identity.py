"""Which task a record belongs to: one definition for every split, count and view.

A **rollout** (``details.rollout_index`` set, ``lineage.parents[0]`` naming the task it rolled out)
belongs to that task; every other record (a task, an evolved task whose parents are the tasks it was
made from, an imported trajectory) is its own task. Hub splits, the SFT hold-out, the learner's pass
rates, training metrics and the curation views all group by this, so a task and its rollouts always
land on the same side of a split.
"""

from __future__ import annotations

from typing import Any

import orjson

from schemas.record import AgentRecord

ROLLOUT_INDEX = "rollout_index"


def is_rollout_of_a_task(details: dict[str, Any], parents: list[str]) -> bool:
    return ROLLOUT_INDEX in details and bool(parents)


def task_of(record: AgentRecord) -> str:
    if is_rollout_of_a_task(record.details, record.lineage.parents):
        return record.lineage.parents[0]
    return record.id


def task_of_row(record_id: str, lineage_json: str | None, details_json: str | None) -> str:
    """``task_of`` for a row of the record Arrow schema (lineage and details as JSON strings)."""
    parents = (orjson.loads(lineage_json) or {}).get("parents") or [] if lineage_json else []
    details = orjson.loads(details_json) or {} if details_json else {}
    return parents[0] if is_rollout_of_a_task(details, parents) else record_id
