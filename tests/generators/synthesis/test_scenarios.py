"""User scenarios: template shape; personas composed from traits (>= 50 distinct over 200 tasks), motives and
preferences that agree with the goal; the LLM writer's output parsed and checked, bad output a reason code that
falls back to the template or rejects the sample; one slow run of SmolLM2 (transformers) as the writer."""

from __future__ import annotations

import random

import pytest

from generators.llm.config import BackendConfig
from generators.rollouts.persona import TRAITS, describe
from generators.rollouts.scripted_user import first_person
from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.drafts import TaskDraft
from generators.synthesis.goals import Goal
from generators.synthesis.levels import LEVELS
from generators.synthesis.motives import LINKS, motive_sentences, motives_of
from generators.synthesis.scenarios import ScenarioWriter, apply_written, parse_written, template_scenario
from generators.synthesis.stages import run_tasks
from generators.synthesis.stats import SynthStats
from generators.synthesis.synthesizer import TaskSynthesizer, sample_rng
from schemas.stage_config import ConfigError
from tests.generators.synthesis.helpers import ScriptedGenerator

SHAPE = {"persona", "reason", "known_info", "unknown_info", "instructions", "traits", "behaviours"}
GOOD = '{"persona": "Ada, brisk", "reason": "You want your lamp gone.", "instructions": ["Be brief."]}'


@pytest.fixture(scope="module")
def drafts():
    synth = TaskSynthesizer("retail")
    made = []
    for index in range(4):
        rng = sample_rng("unit", index)
        made.append((synth.draft(rng, 2, 4, synth.domain.kinds(), LEVELS[3]), rng))
    return made


def test_the_template_scenario_has_the_contract_shape(drafts):
    for draft, rng in drafts:
        scenario = template_scenario(draft, rng)
        assert set(scenario) == SHAPE
        assert scenario["known_info"]["email" if "email" in scenario["known_info"] else "zip"]
        assert all(isinstance(v, str) for v in scenario["known_info"].values())
        assert draft.identity.name in scenario["persona"]
        # every request, verbatim but for a capital at the start of a sentence
        assert all(goal.request[1:] in scenario["reason"] for goal in draft.goals)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (GOOD, None),
        (f"Sure! ```json\n{GOOD}\n```", None),
        ("I am a customer who wants help.", "scenario_writer:no_json"),
        ('{"persona": "Ada", "reason": ', "scenario_writer:no_json"),
        ('{"persona": "Ada", "reason": "x" "y"}', "scenario_writer:unparseable"),
        ('{"persona": "Ada", "reason": "Lamp."}', "scenario_writer:schema_invalid"),
        ('{"persona": "   ", "reason": "Lamp!", "instructions": ["Be brief."]}', "scenario_writer:schema_invalid"),
    ],
)
def test_written_output_is_parsed_or_named(text, problem):
    data, found = parse_written(text)
    assert found == problem
    assert (data is None) == (problem is not None)


def test_the_writer_keeps_ids_out_of_the_model_and_falls_back_or_rejects(drafts):
    templates = [template_scenario(d, random.Random(0)) for d, _ in drafts]
    # Answers 2 and 4 fail and are asked again in one batch: the retry fixes answer 4, answer 2 keeps its reason.
    generator = ScriptedGenerator([GOOD, "no json at all", GOOD, '{"persona": 1}', "still none", GOOD])
    written = ScenarioWriter(generator).write([d for d, _ in drafts], templates)
    assert [problem for _, problem in written] == [None, "scenario_writer:no_json", None, None]
    assert written[3][0]["persona"] == "Ada, brisk"
    retry = generator.requests[-1]
    assert retry.messages[:-2] == generator.requests[3].messages
    assert retry.messages[-2] == {"role": "assistant", "content": '{"persona": 1}'}
    assert retry.messages[-1]["content"].startswith("Your answer was not valid: schema_invalid: ")
    first = written[0][0]
    assert first["persona"] == "Ada, brisk" and first["known_info"] == templates[0]["known_info"]
    assert first["instructions"][0] == "Be brief." and first["instructions"][1:] == templates[0]["instructions"]
    assert "JSON object only" in generator.requests[0].messages[-1]["content"]  # no schema enforcement: asked for
    assert generator.requests[0].json_schema is None

    stats = SynthStats()
    kept = apply_written(templates, written, "template", stats)
    assert [source for _, source in kept] == ["llm", "template", "llm", "llm"]
    assert dict(stats.scenario_fallbacks) == {"scenario_writer:no_json": 1}
    stats = SynthStats()
    kept = apply_written(templates, written, "reject", stats)
    assert [scenario is None for scenario, _ in kept] == [False, True, False, False]
    assert sum(stats.rejected.values()) == 1


def test_the_writer_model_is_named_once():
    with pytest.raises(ConfigError, match="scenario_writer"):
        SynthTasksConfig.from_mapping({"writer": {"model": "elsewhere"}})
    cfg = SynthTasksConfig.from_mapping({"scenario_writer": "default", "writer": {"backend": "transformers"}})
    assert cfg.writer_backend() == BackendConfig(backend="transformers", model="default")


@pytest.mark.slow  # loads SmolLM2 with transformers
def test_smollm2_writes_scenarios_or_falls_back_and_the_run_goes_on(data_home, smol_path, one_torch_thread):
    writer = BackendConfig(backend="transformers")
    cfg = SynthTasksConfig(env="retail", n=2, seed=2, scenario_writer=smol_path, writer=writer, writer_max_tokens=160)
    records, stats = run_tasks(cfg, "llm_written")
    assert len(records) == 2 and stats.kept == 2
    assert sum(stats.scenario_fallbacks.values()) == sum(
        r.task.metadata["scenario_source"] == "template" for r in records
    )
    assert set(stats.scenario_fallbacks) <= {
        "scenario_writer:no_json",
        "scenario_writer:unparseable",
        "scenario_writer:schema_invalid",
        "scenario_writer:backend_error",
    }
    for record in records:
        assert set(record.task.user_scenario) == SHAPE
        assert record.lineage.generator["scenario_writer"]["backend"] == "transformers"
    rejected, stats = run_tasks(cfg.model_copy(update={"writer_fallback": "reject"}), "llm_written")  # cached now
    assert stats.made == stats.kept + stats.as_dict()["rejected"] and len(rejected) == stats.kept


@pytest.fixture(scope="module", params=["retail", "airline"])
def two_hundred(request):
    records, stats = run_tasks(SynthTasksConfig(env=request.param, n=200, seed=0), "personas")
    assert stats.kept == 200
    return request.param, records


def test_personas_are_composed_from_traits_and_most_reasons_say_why(two_hundred):
    domain, records = two_hundred
    scenarios = [record.task.user_scenario for record in records]
    names = [TaskDraft.from_metadata(domain, record.task.metadata).identity.name for record in records]
    for scenario in scenarios:
        assert set(scenario["traits"]) == set(TRAITS)
        assert all(scenario["traits"][name] in values for name, values in TRAITS.items())
        assert describe(scenario["traits"]) in scenario["persona"]
    personas = {scenario["persona"].replace(name, "") for scenario, name in zip(scenarios, names)}
    assert len(personas) >= 50  # distinct without the customer's name
    assert len({tuple(sorted(s["traits"].items())) for s in scenarios}) >= 50
    assert {s["traits"]["verbosity"] for s in scenarios} == set(TRAITS["verbosity"])
    # A reason is the goals' requests (one sentence), then a motive or a preference for most tasks.
    said_why = [s["reason"].count(". ") >= 1 for s in scenarios]
    assert sum(said_why) >= 100
    # The same config gives the same scenarios (the level mix is laid out over n, so n is part of the config).
    once, again = (run_tasks(SynthTasksConfig(env=domain, n=30, seed=0), "personas")[0] for _ in range(2))
    assert [r.task.user_scenario for r in once] == [r.task.user_scenario for r in again]


def test_a_motive_agrees_with_the_goal_and_reads_in_the_first_person():
    def goal(kind: str, **params) -> Goal:
        return Goal(kind, "write", params, "", "", {}, [], [], "", [])

    assert set(motives_of(goal("cancel_pending_order", order_id="#R1", reason="ordered by mistake"))) == {
        "You clicked the wrong button while browsing on your phone.",
        "You meant to save it to your wish list, not to buy it.",
    }
    assert "It is a long flight and you have a bad back." in motives_of(
        goal("update_reservation_cabin", cabin="business")
    )
    to_card = goal("return_delivered_order_items", order_id="#R1", item_ids=["1"], payment_method_id="gift_card_1")
    to_paypal = goal("return_delivered_order_items", order_id="#R1", item_ids=["1"], payment_method_id="paypal_2")
    rng = random.Random(0)
    said = {tuple(motive_sentences([to_card], rng)) for _ in range(40)}
    linked = [link.format("it arrived scratched.") for link in LINKS]  # a motive is said as a reason
    assert any(
        (motive, "You prefer the refund on your gift card, so you can spend it right away.") in said
        for motive in linked
    )
    assert all("original payment" not in sentence for sentences in said for sentence in sentences)
    assert "You prefer the money back on the original payment method." in {
        sentence for _ in range(40) for sentence in motive_sentences([to_paypal], rng)
    }
    assert first_person(
        "You contact retail customer support because you want to return the Lamp from the order with the Lamp. "
        "You are doing your monthly budget. You prefer the refund on your gift card, so you can spend it right away."
    ) == (
        "Hi! I want to return the Lamp from the order with the Lamp. I am doing my monthly budget. I prefer the "
        "refund on my gift card, so I can spend it right away."
    )
