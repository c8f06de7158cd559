"""Constraints: V(τ, C) = the fraction of q's constraints met, less a penalty for bad writes.

The constraint set is ``record.task.constraints`` (language: verifiers/constraint_checks.py),
so a record can be re-verified at any time. Checks look at outcomes, so any
valid path is accepted.

Write penalty (disable with ``v.spec["write_penalty"] = false``):
- a **harmful write** is a row (``table.key``) whose content differs between the
  initial and the final state and that lies outside every row the task
  concerns: the rows of ``state_equals``/``state_delta`` paths, and the scopes of
  ``no_write_outside`` and ``allow_write`` constraints. Each such row counts once.
- a **redundant write** is a successful call of a write tool that left the state
  unchanged (re-setting a value, repeating an idempotent change). A repeated
  call that changes the state again (a second transfer) is not redundant.
- ``penalty = min(1, harmful_weight * H + redundant_weight * R)`` with weights
  from the spec (defaults 0.5 and 0.1); ``score = fraction_met * (1 - penalty)``.

``passed`` = every constraint met and no harmful write (redundant writes only
cost score). Reason codes: ``constraint_failed:<id>``, ``constraint_invalid:<id>``
(a constraint that cannot be evaluated: unknown kind, missing field, no state),
``harmful_write``, ``redundant_write``, ``no_constraints``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from schemas.record import VerifierResult
from schemas.steps import ApiAction
from verifiers.base import CheckContext, RecordVerifier
from verifiers.constraint_checks import CHECKS, PERMISSIONS, STATE_PATH_CHECKS, ConstraintError, Outcome, scopes_of
from verifiers.state_reader import StateReader, split_path, within
from verifiers.trajectory_view import agent_messages, pair_calls

HARMFUL_WEIGHT = 0.5
REDUNDANT_WEIGHT = 0.1


def outcome_of(ctx: CheckContext) -> Outcome:
    trajectory = ctx.record.trajectory
    if ctx.write_log:  # replayed: success as the replay saw it
        ok_by_step = {entry["step"]: entry["ok"] for entry in ctx.write_log}
        calls = [
            (s.function, s.kwargs, ok_by_step.get(i, False))
            for i, s in enumerate(trajectory)
            if isinstance(s, ApiAction)
        ]
    else:  # no replay: success as the recorded result says
        calls = [
            (p.call.function, p.call.kwargs, p.result is not None and not p.result.content.lstrip().startswith("Error"))
            for p in pair_calls(trajectory)[0]
        ]
    env = ctx.initial_env
    return Outcome(
        final=StateReader(ctx.final_env) if ctx.final_env is not None else None,
        initial=StateReader(ctx.initial_env) if ctx.initial_env is not None else None,
        messages=agent_messages(trajectory),
        calls=calls,
        phrasings={k.lower(): v for k, v in (getattr(env, "phrasings", {}) or {}).items()},
        terms=tuple(getattr(env, "fact_terms", ())),
        refusal_reasons=refusal_reasons(ctx.record),
        rows=goal_rows(ctx.record),
    )


def goals_of(record) -> Iterator[tuple[dict, dict]]:
    """(constraint, its goal) for each constraint ``g<i>.<id>`` of a task that lists its goals (synthesized ones)."""
    goals = (record.task.metadata or {}).get("goals")
    if not isinstance(goals, list):
        return
    for c in record.task.constraints:
        match = re.fullmatch(r"g(\d+)\..+", str(c.get("id")))
        if match and int(match.group(1)) < len(goals) and isinstance(goals[int(match.group(1))], dict):
            yield c, goals[int(match.group(1))]


def refusal_reasons(record) -> frozenset[str]:
    """Ids of the constraints that are the reason a refusal gives: ``g<i>.<id>`` of a goal of outcome refusal."""
    return frozenset(
        str(c["id"])
        for c, goal in goals_of(record)
        if goal.get("outcome") == "refusal" and c.get("check") == "message_contains"
    )


def goal_rows(record) -> dict[str, tuple[str, ...]]:
    """The ids of the rows each message constraint's goal reads or writes (``orders.#R1`` -> ``#R1``): the rows
    a fact it asks for is told of."""
    return {
        str(c["id"]): tuple(split_path(path)[1] for path in [*goal.get("reads", []), *goal.get("writes", [])])
        for c, goal in goals_of(record)
        if c.get("check") == "message_contains"
    }


def allowed_scopes(constraints: list[dict]) -> list[list[str]]:
    scopes: list[list[str]] = []
    for c in constraints:
        if c.get("check") in STATE_PATH_CHECKS and "path" in c:
            scopes.append(split_path(c["path"])[:2])
        elif c.get("check") in ("no_write_outside", "allow_write") and "scope" in c:
            scopes += scopes_of(c)
    return scopes


class ConstraintsVerifier(RecordVerifier):
    name = "constraints"
    version = "3"
    needs_env = True

    def check(self, ctx: CheckContext) -> VerifierResult:
        constraints = ctx.record.task.constraints
        scored = [c for c in constraints if c.get("check") not in PERMISSIONS]
        outcome = outcome_of(ctx)
        reasons: list[str] = []
        results: list[dict[str, Any]] = []
        for index, c in enumerate(scored):
            cid = str(c.get("id", f"c{index}"))
            met, error = self._evaluate(c, outcome)
            results.append({"id": cid, "met": met, **({"error": error} if error else {})})
            if error:
                reasons.append(f"constraint_invalid:{cid}")
            elif not met:
                reasons.append(f"constraint_failed:{cid}")
        fraction = sum(r["met"] for r in results) / len(results) if results else 1.0
        harmful, redundant = self._bad_writes(ctx, outcome, constraints)
        weights = (ctx.spec.get("harmful_weight", HARMFUL_WEIGHT), ctx.spec.get("redundant_weight", REDUNDANT_WEIGHT))
        penalty = min(1.0, weights[0] * len(harmful) + weights[1] * len(redundant))
        reasons += (
            ["harmful_write"] * bool(harmful)
            + ["redundant_write"] * bool(redundant)
            + ["no_constraints"] * (not scored)
        )
        passed = bool(scored) and all(r["met"] for r in results) and not harmful
        evidence = {
            "constraints": results,
            "fraction_met": round(fraction, 6),
            "penalty": round(penalty, 6),
            "harmful_writes": [".".join(row) for row in harmful],
            "redundant_writes": redundant,
        }
        return self.result(passed, score=fraction * (1 - penalty), reasons=reasons, evidence=evidence)

    @staticmethod
    def _evaluate(c: dict, outcome: Outcome) -> tuple[bool, str | None]:
        check = CHECKS.get(c.get("check"))
        if check is None:
            return False, f"unknown check {c.get('check')!r}"
        try:
            return bool(check(c, outcome)), None
        except ConstraintError as exc:
            return False, str(exc)
        except (TypeError, ValueError) as exc:
            return False, f"{type(exc).__name__}: {exc}"

    @staticmethod
    def _bad_writes(ctx: CheckContext, outcome: Outcome, constraints: list[dict]) -> tuple[list, list[int]]:
        if ctx.spec.get("write_penalty", True) is False or outcome.final is None:
            return [], []
        scopes = allowed_scopes(constraints)
        harmful = [row for row in outcome.changed() if not any(within(row, s) for s in scopes)]
        redundant = [e["step"] for e in ctx.write_log if e["access"] == "write" and e["ok"] and not e["changed"]]
        return harmful, redundant
