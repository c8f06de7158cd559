"""Failure labels on hand-built failing trajectories of the retail cancel task: the step and the reason of the
first failed check, and the counts per task kind."""

from __future__ import annotations

from schemas.record import VerifierResult
from tests.training.helpers import oracle_rollout, retail_cancel_task
from verifiers.failure_labels import FailureLabel, count_by_kind, first_failure, label_rows
from verifiers.runner import verify_record


def verified(record):
    record.verifier.result = verify_record(record)
    return record


def test_a_write_without_confirmation_is_labelled_at_the_write_call():
    rollout = oracle_rollout(retail_cancel_task())
    # 0 user, 1 lookup, 2 its result, 3 confirmation, 4 user's yes, 5 cancel call, 6 result, 7 reply
    del rollout.trajectory[3:5]  # the cancel call moves to step 3, with no confirmation before it
    label = first_failure(verify_record(rollout), "user_stop")
    assert label == FailureLabel("policy", "write_without_confirmation", 3, "user_stop")
    assert label.code == "policy:write_without_confirmation"


def test_a_claim_made_without_the_write_is_labelled_at_the_claim_not_at_the_end_state():
    rollout = oracle_rollout(retail_cancel_task())
    del rollout.trajectory[3:7]  # no confirmation, no cancel: the reply "Your order is cancelled" is now step 3
    result = verify_record(rollout)
    assert result.reasons[0] == "missing_change"  # final_state fails first in the chain, but points at no step
    assert first_failure(result) == FailureLabel("grounding", "ungrounded_fact", 3)


def test_an_unlocated_failure_names_the_first_failed_stage_without_a_step():
    result = VerifierResult(
        passed=False,
        reasons=["missing_change", "constraint_failed:cancelled"],
        evidence={
            "stages": [
                {"verifier": "structure", "passed": True, "reasons": []},
                {"verifier": "final_state", "passed": False, "reasons": ["missing_change"]},
                {"verifier": "constraints", "passed": False, "reasons": ["constraint_failed:cancelled"]},
                {"verifier": "policy", "passed": False, "reasons": ["refusal_ungrounded"]},
            ],
            "policy": {"violations": [{"step": None, "rule": "refusal_ungrounded"}]},
        },
    )
    assert first_failure(result, "max_turns") == FailureLabel("final_state", "missing_change", None, "max_turns")


def test_passed_and_undecided_verdicts_have_no_label():
    assert first_failure(VerifierResult(passed=True)) is None
    assert first_failure(VerifierResult(passed=None)) is None
    assert first_failure(None) is None


def test_labels_are_counted_per_task_kind():
    task = retail_cancel_task()
    good = verified(oracle_rollout(task, "good"))
    unconfirmed = oracle_rollout(task, "unconfirmed")
    del unconfirmed.trajectory[3:5]
    claimed = oracle_rollout(task, "claimed")
    del claimed.trajectory[3:7]
    other = oracle_rollout(task, "other")
    del other.trajectory[3:5]
    other.task.metadata["task_kind"] = "cancel+order_status"
    rows = label_rows([good, *(verified(r) for r in (unconfirmed, claimed, other))])
    assert [(row["id"], row["step"]) for row in rows] == [("unconfirmed", 3), ("claimed", 3), ("other", 3)]
    assert count_by_kind(rows) == {
        "cancel": {"policy:write_without_confirmation": 1, "grounding:ungrounded_fact": 1},
        "cancel+order_status": {"policy:write_without_confirmation": 1},
    }
