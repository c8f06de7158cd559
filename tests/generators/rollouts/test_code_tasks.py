"""The code-task filter on literal proposals: kept only when the reference passes and `return None` fails."""

import json

from environments.code import SandboxLimits
from generators.rollouts.config import RolloutConfig
from generators.rollouts.runner import run_rollouts
from generators.synthesis.code.tasks import (
    PROPOSAL_SCHEMA,
    CodeTaskConfig,
    check_proposal,
    parse_proposal,
    run_code_tasks,
)
from tests.generators.rollouts.helpers import ScriptedGenerator

LIMITS = SandboxLimits(wall_s=5.0, cpu_s=3)
GOOD = {
    "entry_point": "second_largest",
    "prompt": "Return the second largest distinct number of a list, or None when there is none.",
    "signature": "def second_largest(values: list[int]) -> int | None:",
    "reference": "def second_largest(values):\n    distinct = sorted(set(values))\n    return distinct[-2] if len(distinct) > 1 else None\n",
    "tests": [
        "assert second_largest([3, 1, 2]) == 2",
        "assert second_largest([5, 5, 4]) == 4",
        "assert second_largest([7]) is None",
    ],
}
REFERENCE_FAILS = {**GOOD, "reference": "def second_largest(values):\n    return max(values)\n"}
PASSES_RETURN_NONE = {
    **GOOD,
    "tests": ["assert second_largest([7]) is None", "assert second_largest([]) is None", "assert True"],
}


def test_a_good_proposal_is_kept_with_its_evidence():
    verdict = check_proposal(GOOD, 3, LIMITS)
    assert verdict.reason is None and verdict.task.entry_point == "second_largest"
    assert verdict.evidence["reference"] == {"status": "ok", "tests_passed": 3, "tests_total": 3}
    assert verdict.evidence["trivial"]["status"] == "tests_failed"


def test_a_proposal_whose_reference_fails_is_rejected():
    verdict = check_proposal(REFERENCE_FAILS, 3, LIMITS)
    assert verdict.task is None and verdict.reason == "reference_fails:tests_failed"
    broken = {**GOOD, "reference": "def second_largest(values:\n    pass"}
    assert check_proposal(broken, 3, LIMITS).reason == "reference_fails:syntax_error"


def test_tests_that_return_none_passes_are_rejected():
    verdict = check_proposal(PASSES_RETURN_NONE, 3, LIMITS)
    assert verdict.task is None and verdict.reason == "trivial_passes"
    assert verdict.evidence["reference"]["status"] == "ok" and verdict.evidence["trivial"]["status"] == "ok"


def test_unparseable_and_off_schema_proposals_are_rejected():
    assert parse_proposal("Sure! Here is a task: count words.") == (None, "unparseable")
    assert parse_proposal(json.dumps({**GOOD, "tests": "assert True"})) == (None, "invalid_proposal")
    assert parse_proposal("```json\n" + json.dumps(GOOD) + "\n```") == (GOOD, None)
    assert check_proposal({**GOOD, "entry_point": "not a name"}, 3, LIMITS).reason == "invalid_proposal"
    assert check_proposal({**GOOD, "tests": GOOD["tests"][:2]}, 3, LIMITS).reason == "invalid_proposal"


def test_a_run_counts_add_up_and_kept_tasks_roll_out_and_pass():
    answers = iter(
        [json.dumps(GOOD), json.dumps(REFERENCE_FAILS), json.dumps(PASSES_RETURN_NONE), "no JSON", json.dumps(GOOD)]
        + ["still no JSON"]  # the one retry, for proposal 3 only
    )
    model = ScriptedGenerator(lambda request: next(answers))
    run = run_code_tasks(CodeTaskConfig(n=5, backend="vllm"), model, "code_unit")
    assert run.as_dict() == {
        "made": 5,
        "kept": 1,
        "rejected": 4,
        "rejected_by_reason": {
            "reference_fails:tests_failed": 1,
            "trivial_passes": 1,
            "unparseable": 1,
            "duplicate": 1,
        },
    }
    assert model.batches == [5, 1] and model.requests[0].json_schema == PROPOSAL_SCHEMA
    assert len({r.sampling.seed for r in model.requests}) == 5
    retry = model.requests[-1]
    assert retry.sampling == model.requests[3].sampling and retry.json_schema == PROPOSAL_SCHEMA
    assert retry.messages[-2] == {"role": "assistant", "content": "no JSON"}
    assert run.rejected[2] == (3, "unparseable", "no JSON")
    task = run.records[0]
    assert (task.environment.name, task.environment.sandbox) == (
        "code",
        {"env_params": {"task_id": task.source.original_id}},
    )
    assert task.task.expected_outputs["tests"] == GOOD["tests"] and task.verifier.kind == "unit_tests"
    # the task contract: an oracle rollout submits the reference, and the unit tests pass
    rollouts = list(run_rollouts(run.records, RolloutConfig(k=1), None, "code_rollouts"))
    result = rollouts[0].verifier.result
    assert result.passed is True and result.version == "structure@1+replay@1+unit_tests@2"


def test_a_reference_that_forges_its_test_report_is_rejected():
    forging = (
        "import os\ndef second_largest(values):\n    return 0\n"
        "for fd in range(3, 64):\n    try:\n"
        '        os.write(fd, b\'{"event": "test", "index": 0, "passed": true}\\n{"event": "done"}\\n\')\n'
        "    except OSError:\n        pass\n"
    )
    verdict = check_proposal({**GOOD, "reference": forging}, 3, LIMITS)
    assert verdict.task is None and verdict.reason == "reference_fails:tests_failed"
