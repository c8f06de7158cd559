"""A task before it becomes a record: an identity, goals, guard rails; its constraint set and gold actions.

Goal constraints get ids ``g<i>.<id>``. Guard rails are task-wide:
``scope`` (``no_write_outside`` the rows the goals write, i.e. no write at
all for a task that only reads or is refused) and ``no_transfer`` (the agent
does not hand off to a human). Every row the gold writes is also granted with
an ``allow_write`` permission, so the verifier's write penalty never counts
the requested changes as harmful. The draft round-trips through
``task.metadata`` so evolution can recompose stored tasks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generators.rollouts.scenario import withheld
from generators.synthesis.goals import Goal, Identity, Rejected, identity_as_dict, identity_from_dict, not_called
from schemas.record import Task
from verifiers.constraint_checks import PERMISSIONS, is_subset

GUARDS = ("scope", "no_transfer")


@dataclass
class TaskDraft:
    domain: str
    identity: Identity
    goals: list[Goal]
    guards: list[str] = field(default_factory=list)
    level: int | None = None  # its rung of the difficulty ladder (levels.py); None: made another way
    behaviours: list[dict[str, Any]] = field(default_factory=list)  # the simulated user's (behaviours.py)

    def writes(self) -> list[str]:
        return sorted({row for goal in self.goals for row in goal.writes})

    def constraints(self) -> list[dict[str, Any]]:
        found = [{**c, "id": f"g{i}.{c['id']}"} for i, goal in enumerate(self.goals) for c in goal.constraints]
        if "scope" in self.guards:
            found.append({"id": "guard.scope", "check": "no_write_outside", "scope": self.writes()})
        if "no_transfer" in self.guards:
            found.append(not_called("guard.no_transfer", "transfer_to_human_agents"))
        if self.writes():
            found.append({"check": "allow_write", "scope": self.writes()})
        return found

    def scored(self) -> list[dict[str, Any]]:
        return [c for c in self.constraints() if c["check"] not in PERMISSIONS]

    def gold_actions(self) -> list[dict[str, Any]]:
        return [*self.identity.actions, *(action for goal in self.goals for action in goal.actions)]

    def reply(self) -> str:
        return " ".join(goal.reply for goal in self.goals)

    def outcome(self) -> str:
        outcomes = {goal.outcome for goal in self.goals}
        return "write" if "write" in outcomes else ("refusal" if "refusal" in outcomes else "read")

    def instruction(self) -> str:
        text = "; then ".join(goal.summary for goal in self.goals)
        return text[:1].upper() + text[1:] + "."

    def opening(self) -> str:
        """What the user says first in a gold run: the request and what they know (who they are, what they want),
        without an option the user chooses later (behaviours.py ``choose_option``)."""
        known = {**self.identity.known_info, **{k: v for goal in self.goals for k, v in goal.known_info.items()}}
        facts = " ".join(f"My {key.replace('_', ' ')} is {value}." for key, value in known.items())
        return withheld(f"{self.instruction()} {facts}".strip(), self.behaviours)

    def task(self) -> Task:
        """q as the verifier reads it: constraints, gold actions and the goals (for grounded refusals)."""
        return Task(
            instruction=self.instruction(),
            constraints=self.constraints(),
            expected_outputs={"gold_actions": self.gold_actions(), "outcome": self.outcome()},
            metadata=self.to_metadata(),
        )

    def to_metadata(self) -> dict[str, Any]:
        return {
            "identity": identity_as_dict(self.identity),
            "goals": [g.as_dict() for g in self.goals],
            "guards": self.guards,
            "level": self.level,
            "behaviours": self.behaviours,
        }

    @classmethod
    def from_metadata(cls, domain: str, metadata: dict[str, Any]) -> TaskDraft:
        try:
            return cls(
                domain=domain,
                identity=identity_from_dict(metadata["identity"]),
                goals=[Goal.from_dict(goal) for goal in metadata["goals"]],
                guards=list(metadata.get("guards", [])),
                level=metadata.get("level"),
                behaviours=[dict(b) for b in metadata.get("behaviours", [])],
            )
        except (KeyError, TypeError) as exc:
            raise Rejected("not_a_synthesized_task", f"task metadata lacks the draft: {exc}") from None


def _forbids(constraints: list[dict], actions: list[dict]) -> bool:
    """Some ``action_not_called`` constraint matches one of the actions."""
    return any(
        c["check"] == "action_not_called" and a["name"] == c["function"] and is_subset(c["args_subset"], a["arguments"])
        for c in constraints
        for a in actions
    )


def conflict(goals: list[Goal], new: Goal) -> str | None:
    """Why ``new`` cannot join ``goals`` in one task (None when it can).

    Two goals may not write the same row, nor may one write a row another
    states facts about (the fact would be stale, a balance counted twice), nor
    share a row with a conditional goal, and neither may forbid a call the
    other needs.
    """
    for goal in goals:
        if goal.kind == new.kind and goal.params == new.params:
            return "duplicate_goal"
        if set(new.writes) & goal.rows() or set(goal.writes) & new.rows():
            return "overlapping_rows"
        # A conditional goal may write its row on the branch the world did not take: "a bag more if free" and
        # "one bag fewer" on one trip ask for opposite things whichever branch holds.
        if (goal.condition or new.condition) and goal.rows() & new.rows():
            return "overlapping_rows"
        if _forbids(goal.constraints, new.actions) or _forbids(new.constraints, goal.actions):
            return "forbidden_action"
    return None
