"""A judge decides what the rules leave undecided only with its agreement with the hand labels measured."""

from __future__ import annotations

from tests.verifiers.handwritten import rollout
from tests.verifiers.labelled_tasks import cancel_task, tove_cancel
from tests.verifiers.scripted_model import ScriptedModel
from verifiers.batch import VerifyStats, reverify
from verifiers.judge_trust import Agreement, JudgeAgreement, why_untrusted

SCRIPTED = ScriptedModel.model_id


def agreement_file(tmp_path, judge: dict, **by_kind: Agreement):
    path = tmp_path / "agreement.json"
    path.write_text(JudgeAgreement(judge=judge, labelled_set="literal", by_kind=by_kind).model_dump_json())
    return path


def test_a_verdict_counts_toward_its_labels_side_and_no_verdict_disagrees():
    agreement = Agreement()
    for label, verdict in [("right", True), ("right", False), ("wrong", False), ("wrong", None), ("wrong", True)]:
        agreement.add(label, verdict)
    assert (agreement.right, agreement.right_agreed, agreement.wrong, agreement.wrong_agreed) == (2, 1, 3, 1)
    assert (agreement.on_right, round(agreement.on_wrong, 3), agreement.overall) == (0.5, 0.333, 0.4)


def test_a_judge_is_trusted_only_by_a_file_that_measured_it_above_the_bar(tmp_path):
    assert "not measured" in why_untrusted(None, SCRIPTED, 0.9)
    good = {"consent": Agreement(right=10, right_agreed=10, wrong=10, wrong_agreed=9)}
    good["refusal"] = Agreement(right=10, right_agreed=9, wrong=10, wrong_agreed=10)
    assert why_untrusted(agreement_file(tmp_path, SCRIPTED, **good), SCRIPTED, 0.9) is None  # 0.95 on each side
    other = why_untrusted(agreement_file(tmp_path, {"model": "other", "hash": "1"}, **good), SCRIPTED, 0.9)
    assert other.endswith("measured another model (other, hash 1)")
    passes_all = Agreement(right=30, right_agreed=30, wrong=20, wrong_agreed=0)  # 0.60 overall, 0 on wrong ones
    low = why_untrusted(agreement_file(tmp_path, SCRIPTED, told_facts=passes_all), SCRIPTED, 0.5)
    assert (
        low == "it agrees with the hand labels on 1.00 of right and 0.00 of wrong trajectories, below the 0.50 required"
    )
    broken = tmp_path / "broken.json"
    broken.write_text('{"judge": {"model": "scripted"}}')
    assert why_untrusted(broken, SCRIPTED, 0.9).endswith(
        "is not an agreement file bench/judge_agreement.py wrote (ValidationError)"
    )


def test_an_untrusted_judge_leaves_undecided_records_undecided_and_is_not_asked():
    conditional = cancel_task().model_copy(
        update={"trajectory": rollout("retail", tove_cancel(answer="Yes, as long as it goes back to my card."))}
    )
    model, stats = ScriptedModel('{"score": 0.9}'), VerifyStats()
    [kept] = reverify([conditional], stats, model=model, judge_decides_undecided=False)
    assert (kept.verifier.result.passed, kept.verifier.result.reasons) == (None, ["consent_conditional"])
    assert (stats.undecided, model.requests) == (1, [])
    [judged] = reverify([conditional], VerifyStats(), model=model, judge_decides_undecided=True)
    assert judged.verifier.result.passed is True and len(model.requests) == 1


def test_a_record_whose_own_v_asks_for_the_judge_is_judged_even_untrusted():
    from tests.verifiers.scripted_model import greeting_record

    model, stats = ScriptedModel("FAIL"), VerifyStats()
    [judged] = reverify([greeting_record()], stats, model=model, judge_decides_undecided=False)
    assert judged.verifier.result.reasons == ["judge_failed"] and stats.failed == 1
