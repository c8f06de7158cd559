"""Unit tests: run a code task's hidden tests on the agent's solution in the sandbox.

The tests come from q (``task.expected_outputs``: entry_point, tests,
test_setup; see environments/code/task.py). The solution is the replayed
``code`` environment's submission when there was a replay, else the last
``submit_solution`` call, python code action or fenced code block of τ.
Sandbox limits are the operator's (environments/code/config.py);
``v.spec["limits"]`` may lower them, never raise them (nor turn on a network).
Evidence from the sandbox is bounded and scrubbed of paths outside the task
folder (environments/code/sandbox.py) before it is kept.

score = fraction of tests passed; passed only when the sandbox status is ``ok``.
Reason codes are the sandbox's statuses: ``tests_failed``, ``timeout``,
``memory_limit``, ``process_limit``, ``syscall_denied``, ``write_denied``, ``network_denied``,
``output_limit``, ``crashed``, ``sandbox_error``, ``syntax_error``,
``missing_entry_point``, ``runtime_error``; plus ``no_solution`` and ``no_tests``.
"""

from __future__ import annotations

from environments.code.config import sandbox_config
from environments.code.sandbox import run_python
from schemas.record import VerifierResult
from verifiers.base import CheckContext, RecordVerifier
from verifiers.trajectory_view import submitted_code

MAX_TEST_RESULTS = 20


def solution_of(ctx: CheckContext) -> str | None:
    if ctx.final_env is not None:
        submission = ctx.final_env.state().get("submission")
        if isinstance(submission, str):
            return submission
    return submitted_code(ctx.record.trajectory)


class UnitTestVerifier(RecordVerifier):
    name = "unit_tests"
    version = "2"  # 2: tests run in a separate harness process; operator limits

    def check(self, ctx: CheckContext) -> VerifierResult:
        expected = ctx.record.task.expected_outputs or {}
        tests = expected.get("tests")
        if not tests or not isinstance(tests, list):
            return self.result(False, reasons=["no_tests"])
        code = solution_of(ctx)
        if code is None:
            return self.result(False, reasons=["no_solution"], evidence={"tests_total": len(tests)})
        limits = sandbox_config().limits.narrowed(ctx.spec.get("limits"))
        run = run_python(code, tests, expected.get("entry_point"), expected.get("test_setup", ""), limits)
        evidence = {
            "status": run.status,
            "tests_passed": run.tests_passed,
            "tests_total": run.tests_total,
            "test_results": run.test_results[:MAX_TEST_RESULTS],
            "violations": run.violations,
            "errors": run.errors,
            "stderr": run.stderr[-500:],
            "isolation": run.isolation,
            "limits": limits.model_dump(),
        }
        score = run.tests_passed / run.tests_total if run.tests_total else 0.0
        return self.result(run.ok, score=score, reasons=[] if run.ok else [run.status], evidence=evidence)
