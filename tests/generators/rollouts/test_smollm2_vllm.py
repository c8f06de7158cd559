"""SmolLM2 through the vLLM backend (the engine the generator tests share): llm-agent rollouts with --tool-calls schema,
verified whatever the model does, and code-task proposals filtered in the sandbox. Acceptance is expected to be
low with a 135M model; these tests check that the pipeline runs end to end and accounts for every sample."""

import pytest

from generators.llm.cached import CachedGenerator
from generators.rollouts.conversation import USER_STOPS
from generators.rollouts.runner import RolloutSummary
from generators.synthesis.code.tasks import CodeTaskConfig, run_code_tasks
from tests.generators.rollouts.helpers import balance_task, cancel_task, roll

pytestmark = pytest.mark.slow

END_REASONS = {
    *USER_STOPS,
    "max_turns",
    "max_tool_errors",
    "max_tokens",
    "malformed_output",
    "empty_reply",
    "context_overflow",
    "backend_error",
}


@pytest.fixture
def smol_vllm(smol_vllm_engine):
    return CachedGenerator(smol_vllm_engine, cache=None)


def test_llm_agent_rollouts_with_schema_tool_calls_are_recorded_and_verified(smol_vllm):
    records, summary = roll(
        [cancel_task(), balance_task()],
        smol_vllm,
        k=1,
        agent="llm",
        tool_calls="schema",
        backend="vllm",
        budget={"max_turns": 2},
        sampling={"temperature": 0.7, "max_tokens": 64},
    )
    assert isinstance(summary, RolloutSummary) and summary.rollouts == len(records) == 2
    assert summary.passed + summary.failed + summary.undecided == 2
    for record in records:
        assert record.details["end_reason"] in END_REASONS
        assert record.verifier.result is not None and record.verifier.result.version.startswith("structure@1")
        assert record.lineage.generator["backend"]["backend"] == "vllm"
        assert record.lineage.usage["calls"] >= 1 and record.lineage.usage["tokens_out"] >= 1
        # whatever the model wrote parsed into calls (with results) or messages, or ended the rollout with a reason
        assert record.trajectory[0].source == "user"
    assert summary.scheduler.backend_calls < summary.scheduler.requests  # conversations shared batches
    print(f"SmolLM2 schema rollouts: {summary.as_dict()}")


def test_code_task_proposals_are_accounted_for(smol_vllm):
    run = run_code_tasks(
        CodeTaskConfig(n=4, backend="vllm", sampling={"temperature": 0.8, "max_tokens": 320}), smol_vllm, "code_smol"
    )
    counts = run.as_dict()
    assert counts["made"] == 4 == counts["kept"] + counts["rejected"]
    assert sum(counts["rejected_by_reason"].values()) == counts["rejected"]
    known = ("unparseable", "invalid_proposal", "reference_fails:", "trivial_passes", "duplicate", "backend_error")
    assert all(reason.startswith(known) for reason in counts["rejected_by_reason"])
    for record in run.records:
        assert record.task.metadata["filter"]["reference"]["status"] == "ok"
    print(f"SmolLM2 code proposals: {counts}")
