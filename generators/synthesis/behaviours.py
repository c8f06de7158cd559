"""What a simulated user does beyond answering: behaviours stored as data in the scenario (``behaviours``).

- ``{"kind": "insist_once"}`` (a task with a refused goal): after the agent's first refusal the user pushes
  back once ("Are you sure? ... could you check again?"), then accepts the second refusal and ends;
- ``{"kind": "change_mind", "goal": i, "first_request": ..., "request": ...}`` (goal i writes): the user
  first asks for ``first_request``, another version of goal i (same kind, other rows), and at its next turn
  says it changed its mind and asks for ``request``, goal i's own request; the gold follows the final request,
  so an agent that carries out the first one changes rows the task leaves alone and fails;
- ``{"kind": "choose_option", "goal": i, "value": ..., "choice": ..., "options": [...], "instead": ...}`` (goal i
  has an option to choose, GoalSpec.choice: the new variant of a one-item swap): the request and what the user
  knows say ``instead`` ("another Lamp") in place of the choice; when the agent lists the options, the user
  names ``choice``; the gold writes ``value``, so an agent that picks for the user without asking is right
  only by luck.

The scripted user follows them (generators/rollouts/scripted_user.py), the LLM user reads them as instructions
(``rules``), and the user's turns record what they decide (``insist``, ``change_request``, ``choose``: verifiers/consent.py).
"""

from __future__ import annotations

import random
from typing import Any

from generators.rollouts.scenario import withheld
from generators.synthesis.drafts import TaskDraft, conflict
from generators.synthesis.goals import Domain, Goal, Rejected, World

SAMPLES_PER_GOAL = 4  # draws of other parameters for one goal before trying the next


def alternative_goal(domain: Domain, world: World, draft: TaskDraft, rng: random.Random) -> tuple[int, Goal] | None:
    """(i, a goal of goal i's kind with other parameters) for a write goal i of the draft, sampled by the domain's
    spec for the draft's user: a change of mind's first request. It touches no row of any goal of the draft, so
    carrying it out is an unrequested change. None when no write goal has one."""
    writes = [i for i, goal in enumerate(draft.goals) if goal.outcome == "write"]
    for i in rng.sample(writes, k=len(writes)):
        spec = domain.specs[draft.goals[i].kind]
        for _ in range(SAMPLES_PER_GOAL):
            params = spec.sample(world, draft.identity.user_id, rng)
            if params is None or params == draft.goals[i].params:
                continue
            try:
                other = spec.build(world, params, rng)
            except Rejected:  # no unambiguous description of its rows
                continue
            if conflict(draft.goals, other) is None:
                return i, other
    return None


def choosable_goal(domain: Domain, world: World, draft: TaskDraft) -> tuple[int, dict[str, Any]] | None:
    """(i, goal i's choice: GoalSpec.choice) for the first goal of the draft with an option to choose, or None."""
    for i, goal in enumerate(draft.goals):
        choice = domain.specs[goal.kind].choice(world, goal.params) if goal.kind in domain.specs else None
        if choice is not None:
            return i, choice
    return None


def assign_behaviours(
    draft: TaskDraft,
    rng: random.Random,
    alternative: tuple[int, Goal] | None = None,
    choosable: tuple[int, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """One behaviour that fits the draft, drawn with ``rng`` (none when nothing fits): ``change_mind`` when an
    ``alternative`` (alternative_goal) is given, ``insist_once`` when a goal is refused, ``choose_option`` when
    a goal has an option to choose (choosable_goal; its request and known info then withhold the choice)."""
    fitting: list[dict[str, Any]] = []
    if alternative is not None:
        index, other = alternative
        request = draft.goals[index].request
        fitting.append({"kind": "change_mind", "goal": index, "first_request": other.request, "request": request})
    if any(goal.outcome == "refusal" for goal in draft.goals):
        fitting.append({"kind": "insist_once"})
    if choosable is not None:
        fitting.append({"kind": "choose_option", "goal": choosable[0], **choosable[1]})
    picked = [rng.choice(fitting)] if fitting else []
    if picked and picked[0]["kind"] == "choose_option":
        goal = draft.goals[picked[0]["goal"]]
        goal.request = withheld(goal.request, picked)
        goal.known_info = {slot: withheld(value, picked) for slot, value in goal.known_info.items()}
    return picked


def rules(behaviours: list[dict[str, Any]]) -> list[str]:
    """The behaviours as instructions for a simulated user that reads them (the LLM user)."""
    said = []
    for behaviour in behaviours:
        if behaviour.get("kind") == "insist_once":
            said.append(
                "The first time the agent says your request is not allowed, push back once: ask whether they are "
                "sure and to check again. If they refuse again, accept it."
            )
        elif behaviour.get("kind") == "change_mind":
            said.append(
                f"In your first message, ask for this instead: {behaviour['first_request']}. In your next message, "
                f"say you changed your mind and ask for what you really want: {behaviour['request']} (if the agent "
                "just asked you to confirm the first request, say no)."
            )
        elif behaviour.get("kind") == "choose_option":
            said.append(
                f"Do not name the {behaviour['instead'].removeprefix('another ')} you want at first: ask which "
                f"ones are available. When the agent lists them, choose the {behaviour['choice']}."
            )
    return said
