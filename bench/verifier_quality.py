"""How good the verifier chain is, per domain: on synthesized tasks and on trajectories labelled by hand.

Run: python bench/verifier_quality.py [--n 200] [--seed 0] [--users 500] [--k 2] [--domains retail airline]
     python bench/verifier_quality.py --labelled sets.jsonl      # only (c), on records labelled elsewhere
(under ``taskset -c 0`` for the speed figure: it is meant per core).

For retail and airline separately, on ``--n`` tasks of ``aceforge synth tasks`` (seed ``--seed``, ``--users``):

(a) **mutations**: every single-argument change of a gold write to another value the environment accepts
    (another enum value, another payment method or order of the user, one item fewer, another item of the
    order, another variant of the product, a number moved by one, a text field or a passenger field edited)
    that changes the final state. The gold trajectory with the mutated write (confirmed by the user, as the
    gold is) goes through the chain; the kill rate is the share it fails (target 100 %); survivors are listed.
(b) **trivial agents** (generators/synthesis/trivial_agents.py) on every gold-solved draft, before the
    synthesizer's trivial gate: the share of drafts some trivial agent passes (target 0 %).
(c) **hand-labelled trajectories** (bench/labelled/: each written and labelled by a person who read the task's
    instruction and the policy, never the verifier): precision and recall of the chain's pass against the label
    (targets >= 0.97 and >= 0.90), the share it leaves undecided (target <= 10 %), per kind of case, and each
    disagreement. ``--labelled FILE`` measures a JSONL file of records with a ``label`` ("right" or "wrong") and
    a ``kind`` the same way (``python -m labelled.cases --export`` writes one): sets the project never sees.
    This file does not import the labels from the chain nor restate its rules: the label is the person's.
(d) **gold**: the gold trajectories rebuilt from the task records, and oracle rollouts (k=1): pass rates (target 100 %).
(e) **speed**: full-chain verifications per second of the oracle and perturbed rollouts (the oracle with one
    seeded fault, the scripted user, ``--k`` per task; best of 3 passes; the first, with a cold gold-state cache,
    is printed too).
(f) **wrong closing messages**: the last message of each passing oracle rollout with one value changed to a
    wrong one the conversation makes easy to say: a status, level or cabin to another of its kind, an amount to
    another number that was shown, an order, reservation, flight or payment method to another that was shown.
    The share of those mutants the chain fails (target 100 %); survivors are listed.

Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from environments.registry import ENVIRONMENTS, get_environment
from generators.rollouts.config import RolloutConfig
from generators.rollouts.runner import run_rollouts
from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.goals import Rejected
from generators.synthesis.gold_solver import GoldRun, gold_trajectory, solve, verify_trajectory
from generators.synthesis.stages import run_tasks
from generators.synthesis.stats import SynthStats
from generators.synthesis.synthesizer import TaskSynthesizer, synthesize_drafts
from generators.synthesis.trivial_agents import TRIVIAL_AGENTS
from schemas.record import AgentRecord
from schemas.steps import MessageAction, TextObservation
from verifiers.runner import verify_record

MAX_SURVIVORS = 15


# ---------------------------------------------------------------- (f) wrong closing messages

# Values that stand for one another in a closing message: one attribute of a row each, as the world defines them
# (its fact_groups; the verifiers read the same values, so a copy here would drift from what they check).
FACT_GROUPS = {name: ENVIRONMENTS.get(name).fact_groups for name in ("retail", "airline")}
# Row names of one kind: an order, a reservation, a flight, a tracking number, a payment method.
ID_SHAPES = [
    r"#R\d{7}",
    r"\b[A-Z]{6}\b",
    r"\bZA\d{3}\b",
    r"\bTRK\d+\b",
    r"\b(?:credit_card|gift_card|paypal|certificate)_\d+\b",
]
CANDIDATES = 3  # replacements tried per value of a closing message


def closing_mutants(record: AgentRecord) -> Iterator[tuple[str, str]]:
    """(kind, closing message) for each one-value change of the rollout's last message to a wrong one: a status,
    level or cabin it asserts (no rule or denial word before it in its clause) to another of its group; an amount to another number the conversation showed; a row's name
    to another of its kind the conversation showed (up to CANDIDATES of each)."""
    at = last_message(record)
    closing = record.trajectory[at].content
    shown = " ".join(s.content for s in record.trajectory[:at] if isinstance(s, TextObservation))
    for group in FACT_GROUPS[record.environment.name]:
        pattern = re.compile(
            r"(?<![\w-])(" + "|".join(sorted(map(re.escape, group), key=len, reverse=True)) + r")(?![\w-])"
        )
        for match in pattern.finditer(closing):
            clause = re.split(r"[,;:.!?()]", closing[: match.start()])[-1]
            if _HEDGE.search(clause.lower()):  # a rule or a denial ("only pending orders can be"): not a fact
                continue
            for other in [t for t in group if t not in match.group(1) and match.group(1) not in t]:
                yield "status", closing[: match.start()] + other + closing[match.end() :]
    for match in _MONEY.finditer(closing):
        value = float((match.group(1) or match.group(2)).replace(",", ""))
        others = [n for n in dict.fromkeys(numbers(shown)) if n >= 1 and abs(n - value) >= 0.01]
        for other in others[:CANDIDATES]:
            yield "amount", closing[: match.start()] + f"${other:,.2f}" + closing[match.end() :]
    for shape in map(re.compile, ID_SHAPES):
        for match in shape.finditer(closing):
            others = [t for t in dict.fromkeys(shape.findall(shown)) if t != match.group(0)]
            for other in others[:CANDIDATES]:
                yield "id", closing[: match.start()] + other + closing[match.end() :]


def last_message(record: AgentRecord) -> int:
    """Index of the agent's last message (the scripted user's goodbye may follow it)."""
    return max(i for i, step in enumerate(record.trajectory) if isinstance(step, MessageAction))


def closing_mutation_testing(rollouts: list[AgentRecord]) -> dict:
    """Every mutant of every passing rollout's closing message through the chain: the share it fails, by kind."""
    made, killed, survivors = Counter(), Counter(), []
    for rollout in rollouts:
        if not (rollout.verifier.result and rollout.verifier.result.passed):
            continue
        at = last_message(rollout)
        for kind, text in closing_mutants(rollout):
            trajectory = list(rollout.trajectory)
            trajectory[at] = trajectory[at].model_copy(update={"content": text})
            made[kind] += 1
            if verify_record(rollout.model_copy(update={"trajectory": trajectory})).passed:
                survivors.append(f"{kind}: {rollout.trajectory[at].content!r} -> {text!r}")
            else:
                killed[kind] += 1
    return {"made": made, "killed": killed, "survivors": survivors}


# ---------------------------------------------------------------- shared


def opening(record: AgentRecord) -> str:
    """The user's first turn of a gold run: the request and what the user knows (as drafts.TaskDraft.opening)."""
    known = record.task.user_scenario["known_info"]
    facts = " ".join(f"My {key.replace('_', ' ')} is {value}." for key, value in known.items())
    return f"{record.task.instruction} {facts}".strip()


def gold_record(record: AgentRecord, env, actions: list[dict]) -> AgentRecord | None:
    """The record with τ = a gold run of ``actions`` (confirmations, yes, results, gold reply); None if a call fails."""
    env.reset(seed=record.environment.sandbox.get("seed", 0))
    try:
        steps, _ = gold_trajectory(env, opening(record), actions, record.task.expected_outputs["gold_reply"])
    except Rejected:
        return None
    return record.model_copy(update={"trajectory": steps})


def pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.1%})" if whole else "0/0 (-)"


# ---------------------------------------------------------------- (a) mutations


def user_rows(tables: dict, domain: str, user_id: str) -> tuple[list[str], list[str]]:
    """(payment method ids, order or reservation ids) of a user."""
    user = tables["users"][user_id]
    own = user.get("orders") if domain == "retail" else user.get("reservations")
    return sorted(user.get("payment_methods", {})), list(own or [])


def edited(text: str) -> str:
    """Another text the world accepts: the last character changed."""
    return text[:-1] + ("x" if text[-1:] != "x" else "y") if text else "x"


def mutations(record: AgentRecord, tables: dict, tools: dict) -> Iterator[tuple[int, str, Any, Any]]:
    """(write index, argument, old value, new value) for every single-argument change worth trying."""
    domain = record.environment.name
    user_id = record.task.metadata["identity"]["user_id"]
    payments, own = user_rows(tables, domain, user_id)
    for index, action in enumerate(record.task.expected_outputs["gold_actions"]):
        tool = tools[action["name"]]
        if tool.access != "write":
            continue
        properties = tool.parameters.get("properties", {})
        for key, value in action["arguments"].items():
            for new in alternatives(domain, tables, key, value, properties.get(key, {}), payments, own, action):
                if new != value:
                    yield index, key, value, new


def alternatives(domain, tables, key, value, schema, payments, own, action) -> list[Any]:
    if schema.get("enum"):
        return [v for v in schema["enum"] if v != value]
    if key in ("payment_method_id", "payment_id"):
        return [p for p in payments if p != value]
    if key in ("order_id", "reservation_id"):
        return [o for o in own if o != value]
    if key == "item_ids":
        order = tables["orders"][action["arguments"]["order_id"]]
        fewer = [value[:i] + value[i + 1 :] for i in range(len(value))] if len(value) > 1 else []
        others = [item["item_id"] for item in order["items"] if item["item_id"] not in value]
        return fewer + [[*value[:-1], other] for other in others[:2]]
    if key == "new_item_ids":
        out = []
        for i, item_id in enumerate(value):
            product = next((p for p in tables["products"].values() if item_id in p["variants"]), None)
            for variant_id, variant in sorted((product or {}).get("variants", {}).items()):
                if variant_id != item_id and variant.get("available", True):
                    out.append([*value[:i], variant_id, *value[i + 1 :]])
                    break
        return out
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, (int, float)):
        return [value + 1, value - 1]
    if isinstance(value, str) and key != "user_id":
        return [edited(value)]
    if key == "passengers" and isinstance(value, list):
        out = [value[:-1]] if len(value) > 1 else []
        for i, passenger in enumerate(value):
            for field in ("first_name", "last_name", "dob"):
                changed = {**passenger, field: edited(passenger[field])}
                out.append([*value[:i], changed, *value[i + 1 :]])
        return out
    return []


def mutation_testing(records: list[AgentRecord], domain: str, users: int) -> dict:
    env = get_environment(domain, users=users)
    tables = env.snapshot().tables
    tools = {tool.name: tool for tool in env.tools()}
    tried = refused = no_effect = killed = 0
    survivors, killers = [], Counter()
    for record in records:
        gold_hash = record.task.expected_outputs["gold_state_hash"]
        for index, key, old, new in mutations(record, tables, tools):
            tried += 1
            actions = [dict(a, arguments=dict(a["arguments"])) for a in record.task.expected_outputs["gold_actions"]]
            actions[index]["arguments"][key] = new
            mutant = gold_record(record, env, actions)
            if mutant is None:
                refused += 1
                continue
            if env.state_hash() == gold_hash:
                no_effect += 1
                continue
            verdict = verify_record(mutant)
            if verdict.passed is False:
                killed += 1
                killers[verdict.reasons[0] if verdict.reasons else "?"] += 1
            else:
                survivors.append(f"{record.id} {actions[index]['name']}.{key}: {old!r} -> {new!r} ({verdict.reasons})")
    return {
        "write_tasks": sum(1 for r in records if r.task.expected_outputs["outcome"] == "write"),
        "tried": tried,
        "refused": refused,
        "no_effect": no_effect,
        "mutants": tried - refused - no_effect,
        "killed": killed,
        "killers": killers,
        "survivors": survivors,
    }


# ---------------------------------------------------------------- (b) trivial agents before the gate


class GoldOnly(TaskSynthesizer):
    """The synthesizer without its trivial gate: drafts whose gold run passes are kept as they are."""

    def solve(self, draft) -> GoldRun:
        self.gold_env.reset(seed=self.db_seed)
        return solve(self.gold_env, self.environment, draft, self.env_factory)


def trivial_before_gate(domain: str, n: int, seed: int, users: int) -> dict:
    synth = GoldOnly(domain, users, 0)
    cfg = SynthTasksConfig(env=domain, n=n, seed=seed, users=users)
    drafts = synthesize_drafts(
        synth, n, cfg.constraint_range(), synth.domain.kinds(), seed, cfg.max_attempts, SynthStats()
    )
    by_agent, any_pass = Counter(), 0
    for draft, _, _ in drafts:
        passed = False
        for name, agent in TRIVIAL_AGENTS.items():
            synth.gold_env.reset(seed=0)
            steps = [TextObservation(content=draft.opening(), source="user"), *agent(synth.gold_env, draft)]
            if verify_trajectory(synth.environment, draft.task(), steps, synth.env_factory).passed:
                by_agent[name] += 1
                passed = True
        any_pass += passed
    return {"drafts": len(drafts), "passed_any": any_pass, "by_agent": by_agent}


# ---------------------------------------------------------------- (c) hand-labelled trajectories

_MONEY = re.compile(r"(?:\$|\bUSD\s?)\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*\.\d\d)\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_HEDGE = re.compile(r"\b(not|no|never|only|cannot|can|could|if|unless|without)\b|n't")
VERDICTS = {True: "pass", False: "fail", None: "undecided"}


def numbers(text: str) -> list[float]:
    return [float(t.replace(",", "")) for t in _NUMBER.findall(text) if t.replace(",", "").replace(".", "").isdigit()]


def hand_labelled(labelled: list[tuple[AgentRecord, str, str, str]]) -> dict:
    """(record, label, kind, name) through the chain: a table of (label, verdict) overall and per kind, and each
    disagreement with the chain's reasons."""
    table, by_kind, wrong = Counter(), {}, []
    for record, label, kind, name in labelled:
        result = verify_record(record)
        verdict = VERDICTS[result.passed]
        table[(label, verdict)] += 1
        by_kind.setdefault(kind, Counter())[(label, verdict)] += 1
        if (label == "right") != (verdict == "pass"):
            wrong.append(f"{label:5} {verdict:9} {kind:18} {name}: {', '.join(result.reasons)[:100]}")
    return {"table": table, "by_kind": by_kind, "disagreements": wrong}


def pass_figures(table: Counter) -> tuple[str, str, str]:
    """Precision and recall of a pass against the label, and the undecided share."""
    passed_right, passed_wrong = table[("right", "pass")], table[("wrong", "pass")]
    right = sum(n for (label, _), n in table.items() if label == "right")
    cases = sum(table.values())
    undecided = sum(n for (_, verdict), n in table.items() if verdict == "undecided")
    precision = f"{passed_right / (passed_right + passed_wrong):.3f}" if passed_right + passed_wrong else "-"
    recall = f"{passed_right / right:.3f}" if right else "-"
    return precision, recall, pct(undecided, cases)


def labelled_cases(domain: str) -> list[tuple[AgentRecord, str, str, str]]:
    from labelled.cases import cases, record_of

    return [(record_of(domain, case), case.label, case.kind, case.name) for case in cases(domain)]


def labelled_file(path: str) -> list[tuple[AgentRecord, str, str, str]]:
    """Records labelled elsewhere: one JSON object per line, a record with ``label``, ``kind`` (and ``rationale``)."""
    rows = []
    with open(path) as lines:
        for line in lines:
            row = json.loads(line)
            label, kind = row.pop("label"), row.pop("kind", "unknown")
            row.pop("rationale", None)
            record = AgentRecord.model_validate(row)
            rows.append((record, label, kind, record.source.original_id or record.id))
    return rows


def print_labelled(title: str, measured: dict) -> None:
    precision, recall, undecided = pass_figures(measured["table"])
    cases = sum(measured["table"].values())
    print(f"  (c) {title}: {cases} cases; precision {precision}, recall {recall}, undecided {undecided}")
    for kind, table in sorted(measured["by_kind"].items()):
        kind_precision, kind_recall, kind_undecided = pass_figures(table)
        print(
            f"      {kind:<20} {sum(table.values()):>4} cases: precision {kind_precision}, recall {kind_recall}, "
            f"undecided {kind_undecided}"
        )
    for line in measured["disagreements"][:MAX_SURVIVORS]:
        print(f"      disagrees: {line}")


def perturbed(records: list[AgentRecord], k: int, seed: int) -> list[AgentRecord]:
    """The perturbed oracle's rollouts (one seeded fault each): a mix of passing and failing work for (e)."""
    return list(run_rollouts(records, RolloutConfig(agent="perturbed", user="scripted", k=k, seed=seed), None, "vq"))


def gold_and_oracle(records: list[AgentRecord], seed: int, users: int) -> tuple[dict, list[AgentRecord]]:
    env = get_environment(records[0].environment.name, users=users) if records else None
    gold_passed, failures = 0, Counter()
    for record in records:
        rebuilt = gold_record(record, env, record.task.expected_outputs["gold_actions"])
        verdict = verify_record(rebuilt) if rebuilt else None
        gold_passed += bool(verdict and verdict.passed)
        if not (verdict and verdict.passed):
            failures[("gold", *(verdict.reasons[:2] if verdict else ["call_failed"]))] += 1
    oracle = list(run_rollouts(records, RolloutConfig(agent="oracle", user="scripted", k=1, seed=seed), None, "vq"))
    oracle_passed = 0
    for rollout in oracle:
        result = rollout.verifier.result
        oracle_passed += bool(result and result.passed)
        if not (result and result.passed):
            failures[("oracle", *(result.reasons[:2] if result else ["no verdict"]))] += 1
    summary = {"gold": (gold_passed, len(records)), "oracle": (oracle_passed, len(oracle)), "failures": failures}
    return summary, oracle


def speed(rollouts: list[AgentRecord]) -> tuple[float, float]:
    """(first pass, best of 3) verifications per second."""
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        for record in rollouts:
            verify_record(record)
        timings.append(time.perf_counter() - start)
    return len(rollouts) / timings[0], len(rollouts) / min(timings)


# ---------------------------------------------------------------- report


def report(domain: str, n: int, seed: int, users: int, k: int) -> None:
    start = time.perf_counter()
    records, _ = run_tasks(SynthTasksConfig(env=domain, n=n, seed=seed, users=users), "verifier-quality")
    print(f"\n=== {domain}: {len(records)} tasks (seed {seed}, {users} users) ===")
    mutation = mutation_testing(records, domain, users)
    trivial = trivial_before_gate(domain, n, seed, users)
    labelled = hand_labelled(labelled_cases(domain))
    perturbed_rollouts = perturbed(records, k, seed)
    gold, oracle_rollouts = gold_and_oracle(records, seed, users)
    first, best = speed(oracle_rollouts + perturbed_rollouts)
    closings = closing_mutation_testing(oracle_rollouts)
    kill = pct(mutation["killed"], mutation["mutants"])
    precision, recall, undecided = pass_figures(labelled["table"])
    rows = [
        ("(a) mutation kill rate", kill, "100%"),
        ("(b) trivial-agent pass rate (before gate)", pct(trivial["passed_any"], trivial["drafts"]), "0%"),
        ("(c) hand-labelled: precision of pass", precision, ">= 0.97"),
        ("(c) hand-labelled: recall of pass", recall, ">= 0.90"),
        ("(c) hand-labelled: undecided", undecided, "<= 10%"),
        ("(d) gold pass rate", pct(*gold["gold"]), "100%"),
        ("(d) oracle rollout pass rate", pct(*gold["oracle"]), "100%"),
        ("(e) full chain, verifications/s (best of 3)", f"{best:,.0f}", ">= 500"),
        (
            "(f) wrong closing messages failed",
            pct(sum(closings["killed"].values()), sum(closings["made"].values())),
            "100%",
        ),
    ]
    width = max(len(name) for name, _, _ in rows)
    print(f"{'figure':<{width}}  {'measured':<22}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:<22}  {target}")
    print(
        f"  (a) {mutation['write_tasks']} write tasks; {mutation['tried']} changes tried: {mutation['refused']} refused "
        f"by the world, {mutation['no_effect']} without effect on the final state, {mutation['mutants']} mutants; "
        f"killed first by: {dict(mutation['killers'].most_common())}"
    )
    for line in mutation["survivors"][:MAX_SURVIVORS]:
        print(f"      survivor: {line}")
    if len(mutation["survivors"]) > MAX_SURVIVORS:
        print(f"      ... {len(mutation['survivors']) - MAX_SURVIVORS} more survivors")
    print(f"  (b) gold-solved drafts passed, by trivial agent: {dict(trivial['by_agent'])}")
    print_labelled(f"bench/labelled {domain}", labelled)
    for key, count in gold["failures"].most_common(8):
        print(f"  (d) failed {count:>3}: {' | '.join(key)}")
    print(
        f"  (e) {len(oracle_rollouts) + len(perturbed_rollouts)} rollouts; first pass (cold gold cache) {first:,.0f}/s;"
        f" whole report {time.perf_counter() - start:.0f} s"
    )
    by_kind = ", ".join(f"{kind} {pct(closings['killed'][kind], n)}" for kind, n in closings["made"].items())
    print(f"  (f) mutants of the oracle's closing messages, failed by kind: {by_kind}")
    for line in closings["survivors"][:MAX_SURVIVORS]:
        print(f"      survivor: {line}")
    if len(closings["survivors"]) > MAX_SURVIVORS:
        print(f"      ... {len(closings['survivors']) - MAX_SURVIVORS} more survivors")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=200, help="Tasks per domain.")
    parser.add_argument("--seed", type=int, default=0, help="Seed of the synthesis and of the rollouts.")
    parser.add_argument("--users", type=int, default=500, help="Users in each world.")
    parser.add_argument("--k", type=int, default=2, help="Perturbed rollouts per task.")
    parser.add_argument("--domains", nargs="+", default=["retail", "airline"], help="Domains to measure.")
    parser.add_argument("--labelled", help="Measure only (c), on this JSONL file of labelled records.")
    args = parser.parse_args()
    if args.labelled:
        print_labelled(args.labelled, hand_labelled(labelled_file(args.labelled)))
        return
    for domain in args.domains:
        report(domain, args.n, args.seed, args.users, args.k)


if __name__ == "__main__":
    main()
