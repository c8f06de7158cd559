"""How good the verifier chain is, per domain, on synthesized tasks: the five figures of issue 18.

Run: python bench/verifier_quality.py [--n 200] [--seed 0] [--users 500] [--k 2] [--domains retail airline]
(under ``taskset -c 0`` for the speed figure: it is meant per core).

For retail and airline separately, on ``--n`` tasks of ``aceforge synth tasks`` (seed ``--seed``, ``--users``):

(a) **mutations**: every single-argument change of a gold write to another value the environment accepts
    (another enum value, another payment method or order of the user, one item fewer, another item of the
    order, another variant of the product, a number moved by one, a text field or a passenger field edited)
    that changes the final state. The gold trajectory with the mutated write (confirmed by the user, as the
    gold is) goes through the chain; the kill rate is the share it fails (target 100 %); survivors are listed.
(b) **trivial agents** (generators/synthesis/trivial_agents.py) on every gold-solved draft, before the
    synthesizer's trivial gate: the share of drafts some trivial agent passes (target 0 %).
(c) **perturbed rollouts** (the oracle with one seeded fault, the scripted user, ``--k`` per task) labelled by a
    check written here, independent of verifiers/: replaying the calls gives the task's gold state hash; every
    amount, id, date and status/level term the agent says (a term in a sentence with no denial or rule word
    before it), and every id-like call argument, appeared before in a user turn or a tool result (an amount may
    also be the money the next write moves, as the world's answer to it shows); every write call comes after a
    user "yes" to the agent's last message (a yes confirms one successful write); a refusal read the order or
    reservation it is about; a status said of an order, reservation or flight comes after a call that read it, and
    so does a write on it; in retail, an identity lookup succeeded before any account read. Precision and
    recall of the chain's pass verdict against that label (targets >= 0.98 and >= 0.95), with the disagreements
    by fault and reasons (the chain's when it fails, the label's when it passes).
(d) **gold**: the gold trajectories rebuilt from the task records, and oracle rollouts (k=1): pass rates (target 100 %).
(e) **speed**: full-chain verifications per second of the oracle and perturbed rollouts (best of 3 passes;
    the first, with a cold gold-state cache, is printed too).
(f) **wrong closing messages**: the last message of each passing oracle rollout with one value changed to a
    wrong one the conversation makes easy to say: a status, level or cabin to another of its kind, an amount to
    another number that was shown, an order, reservation, flight or payment method to another that was shown.
    The share of those mutants the chain fails (target 100 %); survivors are listed.

Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import re
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from environments.registry import get_environment
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
from schemas.steps import ApiAction, MessageAction, TextObservation
from verifiers.runner import verify_record

MAX_SURVIVORS = 15
IDENTITY_TOOLS = {"retail": {"find_user_id_by_email", "find_user_id_by_name_zip"}}
ACCOUNT_READS = {"retail": {"get_user_details", "get_order_details"}}


# ---------------------------------------------------------------- (f) wrong closing messages

# Values that stand for one another in a closing message: one attribute of a row each (listed here, not read
# from verifiers/, so that the mutants do not depend on what the chain knows).
FACT_GROUPS = {
    "retail": [("pending", "processed", "delivered", "cancelled", "return requested", "exchange requested")],
    "airline": [
        ("regular", "silver", "gold"),
        ("basic economy", "economy", "business"),
        ("available", "on time", "delayed", "flying", "landed", "cancelled"),
    ],
}
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


# ---------------------------------------------------------------- (c) the independent label

_MONEY = re.compile(r"(?:\$|\bUSD\s?)\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*\.\d\d)\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_TOKEN = re.compile(r"#?[A-Za-z0-9_]+")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_HEDGE = re.compile(r"\b(not|no|never|only|cannot|can|could|if|unless|without)\b|n't")
_YES = re.compile(r"\byes\b", re.IGNORECASE)
_ROW_NAME = re.compile(r"#R\d{7}|\b[A-Z]{6}\b|\bZA\d{3}\b")  # an order, a reservation, a flight
# Categorical facts an agent may state (statuses, levels, cabins): read from the worlds' data, listed here so
# that the label does not depend on the verifier's own list.
FACTS = {
    "retail": ("pending", "processed", "delivered", "cancelled", "return requested", "exchange requested"),
    "airline": (
        "regular",
        "silver",
        "gold",
        "basic economy",
        "business",
        "available",
        "on time",
        "delayed",
        "flying",
        "landed",
        "cancelled",
    ),
}


def money(text: str) -> list[float]:
    return [float((a or b).replace(",", "")) for a, b in _MONEY.findall(text)]


def numbers(text: str) -> list[float]:
    return [float(t.replace(",", "")) for t in _NUMBER.findall(text) if t.replace(",", "").replace(".", "").isdigit()]


def stated_ids(text: str) -> list[str]:
    """Tokens that name a row: '#R1234567', 'credit_card_4421', an item id, a tracking number (>= 4 digits)."""
    without_money = _DATE.sub(" ", _MONEY.sub(" ", text))
    return [t for t in _TOKEN.findall(without_money) if t.startswith("#") or sum(c.isdigit() for c in t) >= 4]


def asserted_facts(text: str, terms: tuple[str, ...]) -> list[str]:
    """Fact terms a message asserts: in a sentence without a denial or rule word before the term."""
    found = []
    for sentence in re.split(r"[.!?;]", text.lower().replace("_", " ")):
        for term in terms:
            at = sentence.find(term)
            if at >= 0 and not _HEDGE.search(sentence[:at]):
                found.append(term)
    return found


def label(record: AgentRecord, users: int) -> tuple[bool, list[str]]:
    """Whether the rollout did the task honestly, by this file's own reading; with what it got wrong."""
    domain = record.environment.name
    env = get_environment(domain, users=users, seed=record.environment.sandbox.get("seed", 0))
    writes = {tool.name for tool in env.tools() if tool.access == "write"}
    steps = record.trajectory
    results = []  # per step: the replayed result of a call
    for step in steps:
        results.append(env.call(step.function, step.kwargs) if isinstance(step, ApiAction) else None)
    problems = []
    if env.state_hash() != record.task.expected_outputs["gold_state_hash"]:
        problems.append("state")
    seen_text, seen_numbers, said_yes, looked_up, said_ids = "", [], False, set(), set()
    for index, step in enumerate(steps):
        if isinstance(step, TextObservation) and step.source in ("user", "tool"):
            seen_text += "\n" + step.content.lower().replace("_", " ") + "\n" + step.content.lower()
            seen_numbers += numbers(step.content)
            said_yes = said_yes or (step.source == "user" and bool(_YES.search(step.content)))
            if step.source == "user":
                said_ids |= set(_TOKEN.findall(step.content))
        elif isinstance(step, MessageAction):
            said_yes = False
            moved = next_write_result(steps, results, index, writes)
            for amount in money(step.content):
                if not any(math.isclose(amount, n, abs_tol=0.005) for n in seen_numbers + moved):
                    problems.append(f"amount {amount}")
            problems += [f"id {t}" for t in stated_ids(step.content) if t.lower() not in seen_text]
            problems += [f"date {d}" for d in _DATE.findall(step.content) if d not in seen_text]
            problems += [f"fact {t}" for t in asserted_facts(step.content, FACTS[domain]) if t not in seen_text]
            for sentence in re.split(r"[.!?;]", step.content):  # a status of a row comes from reading that row;
                # a plan ("I will update ... cabin basic_economy") states none
                if asserted_facts(sentence, FACTS[domain]) and not re.search(r"\bwill\b", sentence.lower()):
                    problems += [f"unread {t}" for t in _ROW_NAME.findall(sentence) if t not in looked_up]
        elif isinstance(step, ApiAction):
            for value in step.kwargs.values():
                for token in value if isinstance(value, list) else [value]:
                    if isinstance(token, str) and stated_ids(token) == [token] and token.lower() not in seen_text:
                        problems.append(f"argument {token}")
            if step.function in writes and not said_yes:
                problems.append(f"unconfirmed {step.function}")
            targets = [str(v) for k, v in step.kwargs.items() if k.endswith("_id")][:1]
            if step.function in writes and targets and targets[0] not in looked_up | said_ids:
                problems.append(f"unread target {targets[0]}")  # a write acts on what the user named or a call read
            if step.function in writes and results[index].ok:
                said_yes = False  # a yes confirms one write
            if results[index].ok:
                looked_up |= {str(v) for v in step.kwargs.values()}
    read = {
        str(v) for step, result in zip(steps, results) if result is not None and result.ok for v in step.kwargs.values()
    }
    for goal in record.task.metadata.get("goals", []):
        about = [v for k, v in goal.get("params", {}).items() if k in ("order_id", "reservation_id")]
        if goal.get("outcome") == "refusal" and not set(about) <= read:
            problems.append("refusal unread")
    identity, account = IDENTITY_TOOLS.get(domain), ACCOUNT_READS.get(domain, set())
    if identity:
        for step, result in zip(steps, results):
            if isinstance(step, ApiAction) and step.function in identity and result.ok:
                break
            if isinstance(step, ApiAction) and step.function in account:
                problems.append("identity")
                break
    return not problems, problems


def next_write_result(steps: list, results: list, index: int, writes: set[str]) -> list[float]:
    """Numbers of the world's answer to the first successful write after step ``index`` and before the agent's
    next message: the money a confirmed write moved."""
    for later in range(index + 1, len(steps)):
        step = steps[later]
        if isinstance(step, MessageAction):
            return []
        if isinstance(step, ApiAction) and results[later].ok and step.function in writes:
            return numbers(results[later].as_text())
    return []


def perturbed(
    records: list[AgentRecord], k: int, seed: int, users: int, show: int = 0
) -> tuple[dict, list[AgentRecord]]:
    cfg = RolloutConfig(agent="perturbed", user="scripted", k=k, seed=seed)
    rollouts = list(run_rollouts(records, cfg, None, "verifier-quality"))
    table = Counter()
    disagreements = Counter()
    for rollout in rollouts:
        good, problems = label(rollout, users)
        passed = bool(rollout.verifier.result and rollout.verifier.result.passed)
        table[(passed, good)] += 1
        if passed != good:
            why = rollout.verifier.result.reasons[:2] if not passed else sorted({p.split()[0] for p in problems})
            faults = [f["kind"] for f in rollout.lineage.generator.get("faults", [])]
            kind = "verifier fails, label good" if not passed else "verifier passes, label bad"
            disagreements[(kind, *faults, *why)] += 1
            if show > 0:
                show -= 1
                print_rollout(rollout, kind, problems)
    tp, fp, fn = table[(True, True)], table[(True, False)], table[(False, True)]
    return {
        "rollouts": len(rollouts),
        "table": table,
        "precision": tp / (tp + fp) if tp + fp else None,
        "recall": tp / (tp + fn) if tp + fn else None,
        "disagreements": disagreements,
    }, rollouts


def print_rollout(rollout: AgentRecord, kind: str, problems: list[str]) -> None:
    result = rollout.verifier.result
    print(f"--- {kind}: {rollout.task.instruction} faults={rollout.lineage.generator.get('faults')}")
    print(f"    chain: {result.reasons if result else None}; label: {problems}")
    for step in rollout.trajectory:
        if isinstance(step, ApiAction):
            print(f"    CALL {step.function} {step.kwargs}")
        elif isinstance(step, MessageAction):
            print(f"    AGENT {step.content[:300]}")
        elif isinstance(step, TextObservation):
            print(f"    {step.source.upper()} {step.content[:160]}")


# ---------------------------------------------------------------- (d) gold and oracle, (e) speed


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


def report(domain: str, n: int, seed: int, users: int, k: int, show: int = 0) -> None:
    start = time.perf_counter()
    records, _ = run_tasks(SynthTasksConfig(env=domain, n=n, seed=seed, users=users), "verifier-quality")
    print(f"\n=== {domain}: {len(records)} tasks (seed {seed}, {users} users) ===")
    mutation = mutation_testing(records, domain, users)
    trivial = trivial_before_gate(domain, n, seed, users)
    rolled, perturbed_rollouts = perturbed(records, k, seed, users, show)
    gold, oracle_rollouts = gold_and_oracle(records, seed, users)
    first, best = speed(oracle_rollouts + perturbed_rollouts)
    closings = closing_mutation_testing(oracle_rollouts)
    kill = pct(mutation["killed"], mutation["mutants"])
    table = rolled["table"]
    precision = f"{rolled['precision']:.3f}" if rolled["precision"] is not None else "-"
    recall = f"{rolled['recall']:.3f}" if rolled["recall"] is not None else "-"
    rows = [
        ("(a) mutation kill rate", kill, "100%"),
        ("(b) trivial-agent pass rate (before gate)", pct(trivial["passed_any"], trivial["drafts"]), "0%"),
        ("(c) perturbed: precision of pass", precision, ">= 0.98"),
        ("(c) perturbed: recall of pass", recall, ">= 0.95"),
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
    print(
        f"  (c) {rolled['rollouts']} perturbed rollouts (k={k}): verifier pass & label good {table[(True, True)]}, "
        f"pass & bad {table[(True, False)]}, fail & good {table[(False, True)]}, fail & bad {table[(False, False)]}"
    )
    for key, count in rolled["disagreements"].most_common(12):
        print(f"      {count:>4}  {' | '.join(key)}")
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
    parser.add_argument("--show", type=int, default=0, help="Print this many disagreeing rollouts per domain.")
    args = parser.parse_args()
    for domain in args.domains:
        report(domain, args.n, args.seed, args.users, args.k, args.show)


if __name__ == "__main__":
    main()
