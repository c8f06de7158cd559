"""Constraint-first tasks: every goal kind of both domains, on many seeds, is solvable by its gold actions
(replayed from the record alone and passed through the verifier chain), its descriptions resolve to exactly
the rows the gold acts on, its constraints are not vacuous, and its size follows the complexity knob."""

from __future__ import annotations

import pytest

from environments.registry import get_environment
from generators.synthesis import trivial_agents
from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.domains import get_domain
from generators.synthesis.fuzzify import resolve
from generators.synthesis.goals import World
from generators.synthesis.gold_solver import verify_trajectory
from generators.synthesis.stages import run_tasks
from generators.synthesis.stats import SynthStats
from generators.synthesis.synthesizer import TaskSynthesizer, synthesize_drafts
from generators.synthesis.trivial_agents import TRIVIAL_AGENTS, reject_if_trivial
from schemas.record import VerifierResult
from schemas.steps import TextObservation
from tests.generators.synthesis.helpers import gold_verdict, references, rollout_of
from verifiers.runner import verify_record

DOMAINS = ("retail", "airline")
SEEDS = range(4)
FAILED = VerifierResult(passed=False, score=0.0, verifier="chain")
CONSTRAINT_KINDS = {"message_contains", "state_equals", "state_delta", "no_write_outside", "action_not_called"}


@pytest.fixture(scope="module", params=DOMAINS)
def tasks_by_kind(request) -> tuple[str, dict]:
    """Per goal kind, the tasks of 4 seeds (3 tasks each, 1 to 5 constraints) that use only that kind."""
    domain = request.param
    found = {}
    for kind in get_domain(domain).kinds():
        found[kind] = []
        for seed in SEEDS:
            cfg = SynthTasksConfig(env=domain, n=3, constraints="1-5", goals=[kind], seed=seed, max_attempts=30)
            records, stats = run_tasks(cfg, "unit")
            assert stats.made == stats.kept + stats.as_dict()["rejected"]
            found[kind] += records
    return domain, found


def test_every_goal_kind_gives_tasks_whose_gold_passes_the_chain(tasks_by_kind):
    domain, found = tasks_by_kind
    for kind, records in found.items():
        assert records, f"{domain}: no task of kind {kind} on seeds {list(SEEDS)}"
        for record in records:
            verdict = gold_verdict(record)
            assert (verdict.passed, verdict.reasons) == (True, []), (kind, record.id, verdict.evidence)
            assert verdict.evidence["replay"]["final_state_hash"] == record.task.expected_outputs["gold_state_hash"]


def test_all_constraint_kinds_and_outcomes_occur(tasks_by_kind):
    domain, found = tasks_by_kind
    records = [r for rs in found.values() for r in rs]
    kinds = {c["check"] for r in records for c in r.task.constraints}
    assert kinds >= CONSTRAINT_KINDS, CONSTRAINT_KINDS - kinds
    assert {r.task.expected_outputs["outcome"] for r in records} == {"write", "read", "refusal"}
    for record in records:  # the contract's metadata: complexity counts the scored constraints
        scored = [c for c in record.task.constraints if c["check"] != "allow_write"]
        assert record.task.metadata["complexity"] == len(scored)
        assert record.task.metadata["constraint_kinds"] == sorted({c["check"] for c in scored})


def test_descriptions_resolve_to_exactly_the_rows_the_request_is_about(tasks_by_kind):
    domain, found = tasks_by_kind
    world = World(get_environment(domain, users=500))
    for record in (r for rs in found.values() for r in rs):
        known = set(record.task.user_scenario["known_info"].values())
        meta = record.task.metadata
        about = repr([meta["identity"]["user_id"], *(goal["params"] for goal in meta["goals"])])
        for ref in references(record):
            assert resolve(world, ref["query"]) == [ref["key"]], (record.id, ref)
            # what the user knows: the description itself, or its parts (first name, last name, zip)
            parts = [v for k, v in ref["query"].items() if k != "by" and isinstance(v, str)]
            assert any(ref["text"] in value for value in known) or set(parts) <= known, (record.id, ref)
            # the row is the one the request is about (the goal's parameters, or the identified user)
            assert ref["key"] in about, (record.id, ref)


def test_write_and_read_constraints_fail_without_the_gold_work(tasks_by_kind):
    """Only identifying the user and saying nothing must fail every write and read task (constraints have teeth)."""
    domain, found = tasks_by_kind
    for record in (r for rs in found.values() for r in rs):
        if record.task.expected_outputs["outcome"] == "refusal":
            continue
        identity = record.task.metadata["identity"]["actions"]
        verdict = verify_record(rollout_of(record, actions=identity, reply="Is there anything else?"))
        assert verdict.passed is False, record.id
        assert any(reason.startswith("constraint_failed:g0.") for reason in verdict.reasons), verdict.reasons


def test_a_refused_write_called_anyway_fails_its_task():
    records, _ = run_tasks(
        SynthTasksConfig(env="airline", n=3, goals=["refuse_remove_bags"], constraints="1", difficulty="2"), "u"
    )
    for record in records:
        reservation = record.task.expected_outputs["gold_actions"][-1]["arguments"]["reservation_id"]
        call = {"name": "update_reservation_baggages", "arguments": {"reservation_id": reservation}}
        call["arguments"] |= {"total_baggages": 0, "payment_id": "none"}  # refused by the world, but still called
        verdict = verify_record(rollout_of(record, actions=[*record.task.expected_outputs["gold_actions"], call]))
        assert "constraint_failed:g0.no_bag_change" in verdict.reasons


def test_the_constraint_count_follows_the_knob():
    """The knob is a target: a task has at least its goals' core constraints, more only up to HI."""
    means = []
    for spec, high in (("1", 1), ("2-4", 4), ("5", 5)):
        records, _ = run_tasks(SynthTasksConfig(env="retail", n=25, constraints=spec, seed=3), "unit")
        assert len(records) == 25
        for record in records:
            cores = sum(goal["core"] for goal in record.task.metadata["goals"])
            assert cores <= record.task.metadata["complexity"] <= max(high, cores)
        means.append(sum(r.task.metadata["complexity"] for r in records) / len(records))
    assert means[0] < means[1] < means[2]


def test_a_sample_that_repeats_an_earlier_task_is_rejected_as_a_duplicate():
    # 20 users and one read goal: many samples ask for the same tracking number of the same order.
    cfg = SynthTasksConfig(env="retail", users=20, n=30, constraints="1", goals=["tracking_number"], seed=0)
    records, stats = run_tasks(cfg, "unit")
    assert len(records) == 30 and stats.rejected["duplicate"] > 0
    tasks = {repr((r.task.constraints, r.task.expected_outputs["gold_actions"])) for r in records}
    assert len(tasks) == 30


def test_same_seed_same_records_other_seed_other_ids():
    def ids_and_rows(seed: int):
        records, _ = run_tasks(SynthTasksConfig(env="airline", n=20, constraints="1-3", seed=seed), "unit")
        return [r.id for r in records], [r.model_dump_json() for r in records]

    first, again, other = ids_and_rows(5), ids_and_rows(5), ids_and_rows(6)
    assert first == again
    assert len(set(first[0])) == 20
    assert not set(first[0]) & set(other[0])


def test_the_task_record_follows_the_contract():
    records, _ = run_tasks(SynthTasksConfig(env="retail", n=2, seed=1), "contract")
    record = records[0]
    assert record.trajectory == [] and record.verifier.kind == "constraints" and record.verifier.result is None
    assert record.environment.name == "retail" and record.environment.sandbox == {
        "env_params": {"users": 500},
        "seed": 0,
    }
    assert set(record.task.user_scenario) == {
        "persona",
        "reason",
        "known_info",
        "unknown_info",
        "instructions",
        "traits",
        "behaviours",
    }
    assert record.task.expected_outputs["gold_label"] == "programmatic"
    assert (record.source.dataset, record.source.format, record.source.original_id) == (
        "contract",
        "synth_tasks",
        record.id.rsplit("-", 1)[1],
    )
    assert record.lineage.generator == {
        "synthesizer": "constraint_first",
        "version": "1",
        "seed": 1,
        "scenario_writer": "template",
    }
    assert record.task.metadata["parents"] == [] and record.lineage.config_hash


def test_synthesized_tasks_and_their_rollouts_name_the_aceforge_version_that_made_them():
    from importlib.metadata import version

    from generators.rollouts.config import RolloutConfig
    from generators.rollouts.runner import run_rollouts

    tasks, _ = run_tasks(SynthTasksConfig(n=2, seed=1), "unit")
    rollouts = list(run_rollouts(tasks, RolloutConfig(agent="oracle", k=1), None, "unit"))
    assert {r.lineage.pipeline_version for r in [*tasks, *rollouts]} == {version("aceforge")}


def test_the_trivial_gate_runs_its_agents_only_where_the_gold_changes_no_row(monkeypatch):
    """The agents never write, so a task whose gold changes rows fails each of them at final_state: checked
    here on real drafts of the default mix, and the gate then skips them (it runs them on lookups only)."""
    synth = TaskSynthesizer("retail", 500)
    drafts = synthesize_drafts(synth, 12, (1, 5), synth.domain.kinds(), 5, 20, SynthStats())
    writes = [(d, g) for d, g, _ in drafts if g.verdict.evidence["final_state"]["gold_rows"]]
    lookups = [(d, g) for d, g, _ in drafts if not g.verdict.evidence["final_state"]["gold_rows"]]
    assert writes and lookups
    for draft, _ in writes:
        for agent in TRIVIAL_AGENTS.values():
            synth.gold_env.reset(seed=synth.db_seed)
            steps = [TextObservation(content=draft.opening(), source="user"), *agent(synth.gold_env, draft)]
            verdict = verify_trajectory(synth.environment, draft.task(), steps, synth.env_factory)
            assert verdict.passed is False and "missing_change" in verdict.reasons
    chains = []
    monkeypatch.setattr(trivial_agents, "verify_trajectory", lambda *a, **k: chains.append(a) or FAILED)
    reset = lambda: synth.gold_env.reset(seed=synth.db_seed)  # noqa: E731
    for draft, gold in writes:
        reject_if_trivial(synth.gold_env, reset, synth.environment, draft, synth.env_factory, gold.verdict)
    assert chains == []
    draft, gold = lookups[0]
    reject_if_trivial(synth.gold_env, reset, synth.environment, draft, synth.env_factory, gold.verdict)
    assert len(chains) == len(TRIVIAL_AGENTS)
