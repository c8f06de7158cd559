"""Backward construction (as Learn-by-interact does): explore first, then write the task the exploration solved.

1. Explore: a user of the world is identified, then a random valid-argument
   policy calls tools (random tools, arguments drawn from the user's current
   rows), whatever the world answers.
2. Windows: each successful call that changed the state gives a sub-trajectory
   (the identity calls + that call: ``single``); an episode with several such
   calls also gives the prefix up to the last one, successful calls only
   (``prefix``).
3. Relabel: the window is replayed from the initial state; the constraints
   are derived from the state diff (``state_equals`` per changed field,
   ``state_delta`` for balances and amounts, status fields first, at most
   ``max_constraints`` with the ``no_write_outside`` guard); the instruction and
   scenario come from the write's goal template (retail/writes.py / airline/writes.py,
   with fuzzy descriptions), or a scenario writer.
4. Keep (q, τ) only if replaying τ passes q's constraints: the verifier chain
   on the pair is the keep rule (``replay_failed:<reason>`` otherwise). A
   window that needs an earlier write to succeed fails its replay alone and is
   dropped (``window_not_replayable``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from generators.synthesis.config import SynthBackwardConfig
from generators.synthesis.drafts import TaskDraft
from generators.synthesis.goals import Goal, Identity, Rejected, delta, equals
from generators.synthesis.gold_solver import GoldRun, gold_trajectory, verify_trajectory
from generators.synthesis.records import BACKWARD_FORMAT, Provenance, Solved, config_hash, finish_records
from generators.synthesis.stats import OnProgress, SynthStats
from generators.synthesis.synthesizer import TaskSynthesizer, sample_rng, young_collections_only
from schemas.record import AgentRecord, VerifierResult
from verifiers.state_reader import MISSING

DELTA_FIELDS = ("balance", "amount")


def leaf_changes(before: Any, after: Any, path: list[str]) -> Iterator[tuple[list[str], Any, Any]]:
    """(path, old, new) for every leaf that differs; lists of another length change as a whole."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after), key=str):
            yield from leaf_changes(before.get(key, MISSING), after.get(key, MISSING), [*path, str(key)])
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old, new) in enumerate(zip(before, after)):
            yield from leaf_changes(old, new, [*path, str(index)])
    elif before != after and after is not MISSING:  # a removed key has no state_equals; its row stays in scope
        yield path, before, after


def diff_constraints(world_tables: dict, env, rows: list[tuple[str, str]], limit: int) -> list[dict]:
    """Constraints that the final state of ``env`` meets on ``rows``, status fields first, at most ``limit``."""
    changes = []
    for table, key in rows:
        before = world_tables[table].get(key, MISSING)
        changes += leaf_changes(before, env.find(table, key), [table, key])
    changes.sort(key=lambda change: (change[0][-1] != "status", change[0]))
    found = []
    for path, old, new in changes[:limit]:
        where = path if any("." in part for part in path) else ".".join(path)
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (old, new))
        cid = f"d{len(found)}"
        found.append(delta(cid, where, new - old) if numbers and path[-1] in DELTA_FIELDS else equals(cid, where, new))
    return found


def explore(synth: TaskSynthesizer, env, rng: random.Random, steps: int) -> tuple[Identity, list[dict]]:
    """One episode; returns the identity and each call that succeeded, marked with whether it changed the state."""
    world, domain = synth.world, synth.domain
    user_id = rng.choice(world.user_ids)
    identity = domain.identify(world, user_id, rng)
    env.reset(seed=synth.db_seed)
    for action in identity.actions:
        env.call(action["name"], action["arguments"])
    succeeded = []
    for _ in range(steps):
        action = domain.explore_step(world, env, user_id, rng)
        before = env.state_hash()
        if env.call(action["name"], action["arguments"]).ok:
            succeeded.append({**action, "changed": env.state_hash() != before})
    return identity, succeeded


def windows(succeeded: list[dict]) -> Iterator[tuple[str, list[dict]]]:
    changed = [i for i, action in enumerate(succeeded) if action["changed"]]
    for i in changed:
        yield "single", [succeeded[i]]
    if len(changed) > 1:
        yield "prefix", succeeded[: changed[-1] + 1]


def relabel(synth: TaskSynthesizer, identity: Identity, calls: list[dict], rng: random.Random, limit: int) -> Solved:
    """The (q, τ) of one window: goals from the writes, τ replayed from the initial state, constraints from its diff."""
    goals: list[Goal] = []
    for action in calls:
        kind = synth.domain.write_goals.get(action["name"])
        if action["changed"] and kind is None:
            raise Rejected("no_goal_for_tool", action["name"])
        if kind is not None:
            goal = synth.domain.specs[kind].build(synth.world, dict(action["arguments"]), rng)
            goal.actions = []
            goals.append(goal)
    goals[-1].actions = [{"name": a["name"], "arguments": a["arguments"]} for a in calls]
    draft = TaskDraft(synth.domain.name, identity, goals, guards=["scope"])
    synth.gold_env.reset(seed=synth.db_seed)
    try:
        steps, final_hash = gold_trajectory(synth.gold_env, draft.opening(), draft.gold_actions(), "")
    except Rejected as exc:
        raise Rejected("window_not_replayable", str(exc)) from None
    _derive(synth, draft, limit)
    steps[-1].content = draft.reply()
    verdict = keep_verdict(synth, draft, steps)
    return Solved(draft, GoldRun(steps, final_hash, verdict), rng, synth.environment)


def _derive(synth: TaskSynthesizer, draft: TaskDraft, limit: int) -> None:
    """Each goal gets the constraints of the rows its write changed (one slot is kept for the scope guard)."""
    log = [entry for entry in synth.gold_env.action_log if entry["ok"] and entry["writes"]]
    per_goal = max(1, (limit - 1) // len(draft.goals))
    done: set[tuple[str, ...]] = set()
    for goal, entry in zip(draft.goals, log):
        rows = [tuple(row) for row in entry["writes"] if tuple(row) not in done]  # a row twice: its final diff once
        done.update(rows)
        goal.constraints = diff_constraints(synth.world.tables, synth.gold_env, rows, per_goal)
        goal.core = len(goal.constraints)
        goal.writes = [".".join(row) for row in rows]
        goal.reply = f"Done: {goal.summary}."
    if not any(goal.constraints for goal in draft.goals):
        raise Rejected("no_state_change")


def keep_verdict(synth: TaskSynthesizer, draft: TaskDraft, steps: list) -> VerifierResult:
    verdict = verify_trajectory(synth.environment, draft.task(), steps, synth.env_factory)
    if not verdict.passed:
        raise Rejected(f"replay_failed:{verdict.reasons[0] if verdict.reasons else 'unknown'}")
    return verdict


def run_backward(
    cfg: SynthBackwardConfig, dataset: str, on_progress: OnProgress | None = None
) -> tuple[list[AgentRecord], SynthStats]:
    synth = TaskSynthesizer(cfg.env, cfg.users, cfg.db_seed)
    explorer = synth.env_factory(cfg.env, users=cfg.users)
    stats, solved, seen = SynthStats(), [], set()
    for episode in young_collections_only(range(cfg.n * cfg.max_episodes)):
        if len(solved) >= cfg.n:
            break
        stats.extra["episodes"] = episode + 1
        rng = sample_rng("backward", cfg.env, cfg.seed, episode)
        identity, succeeded = explore(synth, explorer, rng, cfg.steps)
        for window, calls in windows(succeeded):
            if len(solved) >= cfg.n:
                break
            stats.made += 1
            try:
                pair = relabel(synth, identity, calls, rng, cfg.max_constraints)
            except Rejected as exc:
                stats.reject(exc.code)
                continue
            key = repr((pair.draft.constraints(), pair.draft.gold_actions()))
            if key in seen:
                stats.reject("duplicate")
                continue
            seen.add(key)
            pair.metadata = {"window": window, "explore_policy": "random_valid_args", "explore_episode": episode}
            solved.append(pair)
            if on_progress:
                on_progress(len(solved), cfg.n)
    provenance = Provenance("backward", "1", cfg.seed, dataset, config_hash("synth backward", cfg))
    return finish_records(solved, cfg, provenance, stats, fmt=BACKWARD_FORMAT, explored=True), stats
