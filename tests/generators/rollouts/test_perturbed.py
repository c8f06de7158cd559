"""The perturbed agent: each seeded fault is recorded in lineage and fails the constraint it should."""

import random

from generators.rollouts.perturbed import mutate
from tests.generators.rollouts.helpers import IVO, balance_task, cancel_task, roll
from tests.verifiers.retail_cancel import ORDER


def test_a_wrong_argument_fails_on_the_cancel_reason_constraint():
    records, summary = roll([cancel_task()], k=3, agent="perturbed", faults=["wrong_argument"])
    for record in records:
        fault = record.lineage.generator["faults"]
        # the write's enum argument is the one changed: the only other allowed cancel reason
        assert fault == [
            {
                "kind": "wrong_argument",
                "action": 2,
                "tool": "cancel_pending_order",
                "argument": "reason",
                "from": "ordered by mistake",
                "to": "no longer needed",
            }
        ]
        result = record.verifier.result
        # The end state differs from the gold's (another cancel reason), and so does the checked field.
        assert result.passed is False and result.reasons == ["wrong_change", "constraint_failed:reason"]
        assert result.evidence["final_state"]["wrong"] == {
            "orders.#R5683800": [
                {"field": "cancel_reason", "expected": '"ordered by mistake"', "actual": '"no longer needed"'}
            ]
        }
    assert summary.faults == {"wrong_argument": 3} and summary.failed == 3


def test_an_early_end_claims_success_without_the_write():
    record = roll([cancel_task()], k=1, agent="perturbed", faults=["early_end"])[0][0]
    fault = record.lineage.generator["faults"][0]
    assert fault["kind"] == "early_end" and "cancel_pending_order" in fault["dropped"]
    assert record.verifier.result.passed is False
    assert {"constraint_failed:cancelled", "constraint_failed:reason", "constraint_failed:refund"} <= set(
        record.verifier.result.reasons
    )
    assert record.details["end_reason"] == "done"


def test_an_extra_write_is_a_real_unrequested_change_and_is_harmful():
    records, _ = roll([balance_task()], k=2, agent="perturbed", faults=["extra_write"])
    for record in records:
        fault = record.lineage.generator["faults"][0]
        assert fault["kind"] == "extra_write" and fault["tool"] in {t.name for t in record.environment.tools}
        assert record.verifier.result.passed is False and "harmful_write" in record.verifier.result.reasons
        harmful = record.verifier.result.evidence["constraints"]["harmful_writes"]
        assert harmful and all(row.startswith(("orders.#R", f"users.{IVO}")) for row in harmful)


def test_a_skipped_identity_lookup_makes_the_write_fail():
    # only reads can be skipped; the first one (the lookup) is what the cancellation needs
    outcomes = {}
    for seed in range(6):
        record = roll([cancel_task()], k=1, agent="perturbed", faults=["skipped_read"], seed=seed)[0][0]
        fault = record.lineage.generator["faults"][0]
        outcomes[fault["tool"]] = record.verifier.result
    assert set(outcomes) == {"find_user_id_by_email", "get_order_details"}
    assert outcomes["find_user_id_by_email"].passed is False
    # The user gave the order id and the confirmation names the money the cancellation moves: reading the order
    # was not needed, and nothing the agent said or used goes unshown.
    assert outcomes["get_order_details"].passed is True


def test_mutations_keep_the_type_and_change_the_value():
    rng = random.Random(0)
    assert mutate("ordered by mistake", {"enum": ["no longer needed", "ordered by mistake"]}, rng) == "no longer needed"
    assert mutate(ORDER, {"type": "string"}, rng) == "#R5683801"
    assert mutate(3, {}, rng) == 4 and mutate(True, {}, rng) is False
    assert mutate(["a0", "b"], {"items": {}}, rng) == ["a1", "b"]
    assert mutate([], {}, rng) is None
