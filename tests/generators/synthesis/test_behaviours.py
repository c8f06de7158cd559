"""Behaviours of the simulated user, stored in the scenario: which fit a draft, and the oracle with the scripted
user on synthesized tasks that carry them (a change of mind, a push back on a refusal): it passes the verifier,
the decisions are recorded, and an agent that carries out the first request of a change of mind fails."""

from __future__ import annotations

import random

import pytest

from generators.rollouts.oracle import CHECKED_AGAIN
from generators.rollouts.scripted_user import in_first_person, sentence
from generators.synthesis.behaviours import alternative_goal, assign_behaviours
from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.drafts import TaskDraft, conflict
from generators.synthesis.records import Provenance, Solved, finish_records
from generators.synthesis.stats import SynthStats
from generators.synthesis.synthesizer import TaskSynthesizer, synthesize_drafts
from schemas.steps import MessageAction, TextObservation
from tests.generators.rollouts.helpers import roll
from tests.generators.synthesis.helpers import rollout_of
from verifiers.decisions import decide
from verifiers.runner import verify_record


@pytest.fixture(scope="module", params=["retail", "airline"])
def solved(request):
    """40 solved drafts of seed 0 in a 500-user world, and their synthesizer."""
    synth = TaskSynthesizer(request.param)
    cfg = SynthTasksConfig(env=request.param, n=40, seed=0)
    drafts = synthesize_drafts(
        synth, cfg.n, cfg.constraint_range(), synth.domain.kinds(), cfg.seed, cfg.max_attempts, SynthStats()
    )
    return synth, cfg, drafts


def task_of(synth, cfg, draft, gold, rng):
    (record,) = finish_records(
        [Solved(draft, gold, rng, synth.environment)],
        cfg,
        Provenance("constraint_first", "1", 0, "unit", "h"),
        SynthStats(),
    )
    return record


def with_alternative(synth, drafts, seed: int):
    """The first solved draft with an alternative for a change of mind: (draft, gold, rng, (index, goal))."""
    for draft, gold, rng in drafts:
        alternative = alternative_goal(synth.domain, synth.world, draft, random.Random(seed))
        if alternative is not None:
            return draft, gold, rng, alternative
    raise AssertionError("no draft has an alternative")


def unrecorded(record):
    """The rollout with no decision recorded beside its user turns: the verifier reads their words."""
    steps = [
        s.model_copy(update={"decision": None}) if isinstance(s, TextObservation) else s for s in record.trajectory
    ]
    return record.model_copy(update={"trajectory": steps})


def user_turns(record) -> list[TextObservation]:
    return [s for s in record.trajectory if isinstance(s, TextObservation) and s.source == "user"]


def test_one_fitting_behaviour_is_drawn_and_round_trips_through_the_task(solved):
    synth, cfg, drafts = solved
    outcomes = [{goal.outcome for goal in draft.goals} for draft, _, _ in drafts]
    read_only = next(draft for (draft, _, _), found in zip(drafts, outcomes) if found == {"read"})
    refused = next(draft for (draft, _, _), found in zip(drafts, outcomes) if "refusal" in found)
    assert assign_behaviours(read_only, random.Random(0)) == []
    assert assign_behaviours(refused, random.Random(0)) == [{"kind": "insist_once"}]
    draft, gold, rng, (index, other) = with_alternative(synth, drafts, 1)
    goal = draft.goals[index]
    assert (other.kind, goal.outcome) == (goal.kind, "write") and other.params != goal.params
    assert conflict(draft.goals, other) is None  # it touches none of the task's rows
    assert alternative_goal(synth.domain, synth.world, draft, random.Random(1))[1].params == other.params
    picked = [assign_behaviours(draft, random.Random(seed), (index, other)) for seed in range(20)]
    change = {"kind": "change_mind", "goal": index, "first_request": other.request, "request": goal.request}
    assert change in [p[0] for p in picked] and all(len(p) == 1 for p in picked)
    draft.behaviours = [change]
    record = task_of(synth, cfg, draft, gold, rng)
    assert record.task.user_scenario["behaviours"] == [change]
    assert TaskDraft.from_metadata(synth.domain.name, record.task.metadata).behaviours == [change]
    assert any(other.request in rule for rule in record.task.user_scenario["instructions"])


def test_a_user_who_changes_their_mind_gets_the_final_request_and_the_first_one_fails(solved):
    synth, cfg, drafts = solved
    draft, gold, rng, (index, other) = with_alternative(synth, drafts, 2)
    request = draft.goals[index].request
    draft.behaviours = [{"kind": "change_mind", "goal": index, "first_request": other.request, "request": request}]
    task = task_of(synth, cfg, draft, gold, rng)
    (record,), _ = roll([task], k=1)
    opening, change = user_turns(record)[:2]
    # The requests as the user says them (clauses in the second person, turned into the first; a frame may
    # start its sentence with one).
    first, final = (in_first_person(sentence(text))[:-1].lower() for text in (other.request, request))
    assert first in opening.content.lower() and final not in opening.content.lower()
    assert "changed my mind" in change.content and final in change.content.lower()
    assert change.decision["kind"] == "change_request"
    # Read from the words alone, the change is no consent: a refusal, or a condition when the new request has one.
    assert decide(change.content) in ("refusal", "condition")
    result = record.verifier.result
    assert (result.passed, result.reasons, record.details["end_reason"]) == (True, [], "done")
    assert verify_record(unrecorded(record)).passed  # the words alone say the same
    carried_out = rollout_of(task, [*draft.identity.actions, *other.actions], other.reply)  # the first request
    verdict = verify_record(carried_out)
    assert verdict.passed is False and "unrequested_change" in verdict.reasons


def test_a_user_who_insists_once_gets_the_refusal_again_and_accepts_it(solved):
    synth, cfg, drafts = solved
    refused = [(d, g, r) for d, g, r in drafts if any(goal.outcome == "refusal" for goal in d.goals)]
    for draft, _, rng in refused:
        draft.behaviours = assign_behaviours(draft, rng)
    records, summary = roll([task_of(synth, cfg, *item) for item in refused], k=1)
    assert len(records) >= 5 and summary.passed == len(records)
    for record in records:
        decisions = [turn.decision["kind"] for turn in user_turns(record)]
        assert decisions.count("insist") == 1 and "consent" not in decisions[decisions.index("insist") :]
        assert verify_record(unrecorded(record)).passed
        messages = [s.content for s in record.trajectory if isinstance(s, MessageAction)]
        assert messages[-1].startswith(CHECKED_AGAIN) and not messages[-2].startswith(CHECKED_AGAIN)
        assert record.details["end_reason"] == "done"
