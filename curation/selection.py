"""Budgeted selection: the SFT set, the RL set, and the reason every other record was left out.

- **SFT** candidates are records with a trajectory whose accuracy level is
  ``passed`` (verified successes) of tasks the declared learner never solves
  (or that it did not roll out: imported data); when there are more than the budget, greedy
  facility location over their embeddings (curation/facility_location.py)
  picks a diverse, representative set that keeps the mix of complexity levels.
  A record's vector is its text and action-signature embeddings concatenated
  and rescaled to unit length, so similarity is the mean of the two.
- **RL** candidates are task records (no trajectory) with a verifiable v
  (its spec is the reward) whose declared learner's rollouts earned rewards
  that are not all equal (verifiers/reward.py; the rule of DAPO's dynamic
  sampling: a GRPO group of equal rewards has no advantage, so no gradient).
  With an RL budget, the same facility location chooses among them. The set is
  ordered by learnability m (1 - m) of the task's mean reward m (Foster et al.
  2025: p (1 - p) for rewards of 1 or 0), highest first, input order on ties.
- **Left out**, one reason per record (the first that applies):
  ``no_text`` / ``no_task`` (missing parts), ``duplicate`` (named by the dedup
  audit, with the record kept in its place), ``invalid``, ``unverified``,
  ``undecided`` (the verifier could not decide; ``accept_undecided`` lets it in), ``failed``, ``imported_verdict`` (a success only the source vouches for: aceforge
  never re-checked it; ``accept_imported_verdicts`` lets it in), ``agent_excluded`` (a rollout of an
  agent in ``sft_exclude_agents``, by default the perturbed one), ``no_successful_call`` (a tool-world
  trajectory whose every call failed, or that made none), ``learner_solves`` (its task's p = 1: nothing to
  teach), ``frontier_task`` (0 < p < 1: its task is an RL candidate instead) (SFT side); ``no_verifier``, ``no_pass_rate``,
  and, for rewards all equal, ``always_solved`` (every rollout passed), ``never_solved`` (every rollout earned 0),
  ``equal_rewards`` (the same partial credit every time) (RL side); and
  ``outside_budget`` for candidates the budget had no room for.

An empty RL set is said in one line (``rl_empty_line``): by the select command, selection.json, the main job's
stage table, the ACE report and so the dataset card.

Counts add up: records in (the input plus the duplicates its audit names) =
SFT + RL + left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from curation.complexity import complexity_level
from curation.config import SelectConfig
from curation.facility_location import facility_location
from curation.facts import RecordFacts
from curation.signatures import Signatures
from verifiers.runner import VERIFIABLE_KINDS

SFT_LEVEL_REASONS = {"invalid": "invalid", "unverified": "unverified", "undecided": "undecided", "failed": "failed"}


@dataclass
class LeftOut:
    id: str
    reason: str
    detail: str = ""
    duplicate_of: str | None = None
    kind: str | None = None
    similarity: float | None = None


@dataclass
class Selection:
    sft: list[int] = field(default_factory=list)  # positions in the facts list, in the order chosen
    rl: list[int] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)


def missing_reason(f: RecordFacts) -> str | None:
    for marker in ("no_task", "no_text"):
        if marker in f.missing:
            return marker
    return None


def sft_reason(f: RecordFacts, cfg: SelectConfig) -> str | None:
    """Why a record with a trajectory cannot be an SFT example (None: it can)."""
    level = "passed" if f.accuracy.level == "undecided" and cfg.accept_undecided else f.accuracy.level
    reason = missing_reason(f) or SFT_LEVEL_REASONS.get(level)
    if reason is None and f.verdict_origin == "imported" and not cfg.accept_imported_verdicts:
        return "imported_verdict"
    if reason is None and f.agent in cfg.sft_exclude_agents:
        return "agent_excluded"
    if reason is None and f.tool_calls_ok == 0:
        return "no_successful_call"
    if reason is None and f.pass_rate is not None and f.pass_rate > 0.0:
        return "learner_solves" if f.pass_rate >= 1.0 else "frontier_task"
    return reason


def rl_reason(f: RecordFacts) -> str | None:
    """Why a task record cannot be an RL task (None: its learner rollouts' rewards are not all equal)."""
    if reason := missing_reason(f):
        return reason
    if f.verifier_kind not in VERIFIABLE_KINDS:
        return "no_verifier"
    if f.pass_rate is None:
        return "no_pass_rate"
    if f.rewards_differ:
        return None
    if f.pass_rate >= 1.0:
        return "always_solved"
    return "never_solved" if not f.reward_mean else "equal_rewards"


RL_REASONS = {  # the RL side's reasons, as the one line of an empty RL set names them
    "never_solved": "never solved",
    "always_solved": "always solved",
    "equal_rewards": "equal partial rewards",
    "no_pass_rate": "no learner rollouts",
    "no_verifier": "no verifier",
}


def rl_empty_line(tasks: int, reasons: dict[str, int]) -> str:
    """Why the RL set is empty, in one line, from the number of task records and the left-out counts by reason."""
    if not tasks:
        return "RL set empty: the input holds no task records (`aceforge synth tasks` makes them)"
    counts = ", ".join(f"{label} {reasons[r]}" for r, label in RL_REASONS.items() if reasons.get(r))
    hint = "; declare a learner in `aceforge score`" if reasons.get("no_pass_rate") else ""
    return (
        f"RL set empty: no task's learner rollouts earned unequal rewards, so no GRPO group has an advantage "
        f"({counts or 'no task could be used'}{hint})"
    )


def learnability(f: RecordFacts) -> float:
    mean = f.reward_mean or 0.0
    return mean * (1.0 - mean)


def selection_vectors(signatures: Signatures, rows: list[int]) -> np.ndarray:
    vectors = np.hstack([signatures.text[rows], signatures.action[rows]])
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


def _choose(
    facts: list[RecordFacts], rows: list[int], budget: int | None, signatures: Signatures, k: int
) -> tuple[list[int], list[int]]:
    """(chosen, left over) among candidate rows."""
    if budget is None or len(rows) <= budget:
        return rows, []
    levels = [complexity_level(facts[i].complexity) for i in rows]
    picked = facility_location(selection_vectors(signatures, rows), levels, budget, k)
    chosen = [rows[p] for p in picked]
    taken = set(chosen)
    return chosen, [i for i in rows if i not in taken]


def select(facts: list[RecordFacts], signatures: Signatures, cfg: SelectConfig) -> Selection:
    selection = Selection()
    sft_rows, rl_rows = [], []
    for i, f in enumerate(facts):
        reason = rl_reason(f) if f.is_task else sft_reason(f, cfg)
        if reason is None:
            (rl_rows if f.is_task else sft_rows).append(i)
        else:
            selection.left_out.append(LeftOut(f.id, reason, _detail(f, reason)))
    selection.sft, sft_rest = _choose(facts, sft_rows, cfg.budget, signatures, cfg.neighbors)
    chosen, rl_rest = _choose(facts, rl_rows, cfg.rl_budget, signatures, cfg.neighbors)
    selection.rl = sorted(chosen, key=lambda i: (-learnability(facts[i]), i))
    selection.left_out += [LeftOut(facts[i].id, "outside_budget", "sft") for i in sft_rest]
    selection.left_out += [LeftOut(facts[i].id, "outside_budget", "rl") for i in rl_rest]
    return selection


def _detail(f: RecordFacts, reason: str) -> str:
    if reason == "invalid":
        return ",".join(f.accuracy.structure_reasons)
    if reason in ("learner_solves", "frontier_task"):
        return f"pass_rate={f.pass_rate:g}"
    if reason in ("always_solved", "never_solved", "equal_rewards"):
        return f"pass_rate={f.pass_rate:g} reward_mean={f.reward_mean:g}"
    if reason == "no_verifier":
        return f"v.kind={f.verifier_kind}"
    if reason == "agent_excluded":
        return f"agent={f.agent}"
    return ""
