"""The paraphrase stage: a rewrite of a scenario's reason is kept only when every id, amount, date, number, known
name and condition survives; a rejected one leaves the original and is counted by reason code. One slow run of
SmolLM2 (transformers) as the paraphraser through the tasks stage."""

from __future__ import annotations

import json

import pytest

from generators.llm.config import BackendConfig
from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.paraphrase import Paraphraser, apply_paraphrases, known_names, lost_fact
from generators.synthesis.stages import run_tasks
from generators.synthesis.stats import SynthStats
from schemas.stage_config import ConfigError
from tests.generators.synthesis.helpers import ScriptedGenerator

ORIGINAL = (
    "You contact airline customer support because you want to move the trip from SEA to JFK on 2025-06-12 to "
    "business, settling the fare difference with your travel certificate of $1,250.50, but only if flight HAT170 "
    "is not cancelled; you will bring 2 bags."
)
NAMES = ["the trip from SEA to JFK on 2025-06-12", "my travel certificate of $1,250.50", "business"]
KEPT = (
    "Only if flight HAT170 is not cancelled, you would like the trip from SEA to JFK on 2025-06-12 upgraded to "
    "business; your travel certificate of $1,250.50 should cover the fare difference, and you bring 2 bags."
)


def reworded(text: str) -> str:
    return json.dumps({"reason": text})


@pytest.mark.parametrize(
    ("paraphrase", "problem"),
    [
        (KEPT, None),
        (KEPT.replace(" of $1,250.50", ""), "lost_amount"),
        (KEPT.replace("2025-06-12", "2025-06-13"), "lost_date"),
        (KEPT.replace("HAT170", "HAT171"), "lost_id"),
        (KEPT.replace("2 bags", "two bags"), "lost_number"),
        (KEPT.replace("the trip from SEA to JFK", "your SEA-JFK trip"), "lost_name"),
        (KEPT.replace(" not cancelled", " on time"), "lost_condition"),
        (KEPT.replace("Only if", "If"), "lost_condition"),
        (KEPT.replace("2 bags", "2 bags and pay a $30 fee"), "added_fact"),
        (
            KEPT.replace("you would like", "I would like")
            .replace("your travel", "my travel")
            .replace("you bring", "I bring"),
            "not_second_person",
        ),
        (ORIGINAL, "unchanged"),
    ],
)
def test_a_rewrite_is_kept_only_when_every_fact_survives(paraphrase, problem):
    assert lost_fact(ORIGINAL, paraphrase, NAMES) == problem


def test_money_survives_in_any_of_its_forms_and_contractions_keep_a_negation():
    original = "You want a refund of $1,234.50 to your gift card, but you do not want the $100.00 fee."
    assert lost_fact(original, "You'd like $1234.5 back on your gift card, and you don't want the 100 fee.", []) is None
    assert lost_fact(original, "You'd like 1234.50 back on your gift card, and you don't want the fee.", []) == (
        "lost_amount"
    )


def test_an_echo_or_a_request_about_something_else_is_not_a_paraphrase():
    original = "You contact airline customer support because you want to find out your membership level."
    assert lost_fact(original, "You would like to know which membership level you have.", []) is None
    assert lost_fact(original, "You ...", []) == "length_changed"
    assert lost_fact(original, "You want to book a flight to Paris next week, please.", []) == "drifted"


def test_the_paraphraser_keeps_what_survives_and_counts_the_rest_by_reason():
    reasons = [ORIGINAL, ORIGINAL, ORIGINAL, ORIGINAL]
    generator = ScriptedGenerator(
        [
            reworded(KEPT),
            reworded(KEPT.replace(" of $1,250.50", "")),  # drops the amount
            reworded(KEPT.replace("2025-06-12", "2025-06-21")),  # changes the date
            "Sure, here you go: you want a better seat.",  # no JSON: asked again once, in its own batch
            "still no JSON",
        ]
    )
    rewritten = Paraphraser(generator).rewrite(reasons, [NAMES] * 4)
    assert rewritten == [
        (KEPT, None),
        (None, "paraphrase:lost_amount"),
        (None, "paraphrase:lost_date"),
        (None, "paraphrase:no_json"),
    ]
    assert [len(batch) for batch in (generator.requests[:4], generator.requests[4:])] == [4, 1]
    assert generator.requests[0].messages[-1]["content"].startswith(f"Rewrite: {ORIGINAL}")

    scenarios = [{"reason": ORIGINAL, "known_info": {"trip": NAMES[0]}} for _ in range(4)]
    stats = SynthStats()
    identity = {"backend": "scripted", "model": "fixed-texts"}
    out, notes = apply_paraphrases([scenarios[0], None, *scenarios[1:]], rewritten, identity, stats)
    assert [s and s["reason"] for s in out] == [KEPT, None, ORIGINAL, ORIGINAL, ORIGINAL]
    assert notes[0] == {"by": identity, "outcome": "kept", "original": ORIGINAL} and notes[1] is None
    assert [n["outcome"] for n in notes[2:]] == ["paraphrase:lost_amount", "paraphrase:lost_date", "paraphrase:no_json"]
    assert stats.as_dict()["paraphrases"] == {
        "tried": 4,
        "kept": 1,
        "rejected_by_reason": {"paraphrase:lost_amount": 1, "paraphrase:lost_date": 1, "paraphrase:no_json": 1},
    }


def test_the_paraphraser_model_is_named_once():
    with pytest.raises(ConfigError, match="paraphraser"):
        SynthTasksConfig.from_mapping({"paraphrase": {"model": "elsewhere"}})
    cfg = SynthTasksConfig.from_mapping({"paraphraser": "default", "paraphrase": {"backend": "transformers"}})
    assert cfg.paraphraser_backend() == BackendConfig(backend="transformers", model="default")
    assert SynthTasksConfig().paraphraser_backend() is None


def test_without_a_paraphraser_records_say_nothing_about_one():
    records, stats = run_tasks(SynthTasksConfig(env="retail", n=2, seed=1), "unit")
    assert all("reason_paraphrase" not in r.task.metadata for r in records)
    assert stats.as_dict()["paraphrases"] == {"tried": 0, "kept": 0, "rejected_by_reason": {}}


@pytest.mark.slow  # loads SmolLM2 with transformers
def test_smollm2_paraphrases_reasons_and_only_faithful_rewrites_are_kept(data_home, smol_path, one_torch_thread):
    cfg = SynthTasksConfig(
        env="airline",
        n=4,
        seed=3,
        paraphraser=smol_path,
        paraphrase=BackendConfig(backend="transformers"),
        paraphrase_max_tokens=120,
    )
    records, stats = run_tasks(cfg, "paraphrased")
    plain, _ = run_tasks(cfg.model_copy(update={"paraphraser": None}), "plain")
    counts = stats.as_dict()["paraphrases"]
    assert len(records) == 4 and counts["tried"] == 4
    assert counts["kept"] + sum(counts["rejected_by_reason"].values()) == counts["tried"]
    assert [r.id for r in records] == [r.id for r in plain]  # the same tasks: only the wording may differ
    for record, original in zip(records, plain):
        note = record.task.metadata["reason_paraphrase"]
        assert note["by"]["backend"] == "transformers"
        reason = record.task.user_scenario["reason"]
        if note["outcome"] == "kept":
            assert note["original"] == original.task.user_scenario["reason"] != reason
            assert lost_fact(note["original"], reason, known_names(record.task.user_scenario)) is None
        else:
            assert note["outcome"].startswith("paraphrase:") and reason == original.task.user_scenario["reason"]
    assert counts["kept"] == sum(r.task.metadata["reason_paraphrase"]["outcome"] == "kept" for r in records)
