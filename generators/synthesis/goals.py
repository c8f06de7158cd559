"""What synthesized tasks are made of: goals drawn from DB rows, the world they are drawn from, rejections.

A **goal** is one request of a user (cancel an order, state a balance, a
request the policy refuses), built from real rows: its constraints (in the
language of verifiers/constraint_checks.py), the gold tool calls that meet
them, the reply the agent ends with, and what the user knows about it
(fuzzy descriptions, each a :class:`Reference` that must resolve to exactly
one row). A task is an identity plus one or more goals (drafts.py).

A **goal spec** samples a goal's parameters for one user (``sample``) and
builds the goal from parameters (``build``). Parameters of write goals are the
arguments of the write tool, so backward construction can describe an
explored call with the same ``build``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from environments.tool_world import ToolWorld

Outcome = Literal["write", "read", "refusal"]


class Rejected(Exception):
    """A sample that cannot become a task; ``code`` is the stable reason code counted in the summary."""

    def __init__(self, code: str, detail: str = ""):
        super().__init__(detail or code)
        self.code = code


@dataclass
class Reference:
    """A description a user would give (``text``), the query that resolves it, and the row it must resolve to."""

    slot: str
    text: str
    query: dict[str, Any]
    key: str


@dataclass
class Identity:
    """Who the user is: what they can tell the agent, and the calls that identify them and read their profile."""

    user_id: str
    name: str
    known_info: dict[str, str]
    actions: list[dict[str, Any]]
    references: list[Reference] = field(default_factory=list)


@dataclass
class Goal:
    kind: str
    outcome: Outcome
    params: dict[str, Any]
    request: str  # what the user wants, in the second person ("cancel the order with ...")
    summary: str  # a short line for the instruction
    known_info: dict[str, str]
    unknown_info: list[str]
    actions: list[dict[str, Any]]  # gold calls {"name", "arguments"} after the identity's
    reply: str  # what the agent says at the end (states every fact a read goal asks for)
    constraints: list[dict[str, Any]]  # the first ``core`` always apply; the rest are optional
    core: int = 1
    writes: list[str] = field(default_factory=list)  # rows ("orders.#R1") the gold calls change
    reads: list[str] = field(default_factory=list)  # rows the reply states facts about
    references: list[Reference] = field(default_factory=list)
    # A conditional goal: {"if": the condition as the user says it, "holds": the branch the world resolved}
    condition: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        # Shallow: the values are JSON data already (dataclasses.asdict deep-copies every leaf, 10x slower).
        return {**vars(self), "references": [vars(ref) for ref in self.references]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Goal:
        refs = [Reference(**ref) for ref in data.get("references", [])]
        return cls(**{**data, "references": refs})

    def rows(self) -> set[str]:
        return set(self.writes) | set(self.reads)


def identity_as_dict(identity: Identity) -> dict[str, Any]:
    return {**vars(identity), "references": [vars(ref) for ref in identity.references]}


def identity_from_dict(data: dict[str, Any]) -> Identity:
    return Identity(**{**data, "references": [Reference(**ref) for ref in data.get("references", [])]})


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


# ---- constraints (verifiers/constraint_checks.py) ----------------------------------------
def equals(cid: str, path: str, value: Any) -> dict[str, Any]:
    return {"id": cid, "check": "state_equals", "path": path, "value": value}


def delta(cid: str, path: str, amount: float) -> dict[str, Any]:
    return {"id": cid, "check": "state_delta", "path": path, "delta": round(amount, 2), "tolerance": 0.01}


def says(cid: str, text: str | None = None, number: float | None = None) -> dict[str, Any]:
    if number is not None:
        return {"id": cid, "check": "message_contains", "number": round(number, 2), "tolerance": 0.01}
    return {"id": cid, "check": "message_contains", "text": text}


def not_called(cid: str, function: str, **args_subset: Any) -> dict[str, Any]:
    return {"id": cid, "check": "action_not_called", "function": function, "args_subset": args_subset}


def called(cid: str, function: str, **args_subset: Any) -> dict[str, Any]:
    return {"id": cid, "check": "action_called", "function": function, "args_subset": args_subset}


def money(value: float) -> str:
    return f"${value:,.2f}"


# ---- the world goals are drawn from ------------------------------------------------------
class World:
    """Read-only access to a seeded tool world's initial DB: rows, the user list, indexed lookups.

    The wrapped environment is never called, so its state stays the initial
    one; ``lookup`` goes through the snapshot's indexes (built once), so
    sampling costs the same at 500 and at 50,000 users.
    """

    def __init__(self, env: ToolWorld):
        self.env = env
        self.tables = env.snapshot().tables
        self.user_ids = list(self.tables["users"])

    def row(self, table: str, key: str) -> Any:
        return self.tables[table].get(key)

    def lookup(self, table: str, field_of: Callable[[Any], Any], value: Any) -> list[str]:
        return self.env.lookup(table, field_of, value)


class GoalSpec:
    """One kind of goal of a domain."""

    kind: ClassVar[str]
    outcome: ClassVar[Outcome]
    # Whether its goals branch on a condition the database resolves (generators/synthesis/conditions.py).
    conditional: ClassVar[bool] = False

    def sample(self, world: World, user_id: str, rng: random.Random) -> dict[str, Any] | None:
        """Parameters for this user, drawn from their rows; None when the user has no fitting row."""
        raise NotImplementedError

    def build(self, world: World, params: dict[str, Any], rng: random.Random) -> Goal:
        """The goal for these parameters (``rng`` only chooses among equivalent descriptions)."""
        raise NotImplementedError

    def choice(self, world: World, params: dict[str, Any]) -> dict[str, Any] | None:
        """What of these parameters a user may choose among options the agent lists (behaviours.py
        ``choose_option``): {"value": the argument value chosen, "choice": its description, "options": the
        descriptions the agent lists, "instead": how the user asks before choosing}; None: nothing to choose."""
        return None


@dataclass(frozen=True)
class Domain:
    """What synthesis knows about one tool world."""

    name: str
    specs: dict[str, GoalSpec]
    identify: Callable[[World, str, random.Random], Identity]
    # kind of a write goal -> its refusal twist: (world, params, rng) -> (refusal kind, params) or None
    twists: dict[str, Callable[[World, dict, random.Random], tuple[str, dict] | None]]
    # a write tool -> the goal kind whose params are that tool's arguments (backward construction)
    write_goals: dict[str, str]
    # random valid-argument policy: (world, live env, user id, rng) -> the next call {"name", "arguments"}
    explore_step: Callable[[World, ToolWorld, str, random.Random], dict[str, Any]]

    def kinds(self) -> list[str]:
        return list(self.specs)
