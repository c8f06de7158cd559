"""Final state: the replayed end state must equal the gold end state, row by row, and nothing else may change.

The gold end state is what the task's gold actions (``q.expected_outputs["gold_actions"]``) make of the
record's initial state. Constraints are sampled per task (a task may check only some fields of what
it asks for); this check is not: every row the gold changes must end exactly as the gold leaves it
(every field), and no other row may change. Any order of calls, extra reads and failed calls are
fine, since only the end state counts.

Reason codes: ``missing_change`` (a row the gold changes was left as it was), ``wrong_change`` (changed,
but not as the gold changes it: another payment method, one item fewer, another enum value),
``unrequested_change`` (a row the gold leaves alone was changed), ``gold_unreplayable`` (the gold
actions fail in the initial state: the task itself is broken). Evidence: the rows and, per wrong
row, the first differing field paths (values bounded). The stage gives a verdict and no score (the chain's
score stays the constraints' fraction met, less penalties); the graded reward (verifiers/reward.py) reads
its evidence: the share of the gold rows reached.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from environments.from_record import build_environment
from schemas.record import VerifierResult, canonical_json
from verifiers.base import CheckContext, RecordVerifier
from verifiers.state_reader import StateReader, changed_rows

GOLD_CACHE_SIZE = 4096
MAX_DIFFS = 5
EXCERPT = 120
_GOLD: OrderedDict[bytes, dict | None] = OrderedDict()


def gold_actions(record) -> list[dict[str, Any]] | None:
    """q's gold actions as {"name", "arguments"} dicts (copies); None when q has none or they are malformed."""
    actions = (record.task.expected_outputs or {}).get("gold_actions")
    if not isinstance(actions, list) or not all(
        isinstance(a, dict) and isinstance(a.get("name"), str) and isinstance(a.get("arguments", {}), dict)
        for a in actions
    ):
        return None
    return [{"name": a["name"], "arguments": dict(a.get("arguments", {}))} for a in actions]


def gold_end_rows(ctx: CheckContext, actions: list[dict]) -> dict[tuple[str, ...], Any] | None:
    """{row: final content} of the rows the gold actions change; None when a gold action fails.

    Cached per (E, gold actions): a task's k rollouts replay its gold once.
    """
    env = ctx.record.environment
    state = env.initial_state.model_dump() if env.initial_state else None
    key = canonical_json([env.name, env.sandbox, state, actions])
    if key in _GOLD:
        _GOLD.move_to_end(key)
        return _GOLD[key]
    gold = build_environment(env, ctx.env_factory)
    rows: dict[tuple[str, ...], Any] | None = {}
    for action in actions:
        if not gold.call(action["name"], action["arguments"]).ok:
            rows = None
            break
    if rows is not None:
        final = StateReader(gold)
        rows = {row: final.get(list(row)) for row in changed_rows(StateReader(ctx.initial_env), final)}
    _GOLD[key] = rows
    if len(_GOLD) > GOLD_CACHE_SIZE:
        _GOLD.popitem(last=False)
    return rows


def replayed_gold(ctx: CheckContext, actions: list[dict]) -> bool:
    """Whether τ's calls were the gold actions, in order, and each succeeded: then replay has already made the gold
    end state (an environment is deterministic: replay relies on it), and running the gold again is waste (a
    synthesized task's gold run is verified once, so the cache of gold end states never holds it)."""
    calls = [[entry["tool"], entry["arguments"]] for entry in ctx.write_log]
    return all(entry["ok"] for entry in ctx.write_log) and canonical_json(calls) == canonical_json(
        [[action["name"], action["arguments"]] for action in actions]
    )


def differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Paths where two JSON values differ (a whole value when the types differ)."""
    if expected == actual:
        return []
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in sorted(set(expected) | set(actual), key=str):
            out += differences(expected.get(key), actual.get(key), f"{path}.{key}" if path else str(key))
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [d for i, (e, a) in enumerate(zip(expected, actual)) for d in differences(e, a, f"{path}.{i}")]
    return [] if canonical_json(expected) == canonical_json(actual) else [path or "."]


class FinalStateVerifier(RecordVerifier):
    name = "final_state"
    version = "1"
    needs_env = True

    def check(self, ctx: CheckContext) -> VerifierResult:
        actions = gold_actions(ctx.record)
        if actions is None or ctx.final_env is None or ctx.initial_env is None:
            return self.unavailable(["gold"])
        final = StateReader(ctx.final_env)
        changed = {row: final.get(list(row)) for row in changed_rows(StateReader(ctx.initial_env), final)}
        gold = changed if replayed_gold(ctx, actions) else gold_end_rows(ctx, actions)
        if gold is None:
            return self.result(False, reasons=["gold_unreplayable"])
        missing = sorted(row for row in gold if row not in changed)
        unrequested = sorted(row for row in changed if row not in gold)
        wrong = {}
        for row in sorted(set(gold) & set(changed)):
            diff = differences(gold[row], changed[row])
            if diff:
                wrong[".".join(row)] = [
                    {"field": path, "expected": _excerpt(gold[row], path), "actual": _excerpt(changed[row], path)}
                    for path in diff[:MAX_DIFFS]
                ]
        reasons = ["missing_change"] * bool(missing) + ["wrong_change"] * bool(wrong)
        reasons += ["unrequested_change"] * bool(unrequested)
        evidence = {
            "gold_rows": [".".join(row) for row in sorted(gold)],
            "missing": [".".join(row) for row in missing],
            "unrequested": [".".join(row) for row in unrequested],
            "wrong": wrong,
        }
        # A verdict without a score: the chain's score stays the constraints' fraction met; the reward reads the rows.
        return self.result(not reasons, reasons=reasons, evidence=evidence).model_copy(update={"score": None})


def _excerpt(row: Any, path: str) -> str:
    node = row
    for part in path.split(".") if path not in ("", ".") else []:
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            node = None
            break
    return canonical_json(node).decode()[:EXCERPT]
