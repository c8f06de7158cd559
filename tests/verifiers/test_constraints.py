"""The constraint language and V(τ, C), each reason code on a literal trajectory in the toy bank."""

from __future__ import annotations

import pytest

from tests.verifiers.toy_bank import GOAL, bank_factory, bank_record, call, good_trajectory, result, say
from verifiers.base import CheckContext
from verifiers.constraints import ConstraintsVerifier
from verifiers.replay import ReplayVerifier

ALLOW_ACCOUNTS = {"check": "allow_write", "scope": "accounts"}


def verify(trajectory, constraints, spec=None):
    ctx = CheckContext(record=bank_record(trajectory, constraints, spec=spec), env_factory=bank_factory)
    assert ReplayVerifier().check(ctx).passed
    return ConstraintsVerifier().check(ctx)


def test_the_goal_reached_meets_every_constraint():
    verdict = verify(good_trajectory(), GOAL)
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])
    assert [c["met"] for c in verdict.evidence["constraints"]] == [True, True, True]


def test_any_valid_path_is_accepted():
    # Two transfers of 15 instead of one of 30: a different path to the same outcome.
    trajectory = [
        call("transfer", "c1", source="a1", target="a2", amount=15),
        result("c1", "done"),
        call("transfer", "c2", source="a1", target="a2", amount=15),
        result("c2", "done"),
        say("a2 now has 50 dollars"),
    ]
    verdict = verify(trajectory, GOAL)
    assert verdict.passed and verdict.score == 1.0


def test_a_subtly_wrong_amount_fails_the_state_constraints():
    trajectory = [
        call("transfer", "c1", source="a1", target="a2", amount=3),
        result("c1", "done"),
        say("a2 has 50 now"),
    ]
    verdict = verify(trajectory, GOAL)
    assert verdict.passed is False
    assert verdict.reasons == ["constraint_failed:a2_balance", "constraint_failed:a1_paid"]
    assert verdict.score == pytest.approx(1 / 3)


def test_message_constraints_on_text_and_numbers():
    trajectory = good_trajectory()[:-1] + [say("All set, the balance is $1,050.00 — thanks!")]
    checks = [
        {"id": "n", "check": "message_contains", "number": 1050},
        {"id": "t", "check": "message_contains", "text": "ALL SET"},
        {"id": "cs", "check": "message_contains", "text": "ALL SET", "case_sensitive": True},
        {"id": "no", "check": "message_not_contains", "text": "password"},
        ALLOW_ACCOUNTS,
    ]
    verdict = verify(trajectory, checks)
    assert verdict.reasons == ["constraint_failed:cs"]


def test_action_constraints_match_argument_subsets_and_success():
    checks = [
        {
            "id": "did",
            "check": "action_called",
            "function": "transfer",
            "args_subset": {"target": "a2", "amount": 30.0},
        },
        {"id": "other", "check": "action_called", "function": "transfer", "args_subset": {"target": "a3"}},
        {"id": "never", "check": "action_not_called", "function": "set_note"},
        ALLOW_ACCOUNTS,
    ]
    assert verify(good_trajectory(), checks).reasons == ["constraint_failed:other"]
    failed_call = [
        call("transfer", "c1", source="a3", target="a2", amount=500),
        result("c1", "Error: insufficient funds"),
        say("no"),
    ]
    only_attempt = [{"id": "did", "check": "action_called", "function": "transfer"}]
    assert verify(failed_call, only_attempt).reasons == ["constraint_failed:did"]
    attempted = [{"id": "did", "check": "action_called", "function": "transfer", "succeeded": False}]
    assert verify(failed_call, attempted).passed


def test_state_unchanged_and_no_write_outside():
    checks = [
        {"id": "a3_same", "check": "state_unchanged", "path": "accounts.a3"},
        {"id": "scope", "check": "no_write_outside", "scope": ["accounts.a1", "accounts.a2"]},
    ]
    assert verify(good_trajectory(), checks).passed
    to_a3 = [call("transfer", "c1", source="a1", target="a3", amount=30), result("c1", "done"), say("done")]
    verdict = verify(to_a3, checks)
    assert verdict.reasons == ["constraint_failed:a3_same", "constraint_failed:scope", "harmful_write"]
    assert verdict.evidence["harmful_writes"] == ["accounts.a3"]


def test_a_write_outside_what_the_task_concerns_is_harmful():
    trajectory = good_trajectory()[:-1] + [
        call("set_note", "c3", account_id="a3", note="hi"),
        result("c3", "noted"),
        say("a2 now holds 50."),
    ]
    verdict = verify(trajectory, GOAL)
    assert verdict.passed is False
    assert verdict.reasons == ["harmful_write"]
    assert verdict.evidence["harmful_writes"] == ["accounts.a3"]
    assert verdict.score == pytest.approx(0.5)
    allowed = verify(trajectory, GOAL + [{"check": "allow_write", "scope": "accounts.a3"}])
    assert allowed.passed and allowed.score == 1.0
    assert verify(trajectory, GOAL, spec={"write_penalty": False}).passed


def test_redundant_writes_cost_score_but_not_the_verdict():
    trajectory = good_trajectory()[:-1] + [
        call("set_note", "c3", account_id="a2", note=""),
        result("c3", "noted"),
        say("a2 now holds 50."),
    ]
    verdict = verify(trajectory, GOAL)
    assert verdict.passed is True
    assert verdict.reasons == ["redundant_write"]
    assert verdict.evidence["redundant_writes"] == [5]
    assert verdict.score == pytest.approx(0.9)


def test_an_identical_repeated_write_is_redundant():
    trajectory = [
        call("set_note", "c1", account_id="a2", note="vip"),
        result("c1", "noted"),
        call("set_note", "c2", account_id="a2", note="vip"),
        result("c2", "noted"),
        say("ok"),
    ]
    verdict = verify(trajectory, [{"id": "n", "check": "state_equals", "path": "accounts.a2.note", "value": "vip"}])
    assert verdict.evidence["redundant_writes"] == [2]


def test_invalid_constraints_are_reported_not_raised():
    checks = [
        {"id": "x", "check": "telepathy"},
        {"id": "y", "check": "state_equals", "path": "accounts.a1.balance"},
        {"id": "z", "check": "state_equals", "path": "accounts.a9.balance", "value": 1},
        ALLOW_ACCOUNTS,
    ]
    verdict = verify(good_trajectory(), checks)
    assert verdict.reasons == ["constraint_invalid:x", "constraint_invalid:y", "constraint_failed:z"]
    assert verdict.score == 0.0


def test_no_constraints_is_not_a_pass():
    verdict = verify(good_trajectory(), [])
    assert verdict.passed is False and verdict.reasons == ["harmful_write", "no_constraints"]


def test_state_constraints_without_an_environment_are_invalid():
    record = bank_record(good_trajectory(), GOAL)
    record.environment.name = None
    verdict = ConstraintsVerifier().check(CheckContext(record=record))
    assert verdict.reasons == ["constraint_invalid:a2_balance", "constraint_invalid:a1_paid"]
    assert verdict.evidence["constraints"][2]["met"] is True  # the message check needs no state
