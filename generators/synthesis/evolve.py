"""Complexity evolution: verified tasks composed into harder ones, verified like any other task.

- ``compose``: two requests of one user in one conversation. The partner is
  another task of the same user in the same world from the input, or else a
  task synthesized for that user (its gold verified on its own first). The
  goals must touch different rows.
- ``refuse``: a policy condition turns one write request into a refusal (the
  domain's twist: an exchange for another product, a refund to a card that did
  not pay, an uninsured reason, removing a bag, ...).

The composite's constraints are the union of its parts' (goal constraints as
stored, guard rails of either part; the scope guard spans every write left),
and its gold solution must pass the verifier chain. Reason codes:
``no_partner``, ``no_refusal_twist``, ``environment_mismatch``,
``not_a_synthesized_task``, plus the synthesizer's.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from generators.synthesis.config import SynthEvolveConfig
from generators.synthesis.drafts import GUARDS, TaskDraft, conflict
from generators.synthesis.goals import Goal, Rejected
from generators.synthesis.levels import COMPANION
from generators.synthesis.records import TASK_FORMAT, Provenance, Solved, config_hash, finish_records
from generators.synthesis.stats import OnProgress, SynthStats
from generators.synthesis.synthesizer import TaskSynthesizer, first_of_its_kind, sample_rng, young_collections_only
from schemas.record import AgentRecord

COMPANION_CONSTRAINTS = (1, 2)


class Worlds:
    """One TaskSynthesizer per world the input's tasks live in (name, users, DB seed)."""

    def __init__(self) -> None:
        self._by_key: dict[tuple, TaskSynthesizer] = {}

    def of(self, record: AgentRecord) -> TaskSynthesizer:
        env = record.environment
        sandbox = env.sandbox or {}
        key = (env.name, sandbox.get("env_params", {}).get("users", 500), sandbox.get("seed", 0))
        if key not in self._by_key:
            try:
                self._by_key[key] = TaskSynthesizer(*key)
            except KeyError as exc:
                raise Rejected("unsupported_environment", str(exc)) from None
        synth = self._by_key[key]
        if env.initial_state is None or env.initial_state.content_hash != synth.environment.initial_state.content_hash:
            raise Rejected("environment_mismatch", f"{record.id}: E's state is not the generated world's")
        return synth


def combined(first: TaskDraft, goals: list[Goal], guards: list[str]) -> TaskDraft:
    return TaskDraft(first.domain, first.identity, goals, [g for g in GUARDS if g in set(first.guards) | set(guards)])


def compose(
    synth: TaskSynthesizer, base: TaskDraft, partners: list[tuple[str, TaskDraft]], rng: random.Random
) -> tuple[TaskDraft, tuple[str, ...]]:
    """``base`` plus a partner's goals: the first stored partner that fits (its id is returned as a parent),
    else a freshly synthesized task of the same user, verified on its own first."""
    for partner_id, partner in partners:
        if all(conflict([*base.goals, *partner.goals[:i]], goal) is None for i, goal in enumerate(partner.goals)):
            return combined(base, [*base.goals, *partner.goals], partner.guards), (partner_id,)
    companion = synth.draft(
        rng, *COMPANION_CONSTRAINTS, synth.domain.kinds(), COMPANION, base.identity, tuple(base.goals)
    )
    synth.solve(companion)  # a composite is made of verified tasks only
    return combined(base, [*base.goals, *companion.goals], companion.guards), ()


def refuse(synth: TaskSynthesizer, base: TaskDraft, rng: random.Random) -> TaskDraft:
    """``base`` with one write request turned into the refusal its domain's twist makes of it."""
    writes = [i for i, goal in enumerate(base.goals) if goal.outcome == "write" and goal.kind in synth.domain.twists]
    for i in rng.sample(writes, k=len(writes)):
        twisted = synth.domain.twists[base.goals[i].kind](synth.world, base.goals[i].params, rng)
        if twisted is None:
            continue
        kind, params = twisted
        refusal = synth.domain.specs[kind].build(synth.world, params, rng)
        others = base.goals[:i] + base.goals[i + 1 :]
        if conflict(others, refusal) is None:
            return combined(base, [*others[:i], refusal, *others[i:]], [])
    raise Rejected("no_refusal_twist", f"no write goal of {[g.kind for g in base.goals]} has a refusal twist")


def run_evolve(
    records: Iterable[AgentRecord], cfg: SynthEvolveConfig, dataset: str, on_progress: OnProgress | None = None
) -> tuple[list[AgentRecord], SynthStats]:
    """Every op on every input task; inputs that are not synthesized tasks are counted, not fatal."""
    stats, worlds = SynthStats(), Worlds()
    tasks: list[tuple[AgentRecord, TaskSynthesizer, TaskDraft]] = []
    for record in records:
        try:
            if record.source.format != TASK_FORMAT:
                raise Rejected("not_a_synthesized_task", f"{record.id}: format {record.source.format}")
            synth = worlds.of(record)
            tasks.append((record, synth, TaskDraft.from_metadata(synth.domain.name, record.task.metadata)))
        except Rejected as exc:
            stats.made += len(cfg.ops)
            stats.rejected[exc.code] += len(cfg.ops)
    solved: list[Solved] = []
    seen: set[str] = set()
    for record, synth, base in young_collections_only(tasks):
        user = base.identity.user_id
        partners = [(r.id, d) for r, s, d in tasks if s is synth and r.id != record.id and d.identity.user_id == user]
        for op in cfg.ops:
            stats.made += 1
            rng = sample_rng("evolve", cfg.seed, record.id, op)
            try:
                if op == "compose":
                    draft, partner = compose(synth, base, partners, rng)
                else:
                    draft, partner = refuse(synth, base, rng), ()
                gold = synth.solve(draft)
            except Rejected as exc:
                stats.reject(exc.code)
                continue
            if not first_of_its_kind(draft, seen, stats):
                continue
            parents = (record.id, *partner)
            solved.append(Solved(draft, gold, rng, synth.environment, parents, {"evolution": op}))
            if on_progress:
                on_progress(len(solved), len(tasks) * len(cfg.ops))
    provenance = Provenance("evolve", "1", cfg.seed, dataset, config_hash("synth evolve", cfg))
    return finish_records(solved, cfg, provenance, stats), stats
