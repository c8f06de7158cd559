"""The oracle agent with the scripted user: its rollouts pass the verifier chain, read like a careful agent, are stable."""

from schemas.steps import ApiAction, MessageAction, TextObservation
from tests.generators.rollouts.helpers import balance_task, cancel_task, roll


def test_oracle_rollouts_of_a_write_and_a_read_task_pass():
    records, summary = roll([cancel_task(), balance_task()], k=2)
    assert [r.source.original_id for r in records] == [
        "task-cancel/0",
        "task-cancel/1",
        "task-balance/0",
        "task-balance/1",
    ]
    for record in records:
        result = record.verifier.result
        assert (result.passed, result.score, result.reasons) == (True, 1.0, [])
        assert result.version == "structure@1+replay@1+final_state@1+constraints@3+grounding@7+statements@3+policy@5"
        assert record.details["end_reason"] == "done" and record.details["leakage"] is False
        assert record.lineage.parents == [record.source.original_id.split("/")[0]]
    assert (summary.tasks, summary.rollouts, summary.passed, summary.failed) == (2, 4, 4, 0)
    assert dict(summary.end_reasons) == {"done": 4}


def test_the_oracle_asks_for_what_it_was_not_told_confirms_the_write_and_states_the_amount():
    steps = roll([cancel_task()], k=1)[0][0].trajectory
    tool_results = [s for s in steps if isinstance(s, TextObservation) and s.source == "tool"]
    turns = [s.function if isinstance(s, ApiAction) else s.content for s in steps if s not in tool_results]
    assert turns == [
        "Hi! I ordered something by mistake and want it cancelled.",
        "Could you please tell me your email?",
        "My email is vera.kim2362@inbox.test.",
        "find_user_id_by_email",
        "Could you please tell me your order id?",
        "My order id is #R5683800.",
        "get_order_details",
        "Could you please tell me your reason?",
        "My cancel reason is ordered by mistake.",
        "I will cancel pending order (order id #R5683800, reason ordered by mistake), which moves $708.44. "
        "Do you confirm that I should proceed (yes/no)?",
        "Yes, please go ahead.",
        "cancel_pending_order",
        "Your request is done. 708.44.",
        "Thank you, that is all I needed.",
    ]
    calls = [s for s in steps if isinstance(s, ApiAction)]
    assert [c.tool_call_id for c in calls] == [r.tool_call_id for r in tool_results] == ["call_3", "call_7", "call_13"]
    assert all(
        steps[steps.index(c) + 1] is r for c, r in zip(calls, tool_results)
    )  # one call per turn, answered at once
    assert isinstance(steps[-2], MessageAction)


def test_same_seed_same_records_and_distinct_seeds_per_rollout():
    first, _ = roll([cancel_task()], k=3, seed=5)
    again, _ = roll([cancel_task()], k=3, seed=5)
    other, _ = roll([cancel_task()], k=3, seed=6)
    assert [r.model_dump() for r in first] == [r.model_dump() for r in again]
    seeds = [r.lineage.generator["seed"] for r in first]
    assert len(set(seeds)) == 3
    assert len({r.id for r in first}) == 3
    assert {r.id for r in first}.isdisjoint(r.id for r in other)
    generator = first[0].lineage.generator
    assert generator["agent"] == {"name": "oracle", "version": "2"}
    assert generator["user"] == {"name": "scripted", "version": "2"}
    assert generator["faults"] == [] and "backend" not in generator
