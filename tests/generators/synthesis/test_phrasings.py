"""Request phrasings: at least 8 per goal kind of both domains, every field in each, one drawn per goal with its
rng; frames and joins of the scenario's reason; the scripted user's first person reads well for all of them."""

from __future__ import annotations

import random
import re
import string

import pytest

from generators.rollouts.scripted_user import first_person
from generators.synthesis.domains import get_domain
from generators.synthesis.goals import Rejected, World
from generators.synthesis.levels import LEVELS
from generators.synthesis.phrasings import PHRASINGS, phrase
from generators.synthesis.scenarios import FRAMES, JOINS, reason_text, template_scenario
from generators.synthesis.synthesizer import TaskSynthesizer, sample_rng
from verifiers.decisions import decide

# What a user knows, as specs fill it in: names with capitals, "your ..." payment texts, amounts, dates.
VALUES = {
    "order": "the order with the Desk Lamp",
    "res": "the trip from SEA to JFK on 2025-06-12",
    "items": "the Desk Lamp (color black)",
    "payment": "your visa card ending in 4242",
    "address": "12 Oak Street, Apt 3, Austin, TX 78701, USA",
    "swaps": "the Desk Lamp (color black) for the Desk Lamp with color white",
    "swap": "the Desk Lamp for a Backpack",
    "why": "a health problem",
    "number": "HAT170",
    "date": "2025-06-12",
    "total": "3",
    "bags": "bags",
    "cabin": "business",
    "passengers": "Ada Ito, born 1990-01-02",
    "now": "2",
    "wanted": "1",
    "trouble": "the trouble with your trip",
    "gift": "your gift card",
    "fallback": "your mastercard card ending in 1111",
}
# "I" where English wants "me", or a verb that does not agree with "I".
BAD_FIRST_PERSON = re.compile(r"\b(?:to|for|with|let|tell|give|send|help|owe|owes|asks?) I\b|\bI (?:are|were|is|has)\b")


def fields(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


@pytest.mark.parametrize("domain", ["retail", "airline"])
def test_every_goal_kind_has_eight_phrasings_that_all_carry_the_same_fields(domain):
    for kind in get_domain(domain).kinds():
        templates = PHRASINGS[kind]
        assert len(set(templates)) >= 8, kind
        assert len({fields(t) for t in templates}) == 1, kind  # no phrasing leaves a value out
        # A sentence may start with a phrasing: its capital must never change a value.
        assert not any(t.startswith("{") for t in templates), kind
        # Not synonym swaps of one sentence: the phrasings open with several different words.
        assert len({t.split()[0] for t in templates}) >= 3, kind


def test_phrase_fills_the_specs_fields_verbatim_and_leaves_the_description_to_the_goal():
    counts = {
        phrase("refuse_return_refund_elsewhere", random.Random(seed), items="the X", payment="your Y")
        for seed in range(60)
    }
    assert counts == {
        t.replace("{items}", "the X").replace("{payment}", "your Y")
        for t in PHRASINGS["refuse_return_refund_elsewhere"]
    }
    assert all("{order}" in text for text in counts)  # order_goal fills it
    with pytest.raises(KeyError, match="payment"):
        phrase("gift_card_balance", random.Random(0))


def test_phrase_draws_from_the_rng_without_advancing_it():
    """So a seed samples the same rows, goals and tasks (ids) as before there were phrasings."""
    rng = random.Random(7)
    rng.random()
    state = rng.getstate()
    first = phrase("order_status", rng)
    assert rng.getstate() == state and phrase("order_status", rng) == first
    assert len({phrase("order_status", random.Random(seed)) for seed in range(40)}) >= 6


def test_the_built_goals_draw_their_request_from_the_phrasings_with_the_values_verbatim():
    synth = TaskSynthesizer("retail")
    world: World = synth.world
    spec = synth.domain.specs["modify_pending_order_address"]
    requests = set()
    for seed in range(40):
        rng = random.Random(seed)
        user = next(u for u in world.user_ids if spec.sample(world, u, random.Random(0)) is not None)
        params = spec.sample(world, user, random.Random(seed))
        goal = spec.build(world, params, rng)
        assert goal.known_info["order"] in goal.request and goal.known_info["new_address"] in goal.request
        requests.add(
            goal.request.replace(goal.known_info["order"], "{order}").replace(
                goal.known_info["new_address"], "{address}"
            )
        )
    assert requests <= set(PHRASINGS["modify_pending_order_address"]) and len(requests) >= 6


@pytest.mark.parametrize("domain", ["retail", "airline"])
def test_every_phrasing_in_every_frame_reads_well_in_the_first_person_and_decides_nothing(domain):
    for kind in get_domain(domain).kinds():
        for template in PHRASINGS[kind]:
            request = template.format(**VALUES)
            for frame in FRAMES:
                reason = frame.format(domain=domain, requests=request, Requests=request[:1].upper() + request[1:])
                said = first_person(reason)
                assert said.startswith("Hi! ") and said[4].isupper(), said
                assert not re.search(r"\byou(?:r|rs|'re|'d)?\b", said, re.IGNORECASE), said
                assert not BAD_FIRST_PERSON.search(said), said
                # The values survive (payment and trouble texts turn from "your" into "my").
                for value in (VALUES["order"], VALUES["res"], VALUES["address"], VALUES["date"]):
                    assert value not in request or value in said, (value, said)
                if frame.startswith("You"):  # telling the agent you contact support says nothing: dropped
                    assert "support" not in said, said
                # The opening comes before anything was proposed: the verifier must not read a decision in it
                # (a conditional request reads as the condition it is, never as a yes or a no).
                allowed = ("none", "condition") if get_domain(domain).specs[kind].conditional else ("none",)
                for join in JOINS:
                    twice = request + join + request
                    said = decide(first_person(frame.format(domain=domain, requests=twice, Requests=twice)))
                    assert said in allowed, (kind, template)


def test_first_person_keeps_a_frame_that_comes_after_the_request_and_capitals_where_they_were():
    assert first_person("You want to cancel the order with the Lamp. Your reason: you ordered it by mistake.") == (
        "Hi! I want to cancel the order with the Lamp. My reason: I ordered it by mistake."
    )
    assert (
        first_person(
            "You want a refund, because you are unhappy; that is why you are contacting retail customer support."
        )
        == "Hi! I want a refund, because I am unhappy; that is why I am contacting retail customer support."
    )
    assert (
        first_person("You contact support about your $12.50 refund.") == "Hi! I contact support about my $12.50 refund."
    )
    assert first_person("You write to airline customer support. You were moved to economy.") == (
        "Hi! I was moved to economy."
    )


def frames_around(frame: str, reason: str) -> bool:
    before, after = re.split(
        r"\{[Rr]equests\}", frame.format_map({"domain": "retail", "requests": "{requests}", "Requests": "{Requests}"})
    )
    return reason.startswith(before) and reason.endswith(after)


def test_the_reason_joins_several_requests_in_varied_frames_deterministically():
    synth = TaskSynthesizer("retail")
    reasons, frames, joins = [], set(), set()
    for index in range(40):
        try:
            draft = synth.draft(sample_rng("frames", index), 3, 5, synth.domain.kinds(), LEVELS[3])
        except Rejected:  # a user with rows for one goal only
            continue
        reason = reason_text(draft, random.Random(index))
        assert reason == reason_text(draft, random.Random(index))
        for goal in draft.goals:
            assert goal.request[1:] in reason
        frames |= {frame for frame in FRAMES if frames_around(frame, reason)}
        joins |= {j for j in JOINS if len(draft.goals) > 1 and j in reason}
        if not draft.goals[0].request.startswith("you "):
            assert " because " + draft.goals[0].request not in reason  # not "because since you ..."
        reasons.append(reason)
    assert len(frames) >= 5 and len(joins) >= 3
    assert not all(r.startswith("You contact retail customer support because you want to") for r in reasons)


def test_the_template_scenario_is_the_same_for_the_same_rng():
    synth = TaskSynthesizer("airline")
    draft = synth.draft(sample_rng("same", 1), 2, 4, synth.domain.kinds(), LEVELS[2])
    assert template_scenario(draft, random.Random(3)) == template_scenario(draft, random.Random(3))


def test_every_conditional_phrasing_says_its_condition_in_words():
    """bench/task_quality.py counts a request as conditional by these words; a conditional goal's phrasings all
    have one (the condition is said, its outcome never)."""
    conditional = [
        kind for domain in ("retail", "airline") for kind, spec in get_domain(domain).specs.items() if spec.conditional
    ]
    assert len(conditional) == 5
    for kind in conditional:
        for template in PHRASINGS[kind]:
            assert re.search(r"\b(if|otherwise|unless|in case)\b", template), (kind, template)
