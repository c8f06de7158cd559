"""The graded reward of a rollout (verifiers/reward.py) on real seed-0 tasks and hand-written scripts: a pass is
1, an answer without its lookups or a policy violation is 0 whatever the end state, and only progress toward the
gold end state earns partial credit."""

from __future__ import annotations

from schemas.record import VerifierResult
from tests.verifiers.labelled_tasks import (
    A,
    cancel_task,
    nadia_total,
    nils_two_goals,
    task,
    tove_cancel,
    two_goal_task,
    verdict,
)
from verifiers.reward import rollout_reward


def order_total_task():
    return task("retail", {"name": "get_order_details", "arguments": {"order_id": "#R3050852"}}, "order_total")


def test_a_bare_closing_without_the_lookup_scores_0_and_the_answer_after_the_lookups_scores_1():
    record = order_total_task()
    bare = verdict(record, [nadia_total()[0], A("You paid 406.72 for that order.")])
    # The number alone meets the task's constraint; grounding fails it. The chain's score (its lowest stage's,
    # grounding's 1 / (1 + 1)) made this 0.5 as a reward.
    assert (bare.passed, bare.score, bare.reasons) == (False, 0.5, ["ungrounded_amount"])
    assert rollout_reward(bare) == 0.0
    looked_up = verdict(record, nadia_total() + [A("You paid $406.72 for order #R3050852.")])
    assert looked_up.passed is True and rollout_reward(looked_up) == 1.0


def test_a_policy_violation_scores_0_even_when_the_end_state_is_the_gold_one():
    result = verdict(cancel_task(), tove_cancel(answer="Hmm, and when would I get my money back?"))
    stages = {s["verifier"]: s["passed"] for s in result.evidence["stages"]}
    assert stages["final_state"] is True and result.reasons == ["write_without_confirmation"]
    assert rollout_reward(result) == 0.0


def test_partial_credit_is_half_the_share_of_gold_rows_reached():
    """Nils asked for a new address and a cancellation; the agent only changes the address, and says only that."""
    closing = A("Your address is now 4723 Iris Place, Apt 269, Boise, ID 83724, USA.")
    result = verdict(two_goal_task(), nils_two_goals()[:6] + [closing])
    assert result.passed is False and result.evidence["final_state"]["missing"] == ["orders.#R1497173"]
    assert len(result.evidence["final_state"]["gold_rows"]) == 2
    assert rollout_reward(result) == 0.25


def test_undecided_unverified_and_imported_verdicts():
    assert rollout_reward(None) == 0.0
    assert rollout_reward(VerifierResult(passed=None, origin="undecided")) == 0.0
    assert rollout_reward(VerifierResult(passed=True, score=0.9)) == 1.0  # a pass is a pass, penalties or not
    assert rollout_reward(VerifierResult(passed=False, score=0.8)) == 0.0  # no stage evidence: no partial credit
