"""The chain: which checks run, the stopping rules read from each stage's declarations, the combined verdict,
and bad input as reason codes."""

from __future__ import annotations

from schemas.record import VerifierResult
from tests.verifiers.scripted_model import ScriptedModel, greeting_record
from tests.verifiers.toy_bank import GOAL, bank_factory, bank_record, call, good_trajectory, result, say
from verifiers.base import CheckContext, RecordVerifier
from verifiers.batch import VerifyStats, reverify
from verifiers.runner import apply_verification, can_decide, plan, run_chain, verify_record


def names(record):
    return [stage.name for stage in plan(record)]


def test_the_chain_follows_the_verifier_kind():
    chain = ["structure", "replay", "constraints", "grounding", "statements", "policy"]
    assert names(bank_record(good_trajectory(), GOAL)) == chain
    assert names(bank_record(good_trajectory(), kind="state_hash")) == ["structure", "replay"]
    assert names(bank_record(good_trajectory(), kind="answer_match")) == ["structure", "answer_match"]
    assert names(bank_record([say("42")], kind="answer_match")) == ["answer_match"]
    assert names(bank_record(good_trajectory(), GOAL, spec={"judge": True})) == [*chain, "llm_judge"]
    assert names(bank_record(good_trajectory(), kind="none")) == []


def test_a_good_record_passes_with_every_stage_in_the_evidence():
    verdict = verify_record(bank_record(good_trajectory(), GOAL), bank_factory)
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])
    assert verdict.version == "structure@1+replay@1+constraints@3+grounding@7+statements@3+policy@5"
    assert [s["verifier"] for s in verdict.evidence["stages"]] == [
        "structure",
        "replay",
        "constraints",
        "grounding",
        "statements",
        "policy",
    ]
    assert verdict.origin == "computed"
    assert len(verdict.evidence["replay"]["final_state_hash"]) == 64


def test_a_structure_failure_stops_the_chain_with_score_zero():
    trajectory = [call("rob_bank", "c1"), result("c1", "done"), say("done")]
    verdict = verify_record(bank_record(trajectory, GOAL), bank_factory)
    assert (verdict.passed, verdict.score, verdict.reasons) == (False, 0.0, ["unknown_tool"])
    assert [s["verifier"] for s in verdict.evidence["stages"]] == ["structure"]


def _after_a_bad_call(rest: list) -> list:
    """A transfer with a string amount, answered by an error (as a rollout answers it), then ``rest``."""
    bad = call("transfer", "c0", source="a1", target="a2", amount="30")
    error = result("c0", "Error: invalid arguments for transfer: amount: '30' is not of type 'number'")
    return [bad, error, *rest]


def test_a_bad_call_answered_by_an_error_and_then_put_right_passes_with_the_error_recorded():
    verdict = verify_record(bank_record(_after_a_bad_call(good_trajectory()[1:]), GOAL), bank_factory)
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])
    assert verdict.evidence["structure"]["recovered_errors"] == {"count": 1, "steps": [0]}
    assert verdict.evidence["replay"]["tool_errors"] == 1


def test_a_bad_call_never_put_right_fails_on_the_end_state():
    verdict = verify_record(
        bank_record(_after_a_bad_call([say("Sorry, I could not move the money.")]), GOAL), bank_factory
    )
    assert verdict.passed is False
    assert verdict.reasons == ["constraint_failed:a2_balance", "constraint_failed:a1_paid", "constraint_failed:told"]
    assert verdict.evidence["structure"]["recovered_errors"] == {"count": 1, "steps": [0]}


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
    model = ScriptedModel('{"score": 0.2}')
    record = bank_record(good_trajectory(), GOAL, spec={"judge": True})
    verdict = verify_record(record, bank_factory, model)
    assert verdict.reasons == ["judge_failed"] and verdict.score == 0.2 and len(model.requests) == 1
    assert verdict.evidence["llm_judge"]["model"] == ScriptedModel.model_id
    failing = bank_record(
        [call("transfer", "c1", source="a1", target="a2", amount=1), result("c1", "done"), say("x")],
        GOAL,
        spec={"judge": True},
    )
    verify_record(failing, bank_factory, model)
    assert len(model.requests) == 1  # not asked again


def test_without_a_model_the_deterministic_verdict_stands_and_the_judge_is_reported_unavailable():
    verdict = verify_record(bank_record(good_trajectory(), GOAL, spec={"judge": True}), bank_factory)
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, ["judge_unavailable"])


class Probe(RecordVerifier):
    """A stage with given declarations and a fixed verdict; it counts its runs."""

    def __init__(self, name: str, passed: bool, hard=False, needs_env=False, needs_model=False):
        self.name, self.passed, self.runs = name, passed, 0
        self.hard, self.needs_env, self.needs_model = hard, needs_env, needs_model

    def check(self, ctx: CheckContext) -> VerifierResult:
        self.runs += 1
        return self.result(
            self.passed, score=0.5 if not self.passed else None, reasons=[] if self.passed else [self.name]
        )


def run(*stages, env_factory=bank_factory, model=None):
    context = CheckContext(record=bank_record(good_trajectory(), GOAL), env_factory=env_factory, model=model)
    return run_chain(list(stages), context)


def test_the_runner_reads_hard_from_the_stage_not_its_name():
    gate, later = Probe("gate", False, hard=True), Probe("later", True)
    verdict = run(gate, later)
    assert (verdict.passed, verdict.score, verdict.reasons, later.runs) == (False, 0.0, ["gate"], 0)
    soft = Probe("soft", False)
    verdict = run(soft, later)
    assert (verdict.passed, verdict.score, verdict.reasons, later.runs) == (False, 0.5, ["soft"], 1)


def test_a_stage_that_needs_a_model_gets_it_and_runs_only_after_every_earlier_stage_passed():
    asks = Probe("asks", True, needs_model=True)
    verdict = run(Probe("ok", True), asks, model=ScriptedModel())
    assert (verdict.passed, asks.runs) == (True, 1)
    run(Probe("soft", False), asks, model=ScriptedModel())
    assert asks.runs == 1
    unavailable = run(asks)
    assert (unavailable.passed, unavailable.reasons, asks.runs) == (None, ["model_unavailable"], 1)


def test_without_an_environment_stages_that_need_one_have_no_verdict_and_a_hard_one_stops_undecided():
    verdict = verify_record(bank_record(good_trajectory(), GOAL), env_factory=None)
    assert (verdict.passed, verdict.score, verdict.reasons) == (None, None, ["environment_unavailable"])
    assert [(s["verifier"], s["passed"]) for s in verdict.evidence["stages"]] == [("structure", True), ("replay", None)]
    soft = Probe("needs_env", True, needs_env=True)
    verdict = run(Probe("ok", True), soft, env_factory=None)
    assert (verdict.passed, verdict.reasons, soft.runs) == (True, ["environment_unavailable"], 0)


def test_a_record_is_decidable_only_with_what_its_chain_needs():
    assert can_decide(bank_record(good_trajectory(), GOAL), bank_factory)
    assert not can_decide(bank_record(good_trajectory(), GOAL), None)  # replay (hard) cannot run
    assert not can_decide(greeting_record())  # the judge alone, no model
    assert can_decide(greeting_record(), model=ScriptedModel())
    assert can_decide(bank_record(good_trajectory(), GOAL, spec={"judge": True}), bank_factory)
    assert not can_decide(bank_record(good_trajectory(), kind="none"))


def test_reverify_keeps_the_stored_verdict_of_a_record_it_cannot_decide():
    stored = greeting_record()
    stored.verifier.result = VerifierResult(passed=True, score=1.0, verifier="old")
    stats = VerifyStats()
    [kept] = reverify([stored], stats)
    assert kept is stored and (stats.skipped, stats.verified) == (1, 0)
    stats = VerifyStats()
    [judged] = reverify([stored], stats, model=ScriptedModel("FAIL"))
    assert judged.verifier.result.reasons == ["judge_failed"] and (stats.failed, stats.verdicts_changed) == (1, 1)


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
    assert verified.verifier.version == "structure@1+replay@1+constraints@3+grounding@7+statements@3+policy@5"
    assert record.verifier.result is None
    unverifiable = bank_record(good_trajectory(), kind="none")
    assert apply_verification(unverifiable, bank_factory) is unverifiable


def test_a_judge_whose_backend_fails_leaves_the_verdict_undecided_never_failed():
    record = bank_record(good_trajectory(), GOAL, spec={"judge": True})
    verdict = verify_record(record, bank_factory, ScriptedModel(raises=ConnectionError("server down")))
    assert (verdict.passed, verdict.score, verdict.origin) == (None, None, "undecided")
    assert verdict.reasons == ["judge_error"]
    assert verdict.provenance == "undecided"


def test_a_gate_that_stops_at_the_first_failure_gets_the_same_pass_or_fail():
    """Synthesis's trivial-agent gate only needs pass or fail: the chain may stop at the first failed stage."""
    failing = [call("transfer", "c1", source="a1", target="a2", amount=30), result("c1", "done"), say("done")]
    full = verify_record(bank_record(failing, GOAL), bank_factory)
    quick = verify_record(bank_record(failing, GOAL), bank_factory, first_failure=True)
    ran = lambda verdict: [stage["verifier"] for stage in verdict.evidence["stages"]]  # noqa: E731
    assert full.passed is quick.passed is False and quick.reasons == ["constraint_failed:told"]
    assert ran(quick)[-1] == "constraints" and len(ran(quick)) < len(ran(full))
    passing = verify_record(bank_record(good_trajectory(), GOAL), bank_factory, first_failure=True)
    assert passing.passed is True and ran(passing) == ran(
        verify_record(bank_record(good_trajectory(), GOAL), bank_factory)
    )
