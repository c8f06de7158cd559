"""Constraint-first task synthesis: sample goals from DB rows, fuzzify, solve, verify; keep what passes.

Per sample (its own seeded rng, so sample i is the same whatever else ran):
draw a user and a target number of scored constraints in [LO, HI]; draw a
first goal of an allowed kind that fits the user's rows; then, until the
target is met, add an optional constraint of a goal, a guard rail, or another
goal of the same user (one that touches other rows). The gold actions are
run and verified (gold_solver.py), and trivial agents must fail the task
(trivial_agents.py). A sample that fails anywhere is counted
under its reason code; made = kept + rejected.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from environments.record_env import to_record_environment
from environments.registry import get_environment
from environments.state_store import cycle_collector_paused
from environments.tool_world import ToolWorld
from generators.synthesis.domains import get_domain
from generators.synthesis.drafts import GUARDS, TaskDraft, conflict
from generators.synthesis.goals import Goal, Identity, Rejected, World
from generators.synthesis.gold_solver import GoldRun, solve
from generators.synthesis.stats import OnProgress, SynthStats
from generators.synthesis.trivial_agents import reject_if_trivial

MAX_GOALS = 3
EXTRA_GOAL_CHANCE = 0.3
YOUNG_COLLECTION_EVERY = 256
T = TypeVar("T")


class TaskSynthesizer:
    """Samples and solves drafts in one seeded world (its snapshot, indexes and E are built once)."""

    name, version = "constraint_first", "1"

    def __init__(self, env_name: str, users: int = 500, db_seed: int = 0):
        self.domain = get_domain(env_name)
        self.db_seed = db_seed
        env = get_environment(env_name, users=users, seed=db_seed)
        self.world = World(env)
        self.environment = to_record_environment(env)
        self.gold_env: ToolWorld = get_environment(env_name, users=users, seed=db_seed)

    def env_factory(self, name: str, **params: Any) -> ToolWorld:
        """Replays rebuild this world from its cached snapshot (not a freshly generated seed-0 one)."""
        return get_environment(name, seed=self.db_seed, **params)

    def sample_goal(
        self, user_id: str, rng: random.Random, kinds: list[str], goals: list[Goal], room: int
    ) -> Goal | None:
        """A goal of one of ``kinds`` for this user that fits beside ``goals`` with at most ``room`` core constraints.

        Outcomes (write, read, refusal) come in random order, then the kinds of one outcome that
        fit the user's rows, in random order: kinds every user can do (reads, a profile change)
        do not crowd out the others.
        """
        by_outcome: dict[str, list[str]] = {}
        for kind in kinds:
            by_outcome.setdefault(self.domain.specs[kind].outcome, []).append(kind)
        for outcome in rng.sample(sorted(by_outcome), k=len(by_outcome)):
            fitting = [(kind, self.domain.specs[kind].sample(self.world, user_id, rng)) for kind in by_outcome[outcome]]
            fitting = [(kind, params) for kind, params in fitting if params is not None]
            for kind, params in rng.sample(fitting, k=len(fitting)):
                goal = self.domain.specs[kind].build(self.world, params, rng)
                if goal.core <= room and conflict(goals, goal) is None:
                    return goal
        return None

    def draft(
        self,
        rng: random.Random,
        low: int,
        high: int,
        kinds: list[str],
        identity: Identity | None = None,
        beside: tuple[Goal, ...] = (),
    ) -> TaskDraft:
        """A draft with LO..HI scored constraints, for a random user (or ``identity``'s), whose goals
        touch no row of the goals ``beside`` it (evolution composes it with those)."""
        user_id = identity.user_id if identity else rng.choice(self.world.user_ids)
        target = rng.randint(low, high)
        first = self.sample_goal(user_id, rng, kinds, list(beside), target)
        if first is None:
            raise Rejected("no_fitting_rows", f"user {user_id} has no rows for {kinds}")
        draft = TaskDraft(self.domain.name, identity or self.domain.identify(self.world, user_id, rng), [first])
        self._fill(draft, target, rng, kinds, beside)
        return draft

    def _fill(
        self, draft: TaskDraft, target: int, rng: random.Random, kinds: list[str], beside: tuple[Goal, ...]
    ) -> None:
        """Grow the draft to ``target`` scored constraints; unchosen optional constraints are dropped."""
        first = draft.goals[0]
        chosen = [first.constraints[: first.core]]
        pool: list[tuple[int | None, Any]] = [(0, c) for c in first.constraints[first.core :]]
        pool += [(None, guard) for guard in GUARDS]
        count = first.core
        while count < target:
            if len(draft.goals) < MAX_GOALS and (not pool or rng.random() < EXTRA_GOAL_CHANCE):
                goal = self.sample_goal(draft.identity.user_id, rng, kinds, [*beside, *draft.goals], target - count)
                if goal is not None:
                    index = len(draft.goals)
                    draft.goals.append(goal)
                    chosen.append(goal.constraints[: goal.core])
                    pool += [(index, c) for c in goal.constraints[goal.core :]]
                    count += goal.core
                    continue
            if not pool:
                raise Rejected("too_few_constraints", f"no more constraints for a target of {target}")
            index, item = pool.pop(rng.randrange(len(pool)))
            if index is None:
                draft.guards.append(item)
            else:
                chosen[index].append(item)
            count += 1
        for goal, picked in zip(draft.goals, chosen):
            goal.constraints = [c for c in goal.constraints if c in picked]  # in the goal's own order
        draft.guards = [guard for guard in GUARDS if guard in draft.guards]

    def solve(self, draft: TaskDraft) -> GoldRun:
        """The gold run of a draft that trivial agents fail (trivial_agents.py), or ``Rejected``."""
        self.gold_env.reset(seed=self.db_seed)
        gold = solve(self.gold_env, self.environment, draft, self.env_factory)
        reset = lambda: self.gold_env.reset(seed=self.db_seed)  # noqa: E731
        reject_if_trivial(self.gold_env, reset, self.environment, draft, self.env_factory)
        return gold


def sample_rng(*parts: object) -> random.Random:
    """The rng of one sample, from its coordinates (seed, index, ...): independent of every other sample."""
    return random.Random(":".join(map(str, parts)))


def young_collections_only(items: Iterable[T]) -> Iterator[T]:
    """``items``, with the cycle collector's automatic runs off and only its young generations collected, every
    YOUNG_COLLECTION_EVERY items. An automatic full collection scans the whole world (50,000 retail users: about
    1.4 M objects, 1-3 s per collection, a third of the run); samples leave next to nothing in cycles."""
    with cycle_collector_paused():
        for index, item in enumerate(items):
            if index and index % YOUNG_COLLECTION_EVERY == 0:
                gc.collect(1)
            yield item


def first_of_its_kind(draft: TaskDraft, seen: set[str], stats: SynthStats) -> bool:
    """Whether no draft in ``seen`` has the same constraints and gold actions (the same task, whatever
    its wording); a repeat is counted as a "duplicate" rejection, a new one is added to ``seen``."""
    key = repr((draft.constraints(), draft.gold_actions()))
    if key in seen:
        stats.reject("duplicate")
        return False
    seen.add(key)
    return True


def synthesize_drafts(
    synth: TaskSynthesizer,
    n: int,
    constraint_range: tuple[int, int],
    kinds: list[str],
    seed: int,
    max_attempts: int,
    stats: SynthStats,
    on_progress: OnProgress | None = None,
) -> list[tuple[TaskDraft, GoldRun, random.Random]]:
    """Up to ``n`` solved, distinct drafts; every rejected sample counted in ``stats``."""
    solved: list[tuple[TaskDraft, GoldRun, random.Random]] = []
    seen: set[str] = set()
    for attempt in young_collections_only(range(n * max_attempts)):
        if len(solved) == n:
            break
        stats.made += 1
        rng = sample_rng("synth", synth.domain.name, seed, attempt)
        try:
            draft = synth.draft(rng, *constraint_range, kinds)
            gold = synth.solve(draft)
        except Rejected as exc:
            stats.reject(exc.code)
            continue
        if not first_of_its_kind(draft, seen, stats):
            continue
        solved.append((draft, gold, rng))
        if on_progress:
            on_progress(len(solved), n)
    return solved
