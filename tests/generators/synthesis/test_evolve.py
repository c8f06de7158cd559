"""Complexity evolution: composites keep their parents' constraints (the union), refusal variants forbid the write
their parent made, and every evolved task's gold passes the verifier chain from the record alone."""

from __future__ import annotations

from collections import defaultdict

import pytest

from generators.synthesis.backward import run_backward
from generators.synthesis.config import SynthBackwardConfig, SynthEvolveConfig, SynthTasksConfig
from generators.synthesis.evolve import run_evolve
from generators.synthesis.stages import run_tasks
from tests.generators.synthesis.helpers import gold_verdict, rollout_of
from verifiers.runner import verify_record


def _kept(constraints: list[dict]) -> list[dict]:
    """A task's constraints that a composite keeps verbatim (the scope guard and permissions grow with it)."""
    return [c for c in constraints if c.get("id") not in (None, "guard.scope")]


@pytest.fixture(scope="module", params=("retail", "airline"))
def evolved(request):
    tasks, _ = run_tasks(SynthTasksConfig(env=request.param, n=40, constraints="1-3", seed=4), "tasks")
    records, stats = run_evolve(tasks, SynthEvolveConfig(), "harder")
    assert stats.made == 80 and stats.made == stats.kept + stats.as_dict()["rejected"]
    return {t.id: t for t in tasks}, records


def test_every_evolved_task_is_solved_by_its_gold(evolved):
    _, records = evolved
    assert {r.task.metadata["evolution"] for r in records} == {"compose", "refuse"}
    for record in records:
        verdict = gold_verdict(record)
        assert (verdict.passed, verdict.reasons) == (True, []), (record.id, verdict.evidence)


def test_a_composite_holds_the_union_of_its_parts(evolved):
    parents, records = evolved
    for record in (r for r in records if r.task.metadata["evolution"] == "compose"):
        parent = parents[record.lineage.parents[0]]
        assert record.task.metadata["goals"][: len(parent.task.metadata["goals"])] == parent.task.metadata["goals"]
        assert len(record.task.metadata["goals"]) > len(parent.task.metadata["goals"])
        for constraint in _kept(parent.task.constraints):
            assert constraint in record.task.constraints
        assert record.task.metadata["complexity"] > parent.task.metadata["complexity"] - ("guard.scope" in repr(parent))


def test_a_refusal_variant_forbids_what_its_parent_did(evolved):
    parents, records = evolved
    refusals = [r for r in records if r.task.metadata["evolution"] == "refuse"]
    assert refusals
    for record in refusals:
        parent = parents[record.lineage.parents[0]]
        assert record.task.expected_outputs["outcome"] in ("refusal", "write")
        assert "refusal" in {goal["outcome"] for goal in record.task.metadata["goals"]}
        # the parent's gold does the write the variant forbids: replayed on the variant, it fails
        verdict = verify_record(rollout_of(record, actions=parent.task.expected_outputs["gold_actions"]))
        assert verdict.passed is False, record.id


def test_two_stored_tasks_of_one_user_compose_into_one():
    tasks, _ = run_tasks(SynthTasksConfig(env="retail", n=200, constraints="1-2", seed=11), "tasks")
    by_user = defaultdict(list)
    for task in tasks:
        by_user[task.task.metadata["identity"]["user_id"]].append(task)
    pairs = [group[:2] for group in by_user.values() if len(group) > 1]
    assert pairs
    composed = 0
    for first, second in pairs:
        records, _ = run_evolve([first, second], SynthEvolveConfig(ops=["compose"]), "pair")
        both = [r for r in records if r.lineage.parents == [first.id, second.id]]
        for record in both:
            # the second task's goals come after the first's, so only their ids (g0 -> g1) change
            mine = [{**c, "id": c["id"].split(".")[-1]} for c in record.task.constraints if "id" in c]
            for c in _kept(first.task.constraints + second.task.constraints):
                assert {**c, "id": c["id"].split(".")[-1]} in mine
            assert gold_verdict(record).passed
        composed += len(both)
    assert composed >= 1


def test_records_that_are_not_synthesized_tasks_are_counted_not_fatal():
    pairs, _ = run_backward(SynthBackwardConfig(env="retail", n=2), "back")
    tasks, _ = run_tasks(SynthTasksConfig(env="retail", n=2), "tasks")
    records, stats = run_evolve([*pairs, *tasks], SynthEvolveConfig(ops=["compose"]), "mixed")
    assert stats.as_dict()["rejected_by_reason"].get("not_a_synthesized_task") == 2
    assert stats.made == 4 and len(records) == stats.kept
