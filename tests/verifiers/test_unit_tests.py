"""Unit-test verification of code tasks: solutions from τ, hidden tests from q, sandbox reasons."""

from __future__ import annotations

from environments.code import example_task
from schemas.record import AgentRecord, Environment, Source, Verifier
from schemas.steps import ApiAction, CodeAction, MessageAction, TextObservation
from verifiers.base import CheckContext
from verifiers.unit_tests import UnitTestVerifier

TASK = example_task("is_balanced")


def code_record(trajectory, task=TASK, spec=None) -> AgentRecord:
    return AgentRecord(
        id="code-test",
        environment=Environment(kind="code_sandbox", name="code"),
        task=task.to_task(),
        trajectory=trajectory,
        verifier=Verifier(kind="unit_tests", spec=spec or {}),
        source=Source(dataset="unit", format="literal"),
    )


def check(trajectory, **kwargs):
    return UnitTestVerifier().check(CheckContext(record=code_record(trajectory, **kwargs)))


def test_the_reference_in_a_fenced_block_passes():
    verdict = check([MessageAction(content=f"Here it is:\n```python\n{TASK.reference}```\nDone.")])
    assert (verdict.passed, verdict.score, verdict.reasons) == (True, 1.0, [])
    assert verdict.evidence["tests_passed"] == 5


def test_a_subtly_wrong_solution_fails_some_tests():
    wrong = "def is_balanced(text):\n    return text.count('(') == text.count(')')\n"
    verdict = check(
        [
            ApiAction(function="submit_solution", kwargs={"code": wrong}, tool_call_id="s"),
            TextObservation(content="submitted", source="tool", tool_call_id="s"),
            MessageAction(content="ok"),
        ]
    )
    assert verdict.passed is False
    assert verdict.reasons == ["tests_failed"]
    assert verdict.score == 0.8  # only '}{' (no parentheses, wrong order) fails


def test_the_last_code_action_is_the_solution():
    verdict = check(
        [CodeAction(language="python", content="def is_balanced(text):\n    while True:\n        pass\n")],
        spec={"limits": {"cpu_s": 1, "wall_s": 5}},
    )
    assert verdict.reasons == ["timeout"]
    assert verdict.score == 0.0


def test_sandbox_violations_are_the_reason():
    escape = "open('/etc/aceforge-was-here', 'w')\n" + TASK.reference
    assert check([CodeAction(language="python", content=escape)]).reasons == ["write_denied"]


def test_no_solution_and_no_tests():
    assert check([MessageAction(content="I cannot do this.")]).reasons == ["no_solution"]
    record = code_record([MessageAction(content="```python\nx = 1\n```")])
    record.task.expected_outputs = {}
    assert UnitTestVerifier().check(CheckContext(record=record)).reasons == ["no_tests"]


def code_env_record(submission: str) -> AgentRecord:
    """A trajectory in the code environment: try the function, then submit it."""
    from environments.code import CodeEnvironment
    from environments.record_env import to_record_environment

    live = CodeEnvironment("is_balanced")
    environment = to_record_environment(live, snapshot_id="code-is_balanced", kind="code_sandbox")
    environment.sandbox = {"env_params": {"task_id": "is_balanced"}}
    probe = submission + "\nprint(is_balanced('([])'))\n"
    steps = [TextObservation(content=TASK.instruction(), source="user")]
    for cid, (tool, code) in enumerate((("run_python", probe), ("submit_solution", submission))):
        steps.append(ApiAction(function=tool, kwargs={"code": code}, tool_call_id=f"c{cid}"))
        steps.append(
            TextObservation(content=live.call(tool, {"code": code}).as_text(), source="tool", tool_call_id=f"c{cid}")
        )
    steps.append(MessageAction(content="Submitted."))
    return AgentRecord(
        id="code-env",
        environment=environment,
        task=TASK.to_task(),
        trajectory=steps,
        verifier=Verifier(kind="unit_tests"),
        source=Source(dataset="unit", format="literal"),
    )


def test_a_code_environment_trajectory_is_replayed_then_its_submission_tested():
    from verifiers.runner import verify_record

    good = verify_record(code_env_record(TASK.reference))
    assert (good.passed, good.reasons) == (True, [])
    assert [s["verifier"] for s in good.evidence["stages"]] == ["structure", "replay", "unit_tests"]
    wrong = verify_record(code_env_record("def is_balanced(text):\n    return len(text) % 2 == 0\n"))
    assert wrong.reasons == ["tests_failed"]
    assert wrong.evidence["unit_tests"]["tests_passed"] == 2  # only the two even-length balanced cases
