"""Behaviours of the simulated user, stored in the scenario: which fit a draft, and the oracle with the scripted
user on synthesized tasks that carry them (a change of mind, a push back on a refusal): it passes the verifier,
the decisions are recorded, and an agent that carries out the first request of a change of mind fails."""

from __future__ import annotations

import copy
import random

import pytest

from generators.rollouts.oracle import CHECKED_AGAIN
from generators.rollouts.scripted_user import in_first_person, sentence
from generators.synthesis.behaviours import alternative_goal, assign_behaviours, choosable_goal, rules
from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.drafts import TaskDraft, conflict
from generators.synthesis.fuzzify import describe_variant
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


def test_a_user_who_chooses_among_the_options_the_agent_lists(solved):
    """The request withholds the new variant ("another Office Chair"); the oracle lists the options before the
    write that carries it, the scripted user names its choice (decision ``choose``), the gold writes it; an
    agent that picks another option fails; the LLM user is told the same."""
    synth, cfg, drafts = solved
    found = [(d, r, c) for d, _, r in drafts if (c := choosable_goal(synth.domain, synth.world, d))]
    if synth.domain.name == "airline":
        assert found == []  # no airline goal has an option to choose
        return
    draft, rng, (index, choice) = next(
        (copy.deepcopy(d), r, c) for d, r, c in found if all(g.outcome != "refusal" for g in d.goals)
    )
    draft.behaviours = assign_behaviours(draft, rng, None, (index, choice))
    assert draft.behaviours[0]["kind"] == "choose_option"  # the only behaviour that fits
    assert f"the {choice['choice']}" not in draft.goals[index].request + draft.opening()
    assert choice["instead"] in draft.goals[index].request and len(choice["options"]) >= 2
    gold = synth.solve(draft)
    task = task_of(synth, cfg, draft, gold, rng)
    (record,), _ = roll([task], k=1)
    turns = user_turns(record)
    assert choice["choice"].lower() not in turns[0].content.lower()
    (chose,) = [turn for turn in turns if turn.decision["kind"] == "choose"]
    listed = record.trajectory[record.trajectory.index(chose) - 1]
    assert all(option in listed.content for option in choice["options"]) and choice["choice"] in chose.content
    result = record.verifier.result
    assert (result.passed, result.reasons, record.details["end_reason"]) == (True, [], "done")
    assert verify_record(unrecorded(record)).passed
    other = next(text for text in choice["options"] if text != choice["choice"])
    params = draft.goals[index].params
    order = synth.world.row("orders", params["order_id"])
    product = next(item["product_id"] for item in order["items"] if item["item_id"] == params["item_ids"][0])
    others = [
        vid
        for vid in synth.world.row("products", product)["variants"]
        if vid != choice["value"] and describe_variant(synth.world, product, vid).text in choice["options"]
    ]
    assert len(others) == len(choice["options"]) - 1
    for other in others:  # picked for the user: another row state, or a call the world refuses
        picked = [
            {**a, "arguments": {**a["arguments"], "new_item_ids": [other]}} if "new_item_ids" in a["arguments"] else a
            for a in task.task.expected_outputs["gold_actions"]
        ]
        verdict = verify_record(rollout_of(task, picked))
        assert verdict.passed is False and {"wrong_change", "missing_change"} & set(verdict.reasons)
    (rule,) = rules(draft.behaviours)
    assert "Do not name" in rule and choice["choice"] in rule
