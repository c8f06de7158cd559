"""Constraint-first task synthesis: sample goals from DB rows, fuzzify, solve, verify; keep what passes.

Each task asked for gets a level of the difficulty ladder (levels.py: the mix's shares, in a seeded
order). Per sample (its own seeded rng, so sample i is the same whatever else ran): draw a user; draw
a first goal of the level's classes that fits the user's rows, then the level's further goals of the
same user (each touching other rows); then add optional constraints of the goals and guard rails
until a target number of scored constraints in [LO, HI] is met. The gold actions are run and
verified (gold_solver.py), and trivial agents must fail the task (trivial_agents.py). A sample that
fails anywhere is counted under its reason code; made = kept + rejected.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from environments.registry import get_environment
from environments.state_store import cycle_collector_paused
from environments.to_record import to_record_environment
from environments.tool_world import ToolWorld
from generators.synthesis.behaviours import alternative_goal, assign_behaviours, choosable_goal
from generators.synthesis.domains import get_domain
from generators.synthesis.drafts import GUARDS, TaskDraft, conflict
from generators.synthesis.goals import Goal, Identity, Rejected, World
from generators.synthesis.gold_solver import GoldRun, solve
from generators.synthesis.levels import (
    BEHAVING,
    DEFAULT_MIX,
    LEVELS,
    PLAIN,
    Level,
    goal_class,
    level_sequence,
    parse_mix,
)
from generators.synthesis.stats import OnProgress, SynthStats
from generators.synthesis.trivial_agents import reject_if_trivial

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
        self, user_id: str, rng: random.Random, kinds: list[str], classes: tuple[str, ...], goals: list[Goal]
    ) -> Goal | None:
        """A goal of one of ``kinds`` whose class (levels.goal_class) is in ``classes``, for this user, that fits
        beside ``goals``.

        Classes (read, write, refusal, conditional) come in random order, then the kinds of one class that
        fit the user's rows, in random order: kinds every user can do (reads, a profile change) do not
        crowd out the others.
        """
        by_class: dict[str, list[str]] = {}
        for kind in kinds:
            cls = goal_class(self.domain.specs[kind])
            if cls in classes:
                by_class.setdefault(cls, []).append(kind)
        for cls in rng.sample(sorted(by_class), k=len(by_class)):
            fitting = [(kind, self.domain.specs[kind].sample(self.world, user_id, rng)) for kind in by_class[cls]]
            fitting = [(kind, params) for kind, params in fitting if params is not None]
            for kind, params in rng.sample(fitting, k=len(fitting)):
                goal = self.domain.specs[kind].build(self.world, params, rng)
                if conflict(goals, goal) is None:
                    return goal
        return None

    def draft(
        self,
        rng: random.Random,
        low: int,
        high: int,
        kinds: list[str],
        level: Level,
        identity: Identity | None = None,
        beside: tuple[Goal, ...] = (),
    ) -> TaskDraft:
        """A draft of ``level``'s shape for a random user (or ``identity``'s), with LO..HI scored constraints
        (or its goals' core constraints, when they are more), whose goals touch no row of the goals
        ``beside`` it (evolution composes it with those)."""
        user_id = identity.user_id if identity else rng.choice(self.world.user_ids)
        first = self.sample_goal(user_id, rng, kinds, level.first, list(beside))
        if first is None:
            raise Rejected("no_fitting_rows", f"user {user_id} has no rows for {'/'.join(level.first)} goals")
        draft = TaskDraft(self.domain.name, identity or self.domain.identify(self.world, user_id, rng), [first])
        wanted = rng.randint(*level.goals)
        classes = self.further_classes(kinds)
        while len(draft.goals) < wanted:
            goal = None
            if len(draft.goals) == 1 and set(level.second) <= set(classes):
                goal = self.sample_goal(user_id, rng, kinds, level.second, [*beside, *draft.goals])
            goal = goal or self.sample_goal(user_id, rng, kinds, classes, [*beside, *draft.goals])
            if goal is None:
                break
            draft.goals.append(goal)
        if len(draft.goals) < level.goals[0]:
            raise Rejected("too_few_goals", f"user {user_id} has rows for {len(draft.goals)} goals")
        self._fill(draft, rng.randint(low, high), rng)
        return draft

    def further_classes(self, kinds: list[str]) -> tuple[str, ...]:
        """The classes a task's further goals come from: plain ones, or conditional ones when ``kinds`` has no other."""
        plain = any(goal_class(self.domain.specs[kind]) in PLAIN for kind in kinds)
        return PLAIN if plain else ("conditional",)

    @staticmethod
    def _fill(draft: TaskDraft, target: int, rng: random.Random) -> None:
        """Add optional constraints of the goals and guard rails until the draft has ``target`` scored
        constraints (its goals' core ones always count); unchosen optional constraints are dropped."""
        chosen = [goal.constraints[: goal.core] for goal in draft.goals]
        pool: list[tuple[int | None, Any]] = [
            (index, c) for index, goal in enumerate(draft.goals) for c in goal.constraints[goal.core :]
        ]
        pool += [(None, guard) for guard in GUARDS]
        count = sum(goal.core for goal in draft.goals)
        while count < target and pool:
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
        reject_if_trivial(self.gold_env, reset, self.environment, draft, self.env_factory, gold.verdict)
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
    mix: dict[int, float] | None = None,
) -> list[tuple[TaskDraft, GoldRun, random.Random]]:
    """Up to ``n`` solved, distinct drafts, levels in the shares of ``mix`` (default levels.DEFAULT_MIX) among
    those ``kinds`` can make (``--goals order_status`` makes level 1 only), each tried up to ``max_attempts``
    times; every rejected sample counted in ``stats``. A mix of which ``kinds`` make no level is an error."""
    wanted = mix or parse_mix(DEFAULT_MIX)
    mix = {level: share for level, share in wanted.items() if possible(synth, kinds, LEVELS[level])}
    if not mix:
        levels = ", ".join(map(str, wanted))
        raise ValueError(f"no goal kind among {', '.join(kinds)} makes a task of level {levels}")
    solved: list[tuple[TaskDraft, GoldRun, random.Random]] = []
    seen: set[str] = set()
    levels = level_sequence(mix, n, sample_rng("levels", synth.domain.name, seed))
    for slot in young_collections_only(range(n)):
        for attempt in range(max_attempts):
            stats.made += 1
            rng = sample_rng("synth", synth.domain.name, seed, slot, attempt)
            try:
                draft = synth.draft(rng, *constraint_range, kinds, LEVELS[levels[slot]])
                if levels[slot] == BEHAVING:
                    draft.behaviours = assign_behaviours(
                        draft,
                        rng,
                        alternative_goal(synth.domain, synth.world, draft, rng),
                        choosable_goal(synth.domain, synth.world, draft),
                    )
                gold = synth.solve(draft)
            except Rejected as exc:
                stats.reject(exc.code)
                continue
            if not first_of_its_kind(draft, seen, stats):
                continue
            draft.level = levels[slot]
            solved.append((draft, gold, rng))
            if on_progress:
                on_progress(len(solved), n)
            break
    return solved


def possible(synth: TaskSynthesizer, kinds: list[str], level: Level) -> bool:
    """Whether ``kinds`` hold a kind for the level's first goal."""
    return any(goal_class(synth.domain.specs[kind]) in level.first for kind in kinds)
