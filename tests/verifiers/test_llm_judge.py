"""The LLM judge over the generators/ batch interface: prompt and parsing with a scripted model, then SmolLM2 for real."""

from __future__ import annotations

import pytest

from tests.verifiers.scripted_model import JUDGE_REASONS, ScriptedModel, greeting_record
from verifiers.base import CheckContext
from verifiers.llm_judge import JUDGE_PARAMS, LLMJudge, parse_verdict
from verifiers.runner import verify_record


def judge(model: ScriptedModel, spec: dict | None = None):
    return LLMJudge().check(CheckContext(record=greeting_record(spec), model=model))


def test_the_judge_sends_task_rubric_and_transcript_and_reads_a_json_verdict():
    model = ScriptedModel('Sure. {"score": 0.9, "reason": "polite greeting"}')
    verdict = judge(model, {"judge": {"rubric": "Was it polite?"}})
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 0.9, [])
    assert verdict.evidence["judge_reason"] == "polite greeting"
    assert verdict.evidence["model"] == {"model": "scripted", "hash": "0"}
    [request] = model.requests
    assert [m["role"] for m in request.messages] == ["system", "user"]
    prompt = request.messages[-1]["content"]
    assert "Say hello politely." in prompt and "Was it polite?" in prompt and "Hello there!" in prompt
    assert model.params == [JUDGE_PARAMS] and JUDGE_PARAMS.greedy and JUDGE_PARAMS.max_tokens == 128


def test_low_scores_fail_against_the_threshold_and_bare_verdicts_count():
    verdict = judge(ScriptedModel('{"score": 0.6}'), {"judge": {"threshold": 0.8}})
    assert (verdict.passed, verdict.score, verdict.reasons) == (False, 0.6, ["judge_failed"])
    assert judge(ScriptedModel("PASS")).passed is True
    assert judge(ScriptedModel("It was rude. FAIL")).reasons == ["judge_failed"]


def test_unparseable_answers_and_model_failures_are_reason_codes_that_name_the_model():
    model = ScriptedModel("maybe?")
    unparseable = judge(model)
    assert (unparseable.passed, unparseable.reasons) == (False, ["judge_unparseable"])
    assert unparseable.evidence == {"model": ScriptedModel.model_id, "output": "maybe?"}
    first, retry = model.requests  # asked once more, shown its answer; still no verdict
    assert retry.messages[:-2] == first.messages and retry.messages[-2] == {"role": "assistant", "content": "maybe?"}
    raised = judge(ScriptedModel(raises=ConnectionError("server down")))
    assert raised.reasons == ["judge_error"]
    assert raised.evidence == {"model": ScriptedModel.model_id, "detail": "ConnectionError: server down"}
    refused = judge(ScriptedModel(refuse="prompt too long: 3000 tokens > 2048"))
    assert refused.reasons == ["judge_error"] and refused.evidence["detail"].startswith("prompt too long")


def test_without_a_model_the_judge_has_no_verdict():
    verdict = verify_record(greeting_record())
    assert (verdict.passed, verdict.score, verdict.reasons) == (None, None, ["judge_unavailable"])
    assert verdict.evidence["llm_judge"] == {"missing": ["model"]}


def test_parse_verdict_clamps_scores():
    assert parse_verdict('{"score": 7}') == (1.0, "")
    assert parse_verdict('{"score": true} then {"score": 0.25, "reason": "r"}') == (0.25, "r")
    assert parse_verdict("no verdict") is None


@pytest.fixture(scope="module")
def smol_generator(smol_path):
    """SmolLM2 on the transformers backend, built the way `aceforge verify --judge-backend transformers` builds it."""
    from generators.llm.config import BackendConfig

    generator = BackendConfig(backend="transformers", model=smol_path, cache=False).make_generator()
    yield generator
    generator.close()


@pytest.mark.slow  # loads SmolLM2 with transformers
def test_smollm2_judges_a_record_with_a_judge_reason_code_and_its_identity_in_evidence(smol_generator, smol_path):
    verdict = verify_record(greeting_record(), model=smol_generator)
    [stage] = verdict.evidence["stages"]
    assert stage["verifier"] == "llm_judge" and stage["passed"] in (True, False)
    if verdict.passed:
        assert verdict.reasons == []
    else:  # a model was given, so never judge_unavailable: it answered, or failed to
        assert verdict.reasons and set(verdict.reasons) <= JUDGE_REASONS - {"judge_unavailable"}
    evidence = verdict.evidence["llm_judge"]
    assert evidence["model"] == smol_generator.model_id
    assert evidence["model"]["model"].endswith("SmolLM2-135M-Instruct") and len(evidence["model"]["hash"]) > 8
    assert evidence.get("output") or evidence.get("detail")  # what the model said, or why it could not
    # Greedy SmolLM2-135M's first answer to this prompt is no verdict: it is asked once more, in a second batch.
    summary = smol_generator.ledger.summary
    assert (summary.calls, summary.batches) == (2, 2)
