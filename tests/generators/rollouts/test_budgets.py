"""Budgets and bad input: each ends that one rollout with a reason code; it is recorded and verified; the run goes on.

A bad call does not end a rollout: test_recovery.py."""

import json

from generators.rollouts.config import RolloutConfig
from generators.rollouts.runner import RolloutSummary, run_rollouts
from schemas.generation import GenerationError, GenerationResult
from tests.generators.rollouts.helpers import ScriptedGenerator, balance_task, cancel_task, roll

SCHEMA_AGENT = {"agent": "llm", "tool_calls": "schema", "backend": "vllm"}


def agent_says(call_or_message: dict):
    """A model whose every agent turn is the same JSON (the scripted user answers the agent's messages)."""
    return ScriptedGenerator(lambda request: json.dumps(call_or_message))


def test_max_turns_ends_the_oracle_and_the_rollout_is_verified_as_failed():
    record = roll([cancel_task()], k=1, budget={"max_turns": 3})[0][0]
    assert record.details["end_reason"] == "max_turns" and record.details["agent_turns"] == 3
    assert record.verifier.result.passed is False
    assert "constraint_failed:cancelled" in record.verifier.result.reasons


def test_max_tool_errors_counts_failed_calls():
    model = agent_says({"name": "get_order_details", "arguments": {"order_id": "#R0000000"}})
    record = roll([balance_task()], model, k=1, budget={"max_tool_errors": 3}, **SCHEMA_AGENT)[0][0]
    assert record.details["end_reason"] == "max_tool_errors" and record.details["tool_errors"] == 3
    assert record.trajectory[-1].content == "Error: order '#R0000000' not found"
    # the trajectory stops on a tool result: structure says so, and the chain stops there
    assert record.verifier.result.reasons == ["unterminated"]


def test_max_tokens_counts_generated_tokens():
    model = ScriptedGenerator(lambda request: '{"message": "Could you tell me your zip?"}', tokens_out=40)
    record = roll([balance_task()], model, k=1, budget={"max_tokens": 100}, **SCHEMA_AGENT)[0][0]
    assert record.details["end_reason"] == "max_tokens" and record.details["tokens"] == 120
    assert record.verifier.result.passed is False


def test_backend_errors_end_their_rollouts_and_the_run_goes_on():
    def flaky(request):
        if request.sampling.seed % 2:
            return GenerationResult(error="prompt too long: 9000 tokens; limit is 8000")
        return GenerationResult(error="server said 500")

    records, summary = roll([balance_task(), cancel_task()], ScriptedGenerator(flaky), k=3, **SCHEMA_AGENT)
    assert summary.rollouts == 6 and set(summary.end_reasons) <= {"context_overflow", "backend_error"}
    assert sum(summary.end_reasons.values()) == 6

    class Down:
        model_id = {"model": "down", "hash": "0"}

        def generate(self, requests, params, on_result=None):
            raise GenerationError("connection refused after 5 retries")

    records, summary = roll([balance_task(), cancel_task()], Down(), k=2, **SCHEMA_AGENT)
    assert [r.details["end_reason"] for r in records] == ["backend_error"] * 4
    assert all(r.verifier.result.passed is False for r in records)


def test_a_user_simulator_that_never_stops():
    user_goes_on = ScriptedGenerator(lambda request: "And another thing...")
    record = roll([balance_task()], user_goes_on, k=1, user="llm", backend="vllm")[0][0]
    assert record.details["end_reason"] == "user_never_stopped"
    # the oracle finished, but with the zip code this user never gave (it never answered): not grounded
    assert record.verifier.result.passed is False
    assert record.verifier.result.reasons == ["ungrounded_argument"]


def test_a_scenario_in_the_wrong_shape_ends_its_rollouts_and_others_run():
    broken = cancel_task(scenario={"persona": "Vera", "known_info": ["email"]})  # no reason, no slots
    records, summary = roll([broken, balance_task()], k=2)
    assert [r.details["end_reason"] for r in records] == ["bad_scenario", "bad_scenario", "done", "done"]
    assert records[0].trajectory == [] and records[0].verifier.result.reasons == ["empty_trajectory"]
    assert summary.passed == 2 and summary.failed == 2


def test_records_that_are_not_tasks_are_skipped_with_their_reason():
    done = roll([cancel_task()], k=1)[0][0]  # a rollout is not a task
    skipped, summary = [], RolloutSummary()
    records = list(
        run_rollouts(
            [done, balance_task()],
            RolloutConfig(k=1),
            None,
            "unit",
            summary,
            lambda task, why: skipped.append((task.id, why)),
        )
    )
    assert skipped == [(done.id, "has a trajectory already (not a task)")]
    assert summary.skipped == {"has a trajectory already (not a task)": 1} and len(records) == 1


def test_an_oracle_without_gold_actions():
    task = cancel_task()
    task.task.expected_outputs = {"outcome": "write"}
    record = roll([task], k=1)[0][0]
    assert record.details["end_reason"] == "no_gold_actions"


def test_an_actor_that_raises_ends_its_rollout_with_the_error_kept():
    odd = balance_task()
    odd.task.constraints = [{"id": "balance", "check": "message_contains", "number": "fifty-four"}]
    records, summary = roll([odd, cancel_task()], k=1)
    assert records[0].details["end_reason"] == "agent_error:ValueError"
    assert "fifty-four" in records[0].details["error"]
    assert records[1].details["end_reason"] == "done" and summary.rollouts == 2


def test_a_pass_without_the_user_ending_the_conversation_is_counted_apart():
    refusal = balance_task()
    refusal.task.constraints = [{"id": "no_cancel", "check": "action_not_called", "function": "cancel_pending_order"}]
    records, summary = roll([refusal], ScriptedGenerator(lambda request: "not JSON"), k=2, **SCHEMA_AGENT)
    assert [r.details["end_reason"] for r in records] == ["malformed_output"] * 2
    assert summary.passed == 2 and summary.passed_unfinished == 2  # the agent never acted; the guard holds
