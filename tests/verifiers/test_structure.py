"""Each structure reason code on a literal trajectory."""

from __future__ import annotations

from schemas.record import Tool
from tests.verifiers.toy_bank import bank_record, call, good_trajectory, result, say, user
from verifiers.base import CheckContext
from verifiers.structure import StructureVerifier


def check(trajectory, **record_fields):
    record = bank_record(trajectory, **record_fields)
    return StructureVerifier().check(CheckContext(record=record))


def test_a_well_formed_trajectory_passes():
    verdict = check(good_trajectory())
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])
    assert verdict.evidence["tool_calls"] == 2


def test_empty_trajectory():
    assert check([]).reasons == ["empty_trajectory"]


def test_unknown_tool():
    verdict = check([call("drain_account", "c1", account_id="a1"), result("c1", "ok"), say("done")])
    assert verdict.reasons == ["unknown_tool"]
    assert verdict.evidence["issues"][0] == {"step": 0, "code": "unknown_tool", "detail": "drain_account"}


def test_arguments_of_the_wrong_type():
    verdict = check(
        [call("transfer", "c1", source="a1", target="a2", amount="thirty"), result("c1", "done"), say("ok")]
    )
    assert verdict.reasons == ["args_schema_invalid"]
    assert "amount" in verdict.evidence["issues"][0]["detail"]


def test_missing_and_extra_arguments():
    assert check([call("get_balance", "c1"), result("c1", "x"), say("ok")]).reasons == ["args_schema_invalid"]
    extra = call("get_balance", "c1", account_id="a1", verbose=True)
    assert check([extra, result("c1", "x"), say("ok")]).reasons == ["args_schema_invalid"]


def test_an_invalid_tool_schema():
    broken = Tool(name="get_balance", parameters={"type": "object", "properties": {"account_id": {"type": 7}}})
    verdict = check([call("get_balance", "c1", account_id="a1"), result("c1", "x"), say("ok")])
    assert verdict.passed
    record = bank_record([call("get_balance", "c1", account_id="a1"), result("c1", "x"), say("ok")])
    record.environment.tools = [broken]
    assert StructureVerifier().check(CheckContext(record=record)).reasons == ["tool_schema_invalid"]


def test_a_result_that_answers_no_call():
    verdict = check([user("hi"), result("c9", "done"), say("ok")])
    assert verdict.reasons == ["orphan_tool_result"]


def test_a_call_on_a_missing_id_is_an_orphan_and_a_missing_result():
    verdict = check([call("get_balance", "c1", account_id="a1"), result("c2", "x"), say("ok")])
    assert verdict.reasons == ["missing_tool_result", "orphan_tool_result"]


def test_a_call_answered_only_after_the_agent_spoke_again():
    verdict = check([call("get_balance", "c1", account_id="a1"), say("let me see"), result("c1", "x"), say("ok")])
    assert verdict.reasons == ["missing_tool_result"]


def test_duplicate_call_ids():
    trajectory = [
        call("get_balance", "c1", account_id="a1"),
        result("c1", "x"),
        call("get_balance", "c1", account_id="a2"),
        result("c1", "y"),
        say("ok"),
    ]
    assert check(trajectory).reasons == ["duplicate_tool_call_id"]


def test_a_trajectory_that_stops_on_a_dangling_call():
    verdict = check([user("hi"), call("get_balance", "c1", account_id="a1")])
    assert verdict.reasons == ["missing_tool_result", "unterminated"]


def test_a_trajectory_that_stops_on_a_tool_result():
    assert check([call("get_balance", "c1", account_id="a1"), result("c1", "x")]).reasons == ["unterminated"]


def test_calls_and_results_without_ids_pair_by_position():
    from schemas.steps import ApiAction, TextObservation

    trajectory = [
        ApiAction(function="get_balance", kwargs={"account_id": "a1"}),
        TextObservation(content="x", source="tool"),
        say("ok"),
    ]
    assert check(trajectory).passed


def test_tools_come_from_the_named_environment_when_e_lists_none():
    from tests.verifiers.toy_bank import bank_factory

    record = bank_record(good_trajectory())
    record.environment.tools = []
    assert StructureVerifier().check(CheckContext(record=record, env_factory=bank_factory)).passed
    record.environment.name = "casino"
    verdict = StructureVerifier().check(CheckContext(record=record, env_factory=bank_factory))
    assert verdict.reasons == ["unknown_tool"]


def test_bad_calls_answered_by_an_error_are_recovered_errors_not_issues():
    trajectory = [
        user("Please move 30 from a1 to a2."),
        call("drain_account", "e1", account_id="a1"),
        result("e1", "Error: unknown tool 'drain_account'"),
        call("transfer", "e2", source="a1", target="a2", amount="30"),
        result("e2", "Error: invalid arguments for transfer: amount: '30' is not of type 'number'"),
        *good_trajectory()[1:],
    ]
    verdict = check(trajectory)
    assert (verdict.passed, verdict.reasons) == (True, [])
    assert verdict.evidence["recovered_errors"] == {"count": 2, "steps": [1, 3]}
    assert verdict.evidence["tool_calls"] == 4
    assert check(good_trajectory()).evidence["recovered_errors"] == {"count": 0, "steps": []}
