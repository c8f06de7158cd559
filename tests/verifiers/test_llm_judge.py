"""The LLM judge over duck-typed generation interfaces, with a fake model whose inputs are asserted."""

from __future__ import annotations

from types import SimpleNamespace

from schemas.record import AgentRecord, Source, Task, Verifier
from schemas.steps import MessageAction, TextObservation
from verifiers.base import CheckContext
from verifiers.llm_judge import LLMJudge, parse_verdict


class FakeModel:
    """Answers every conversation with a fixed text and remembers what it was asked."""

    def __init__(self, reply: str):
        self.reply, self.seen = reply, []

    def generate(self, conversations):
        self.seen.extend(conversations)
        return [self.reply for _ in conversations]


def record(spec=None) -> AgentRecord:
    return AgentRecord(
        id="j",
        task=Task(instruction="Say hello politely."),
        trajectory=[TextObservation(content="hi", source="user"), MessageAction(content="Hello there!")],
        verifier=Verifier(kind="judge", spec=spec or {}),
        source=Source(dataset="unit", format="literal"),
    )


def test_the_judge_sends_task_rubric_and_transcript_and_reads_a_json_verdict():
    model = FakeModel('Sure. {"score": 0.9, "reason": "polite greeting"}')
    verdict = LLMJudge(model).check(CheckContext(record=record({"judge": {"rubric": "Was it polite?"}})))
    assert (verdict.passed, verdict.score, verdict.evidence["judge_reason"]) == (True, 0.9, "polite greeting")
    prompt = model.seen[0][-1]["content"]
    assert "Say hello politely." in prompt and "Was it polite?" in prompt and "Hello there!" in prompt
    assert model.seen[0][0]["role"] == "system"


def test_low_scores_fail_against_the_threshold():
    verdict = LLMJudge(FakeModel('{"score": 0.6}')).check(CheckContext(record=record({"judge": {"threshold": 0.8}})))
    assert verdict.reasons == ["judge_failed"] and verdict.score == 0.6


def test_plain_callables_and_batch_backends_with_request_objects():
    assert LLMJudge(lambda convs: ["PASS"] * len(convs)).check(CheckContext(record=record())).passed
    made = []

    class Backend:
        def generate(self, requests, params):
            made.append((requests, params))
            return [SimpleNamespace(texts=["FAIL: rude"]) for _ in requests]

    judge = LLMJudge(Backend(), make_request=lambda messages: {"messages": messages}, params="greedy")
    verdict = judge.check(CheckContext(record=record()))
    assert verdict.reasons == ["judge_failed"]
    assert made[0][1] == "greedy" and made[0][0][0]["messages"][1]["role"] == "user"


def test_unparseable_output_errors_and_no_backend():
    assert LLMJudge(FakeModel("maybe?")).check(CheckContext(record=record())).reasons == ["judge_unparseable"]

    def broken(convs):
        raise ConnectionError("server down")

    assert LLMJudge(broken).check(CheckContext(record=record())).reasons == ["judge_error"]
    unavailable = LLMJudge(None).check(CheckContext(record=record()))
    assert (unavailable.passed, unavailable.reasons) == (None, ["judge_unavailable"])


def test_parse_verdict_clamps_scores():
    assert parse_verdict('{"score": 7}') == (1.0, "")
    assert parse_verdict("no verdict") is None
