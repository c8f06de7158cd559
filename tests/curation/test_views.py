"""What curation reads from a record: task text, actions, content and structural keys, missing markers."""

from curation.views import (
    action_text,
    call_skeleton,
    content_hash,
    missing_markers,
    structural_key,
    task_id,
    task_text,
)
from schemas.record import AgentRecord, Source, Task
from tests.curation.helpers import chat_record, rollout_of, task_record, trajectory_record


def test_task_text_is_the_instruction_then_the_scenario_reason_else_the_first_user_turn():
    record = trajectory_record("a", instruction="Update the profile address.")
    assert task_text(record) == "Update the profile address."
    record.task.user_scenario = {"reason": "You want your address changed to 1 Elm St."}
    assert task_text(record) == "Update the profile address.\nYou want your address changed to 1 Elm St."
    assert task_text(chat_record("c", "What is 2+2?", "4")) == "What is 2+2?"


def test_actions_of_a_trajectory_and_of_a_task_are_its_calls_and_its_gold_actions():
    assert action_text(trajectory_record("a")) == "get_order -> cancel_order -> message"
    assert action_text(task_record("t")) == "get_order -> cancel_order"
    assert call_skeleton(task_record("t")) == [("get_order", ["order_id"]), ("cancel_order", ["order_id", "reason"])]


def test_records_differing_only_in_ids_share_content_and_structural_keys():
    one = trajectory_record("one", dataset="a")
    two = trajectory_record("two", dataset="b")
    for step in two.trajectory:  # other tool-call ids, same calls
        if getattr(step, "tool_call_id", None):
            step.tool_call_id = "x-" + step.tool_call_id
    assert content_hash(one) == content_hash(two)
    assert structural_key(one) == structural_key(two)


def test_structural_key_ignores_values_and_wording_but_not_constraints_or_environment():
    base = trajectory_record("a", order_id="W1")
    other_values = trajectory_record("b", order_id="W1", instruction="Please drop my order.", reason="changed my mind")
    assert structural_key(base) == structural_key(other_values)
    assert content_hash(base) != content_hash(other_values)
    assert structural_key(base) != structural_key(trajectory_record("c", order_id="W2"))  # other constraint set
    moved = base.model_copy(update={"environment": base.environment.model_copy(update={"name": "other"})})
    assert structural_key(base) != structural_key(moved)
    assert structural_key(chat_record("c", "hi", "hello")) is None  # no tool call: no structure to compare


def test_missing_markers_and_task_ids():
    empty = AgentRecord(id="e", source=Source(dataset="d", format="f"), task=Task())
    assert missing_markers(empty) == ["no_text", "no_task", "empty_trajectory"]
    assert missing_markers(task_record("t")) == ["empty_trajectory"]
    assert missing_markers(trajectory_record("a")) == []
    rollout = rollout_of(task_record("t"), 2, passed=True)
    assert task_id(rollout) == "t" and task_id(task_record("t")) == "t"
