"""bench/training_pool.py: training records end at their last tool call, and a held-out set that shares a task
or an instruction with the pool is refused."""

from __future__ import annotations

import pytest
from training_pool import assert_disjoint, through_last_call

from schemas.record import AgentRecord, Lineage, Source, Task
from schemas.steps import ApiAction, MessageAction, TextObservation

SOURCE = Source(dataset="bench", format="aceforge")


def rollout(record_id: str, task: str, instruction: str, trajectory: list | None = None) -> AgentRecord:
    return AgentRecord(
        id=record_id,
        source=SOURCE,
        task=Task(instruction=instruction),
        trajectory=trajectory or [],
        lineage=Lineage(parents=[task]),
        details={"rollout_index": 0},
    )


def test_a_record_ends_at_its_last_tool_call():
    steps = [
        TextObservation(content="Cancel #W1, I'm ann@x.test", source="user"),
        ApiAction(function="find_user_id_by_email", kwargs={"email": "ann@x.test"}),
        TextObservation(content="ann_1", source="environment"),
        MessageAction(content="Cancel #W1? Confirm."),
        TextObservation(content="Yes.", source="user"),
        ApiAction(function="cancel_pending_order", kwargs={"order_id": "#W1", "reason": "no longer needed"}),
        TextObservation(content='{"status": "cancelled"}', source="environment"),
        MessageAction(content="Done: #W1 is cancelled."),
    ]
    cut = through_last_call(rollout("r", "t", "Cancel #W1", steps))
    assert cut.trajectory == steps[:6]
    assert cut.trajectory[-1].function == "cancel_pending_order"
    talk = [TextObservation(content="Hi", source="user"), MessageAction(content="Hello")]
    assert through_last_call(rollout("r", "t", "Hi", talk)).trajectory == talk  # no call: kept whole


def test_disjoint_sets_pass():
    pool = [rollout("p1", "task-a", "Cancel order #W1"), rollout("p2", "task-a", "Cancel order #W1")]
    assert_disjoint(pool, [rollout("h1", "task-b", "Return order #W9")])  # raises nothing


def test_a_shared_task_is_refused():
    pool = [rollout("p1", "task-a", "Cancel order #W1")]
    with pytest.raises(ValueError, match=r"1 shared task\(s\) \['task-a'\], 0 shared instruction"):
        assert_disjoint(pool, [rollout("h1", "task-a", "Return order #W9")])


def test_a_shared_instruction_is_refused_whatever_its_spacing():
    pool = [rollout("p1", "task-a", "Cancel order #W1,\nI ordered it by mistake.")]
    held = [rollout("h1", "task-b", "Cancel order  #W1, I ordered it by mistake.")]
    with pytest.raises(ValueError, match=r"0 shared task\(s\) \[\], 1 shared instruction"):
        assert_disjoint(pool, held)
