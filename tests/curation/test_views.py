"""What curation reads from a record: task text, actions, content and structural keys, missing markers."""

from curation.views import (
    action_text,
    call_skeleton,
    content_hash,
    goal_kinds,
    grounded_entities,
    missing_markers,
    structural_key,
    task_id,
    task_text,
    tool_sequence,
)
from schemas.record import AgentRecord, Source, Task
from schemas.steps import ApiAction
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


def test_tool_sequence_entities_and_goal_kinds_of_a_record():
    task = task_record("t", order_id="#W1000001")
    assert tool_sequence(task) == tool_sequence(trajectory_record("a")) == "get_order -> cancel_order"
    assert tool_sequence(chat_record("c", "hi", "hello")) == ""
    assert grounded_entities(task) == {"#W1000001"}  # the gold actions' rows
    assert grounded_entities(rollout_of(task, 0, True)) == {"#W1000001"}  # the rows its calls touch
    assert grounded_entities(task_record("w", order_id="W1")) == set()  # "W1" is not id-like (verifiers/grounding.py)
    call = ApiAction(
        function="exchange_items",
        kwargs={"order_id": "#W2000002", "item_ids": ["1008292230", "7"], "payment": {"id": "credit_card_4421"}},
        tool_call_id="x",
    )
    record = trajectory_record("b").model_copy(update={"trajectory": [call]})
    assert grounded_entities(record) == {"#W2000002", "1008292230", "credit_card_4421"}  # nested values too
    assert goal_kinds(task) == [] and goal_kinds(chat_record("c", "hi", "hello")) == []
    task.task.metadata = {"goal_kinds": ["cancel_order", "address"], "task_kind": "cancel_order+address"}
    assert goal_kinds(task) == goal_kinds(rollout_of(task, 0, True)) == ["cancel_order", "address"]
    code = chat_record("c", "Write f.", "def f(): ...")
    code.task.metadata = {"task_kind": "code_function"}
    assert goal_kinds(code) == ["code_function"]


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
