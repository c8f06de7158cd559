"""Conditional goals and the difficulty ladder: the database decides the branch, the user never hears which,
the verifier checks the branch taken, and ``--difficulty`` draws levels in fixed shares."""

from __future__ import annotations

import copy
import random
import re

import pytest

from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.drafts import TaskDraft
from generators.synthesis.levels import LEVELS, level_sequence, parse_mix
from generators.synthesis.retail.conditions import CancelOrReturn
from generators.synthesis.stages import run_tasks
from generators.synthesis.synthesizer import TaskSynthesizer
from schemas.stage_config import ConfigError
from tests.generators.synthesis.helpers import rollout_of
from verifiers.runner import verify_record


@pytest.fixture(scope="module")
def retail() -> TaskSynthesizer:
    return TaskSynthesizer("retail")


def with_status(synth: TaskSynthesizer, order_id: str, status: str):
    """The synthesizer's world with one order row's status changed (the cached snapshot is left alone)."""
    world = copy.copy(synth.world)
    orders = dict(world.tables["orders"])
    orders[order_id] = {**orders[order_id], "status": status}
    world.tables = {**world.tables, "orders": orders}
    return world


def a_delivered_order(synth: TaskSynthesizer) -> tuple[str, dict]:
    spec = CancelOrReturn()
    for user_id in synth.world.user_ids:
        params = spec.sample(synth.world, user_id, random.Random(0))
        if params and synth.world.row("orders", params["order_id"])["status"] == "delivered":
            return user_id, params
    raise AssertionError("no user with a delivered order")


def test_the_branch_flips_with_one_database_row_and_the_user_is_told_the_same(retail):
    user_id, params = a_delivered_order(retail)
    oid = params["order_id"]
    delivered = CancelOrReturn().build(retail.world, params, random.Random(1))
    pending = CancelOrReturn().build(with_status(retail, oid, "pending"), params, random.Random(1))

    assert delivered.condition == {"if": "the order has not shipped yet", "holds": False}
    assert pending.condition == {"if": "the order has not shipped yet", "holds": True}
    assert delivered.actions[-1]["name"] == "return_delivered_order_items"
    assert pending.actions[-1] == {
        "name": "cancel_pending_order",
        "arguments": {"order_id": oid, "reason": params["reason"]},
    }
    # What the user says and knows is the same in both worlds: the condition, never the outcome.
    assert delivered.request == pending.request and delivered.summary == pending.summary
    assert delivered.known_info == pending.known_info
    for text in (delivered.request, delivered.summary, *delivered.known_info.values()):
        assert "pending order" not in text and "delivered order" not in text
    # The verifier checks the branch taken: each branch's constraints and the other's write forbidden.
    checks = {(c["check"], c.get("path", c.get("function"))) for c in pending.constraints}
    assert ("state_equals", f"orders.{oid}.status") in checks
    assert ("action_not_called", "return_delivered_order_items") in checks


def test_the_verifier_fails_the_branch_that_does_not_hold(retail):
    records, _ = run_tasks(SynthTasksConfig(n=6, goals=["cancel_or_return"], difficulty="4", seed=2), "unit")
    flipped = 0
    for record in records:
        goal = record.task.metadata["goals"][0]
        assert goal["condition"]["if"] == "the order has not shipped yet"
        gold = record.task.expected_outputs["gold_actions"]
        assert verify_record(rollout_of(record, actions=gold)).passed
        oid = goal["params"]["order_id"]
        if goal["condition"]["holds"]:  # pending: returning its items instead is the wrong branch
            other = {"name": "return_delivered_order_items", "arguments": {"order_id": oid}}
            other["arguments"] |= {k: goal["params"][k] for k in ("item_ids", "payment_method_id")}
        else:  # delivered: a cancellation (the world refuses it, but the agent still tried the wrong branch)
            other = {"name": "cancel_pending_order", "arguments": {"order_id": oid, "reason": goal["params"]["reason"]}}
        wrong = [*[a for a in gold if a["name"] not in ("cancel_pending_order", "return_delivered_order_items")], other]
        assert not verify_record(rollout_of(record, actions=wrong)).passed
        flipped += goal["condition"]["holds"]
    assert 0 < flipped < len(records), "both branches should occur among the tasks"


def test_no_task_text_says_which_branch_holds():
    records, _ = run_tasks(SynthTasksConfig(env="airline", n=12, difficulty="4", seed=1), "unit")
    assert {r.task.metadata["level"] for r in records} == {4}
    for record in records:
        first = record.task.metadata["goals"][0]
        assert first["condition"] is not None
        said = " ".join([record.task.instruction, record.task.user_scenario["reason"]])
        said += " ".join(str(v) for v in record.task.user_scenario["known_info"].values())
        assert re.search(r"\b(if|otherwise|unless|in case)\b", first["request"])
        assert first["request"].lower() in record.task.user_scenario["reason"].lower()
        # The kept branch's reply ("would cost $40.00, so I have left it") is never what the user is told.
        assert record.task.expected_outputs["gold_reply"] not in said


def test_the_difficulty_mix_is_drawn_in_its_shares():
    assert parse_mix("4") == {4: 1.0}
    assert parse_mix("1,3") == {1: 0.5, 3: 0.5}
    levels = level_sequence(parse_mix("1:0.1,2:0.1,3:0.35,4:0.45"), 20, random.Random(0))
    assert sorted(levels) == [1, 1, 2, 2, *[3] * 7, *[4] * 9]
    with pytest.raises(ConfigError, match="levels 1-4"):
        SynthTasksConfig.from_mapping({"difficulty": "5"})


def test_each_level_has_its_shape():
    records, _ = run_tasks(SynthTasksConfig(n=40, seed=3), "unit")
    by_level: dict[int, list] = {}
    for record in records:
        by_level.setdefault(record.task.metadata["level"], []).append(record.task.metadata["goals"])
    assert set(by_level) == {1, 2, 3, 4}
    assert all(len(goals) == 1 and goals[0]["outcome"] == "read" for goals in by_level[1])
    assert all(len(goals) == 1 and goals[0]["outcome"] in ("write", "refusal") for goals in by_level[2])
    assert all(2 <= len(goals) <= 4 and goals[0]["outcome"] == "write" for goals in by_level[3])
    assert all(goals[0]["condition"] is not None for goals in by_level[4])
    assert not any(goal["condition"] for goals in by_level[3] for goal in goals)


def test_a_draft_keeps_its_level_through_the_record(retail):
    draft = retail.draft(random.Random(5), 1, 3, retail.domain.kinds(), LEVELS[4])
    draft.level = 4
    again = TaskDraft.from_metadata("retail", draft.to_metadata())
    assert again.level == 4 and again.goals[0].condition == draft.goals[0].condition
