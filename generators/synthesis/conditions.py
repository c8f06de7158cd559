"""Conditional goals: the user states a condition and what to do either way; the database decides the branch.

"If the order has not shipped yet, cancel it; otherwise return the lamp." A conditional spec samples the
parameters of both branches, resolves the condition from the rows (``holds``), and builds the goal of the
branch that holds with an ordinary goal spec, so its gold actions, constraints and reply are that
branch's. :func:`conditional_goal` then gives the goal the user's side of the story: the request and
summary name the condition and both branches, never which one holds (the instruction, the scenario and
the verl prompt say the same to every world), and the user knows the details of both branches. The
constraints of the branch taken are the check that the agent took it, with an optional constraint that
forbids the other branch's write on the same row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generators.synthesis.goals import Goal, GoalSpec, Reference, Rejected

ROW_SLOTS = ("order", "reservation")


def no_status_in(ref: Reference) -> None:
    """A description that names the row's status ("the pending order with ...") would tell the branch."""
    if "status" in ref.query:
        raise Rejected("condition_leak", f"{ref.text!r} names the status the condition is about")


def conditional_goal(
    spec: GoalSpec,
    taken: Goal,
    params: dict[str, Any],
    *,
    condition: str,
    row: str,
    holds: bool,
    request: str,
    summary: str,
    known_info: dict[str, str],
    references: Sequence[Reference] = (),
    forbid: dict[str, Any] | None = None,
) -> Goal:
    """The goal of a conditional ``spec`` whose condition is about ``row``: ``taken``'s actions, constraints, rows and reply, the user's
    conditional request, what they know of both branches (``known_info``, beside the row's description:
    never ``taken``'s own slots, such as "new_payment", which would name the branch), and ``forbid`` (an
    ``action_not_called`` constraint on the other branch's write) appended as an optional constraint."""
    for ref in taken.references:
        no_status_in(ref)
    extra = [forbid] if forbid else []
    return Goal(
        kind=spec.kind,
        outcome=taken.outcome,
        params=params,
        request=request,
        summary=summary,
        known_info={**{slot: taken.known_info[slot] for slot in ROW_SLOTS if slot in taken.known_info}, **known_info},
        unknown_info=[*(info for info in taken.unknown_info if info.endswith(" id")), "which case applies"],
        actions=taken.actions,
        reply=taken.reply,
        constraints=[*taken.constraints, *extra],
        core=taken.core,
        writes=taken.writes,
        reads=list(dict.fromkeys([*taken.reads, row])),  # the row the condition is about, on either branch
        references=[*taken.references, *(r for r in references if r not in taken.references)],
        condition={"if": condition, "holds": holds},
    )
