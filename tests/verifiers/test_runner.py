"""The chain: which checks run, the stopping rule, the combined verdict, and bad input as reason codes."""

from __future__ import annotations

from tests.verifiers.test_llm_judge import FakeModel
from tests.verifiers.toy_bank import GOAL, bank_factory, bank_record, call, good_trajectory, result, say
from verifiers.runner import apply_verification, plan, verify_record


def names(record, judge=None):
    return [stage.name for stage in plan(record, judge)]


def test_the_chain_follows_the_verifier_kind():
    assert names(bank_record(good_trajectory(), GOAL)) == ["structure", "replay", "constraints"]
    assert names(bank_record(good_trajectory(), kind="state_hash")) == ["structure", "replay"]
    assert names(bank_record(good_trajectory(), kind="answer_match")) == ["structure", "answer_match"]
    assert names(bank_record([say("42")], kind="answer_match")) == ["answer_match"]
    assert names(bank_record(good_trajectory(), GOAL, spec={"judge": True})) == [
        "structure",
        "replay",
        "constraints",
        "llm_judge",
    ]
    assert names(bank_record(good_trajectory(), kind="none")) == []


def test_a_good_record_passes_with_every_stage_in_the_evidence():
    verdict = verify_record(bank_record(good_trajectory(), GOAL), bank_factory)
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])
    assert verdict.version == "structure@1+replay@1+constraints@1"
    assert [s["verifier"] for s in verdict.evidence["stages"]] == ["structure", "replay", "constraints"]
    assert len(verdict.evidence["replay"]["final_state_hash"]) == 64


def test_a_structure_failure_stops_the_chain_with_score_zero():
    trajectory = [call("rob_bank", "c1"), result("c1", "done"), say("done")]
    verdict = verify_record(bank_record(trajectory, GOAL), bank_factory)
    assert (verdict.passed, verdict.score, verdict.reasons) == (False, 0.0, ["unknown_tool"])
    assert [s["verifier"] for s in verdict.evidence["stages"]] == ["structure"]


def test_a_trajectory_through_a_state_it_never_reached_fails_in_replay():
    trajectory = [call("transfer", "c1", source="a3", target="a2", amount=30), result("c1", "done"), say("a2 has 50")]
    verdict = verify_record(bank_record(trajectory, GOAL), bank_factory)
    assert verdict.reasons == ["replay_mismatch"] and verdict.score == 0.0


def test_outcome_failures_keep_their_partial_score():
    trajectory = [call("transfer", "c1", source="a1", target="a2", amount=30), result("c1", "done"), say("done")]
    verdict = verify_record(bank_record(trajectory, GOAL), bank_factory)
    assert verdict.reasons == ["constraint_failed:told"]
    assert round(verdict.score, 4) == 0.6667


def test_an_exception_inside_a_check_becomes_a_reason_code():
    def broken_factory(name, **kwargs):
        raise TypeError("factory exploded")

    verdict = verify_record(bank_record(good_trajectory(), GOAL), broken_factory)
    assert verdict.passed is False
    assert verdict.reasons == ["verifier_error:TypeError"]
    bad_mode = bank_record([say("x")], kind="answer_match", spec={"answer_match": {"mode": "fuzzy"}})
    bad_mode.task.expected_outputs = {"answer": "x"}
    assert verify_record(bad_mode).reasons == ["verifier_error:ValueError"]


def test_the_judge_runs_last_and_only_after_every_check_passed():
    model = FakeModel('{"score": 0.2}')
    record = bank_record(good_trajectory(), GOAL, spec={"judge": True})
    verdict = verify_record(record, bank_factory, judge=model)
    assert verdict.reasons == ["judge_failed"] and verdict.score == 0.2 and len(model.seen) == 1
    failing = bank_record(
        [call("transfer", "c1", source="a1", target="a2", amount=1), result("c1", "done"), say("x")],
        GOAL,
        spec={"judge": True},
    )
    verify_record(failing, bank_factory, judge=model)
    assert len(model.seen) == 1  # not asked again


def test_a_record_without_a_deterministic_check_is_not_verifiable():
    verdict = verify_record(bank_record(good_trajectory(), kind="reward"))
    assert (verdict.passed, verdict.reasons) == (None, ["not_verifiable"])


def test_a_judge_kind_without_a_model_has_no_verdict():
    verdict = verify_record(bank_record(good_trajectory(), kind="judge"))
    assert (verdict.passed, verdict.reasons) == (None, ["judge_unavailable"])


def test_apply_verification_fills_v_and_leaves_the_input_alone():
    record = bank_record(good_trajectory(), GOAL)
    verified = apply_verification(record, bank_factory)
    assert verified.verifier.result.passed is True
    assert verified.verifier.version == "structure@1+replay@1+constraints@1"
    assert record.verifier.result is None
    unverifiable = bank_record(good_trajectory(), kind="none")
    assert apply_verification(unverifiable, bank_factory) is unverifiable
