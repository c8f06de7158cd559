"""The code environment's tools, its state, and the example tasks' own consistency."""

from __future__ import annotations

import pytest

from environments.code import EXAMPLE_TASKS, CodeEnvironment, CodeTask, example_task, run_python
from environments.registry import get_environment


@pytest.mark.parametrize("task", EXAMPLE_TASKS, ids=lambda t: t.id)
def test_every_example_task_passes_on_its_reference_and_fails_on_a_stub(task: CodeTask):
    good = run_python(task.reference, task.tests, task.entry_point, task.test_setup)
    assert (good.status, good.tests_passed) == ("ok", len(task.tests))
    stub = run_python(f"{task.signature}\n    return None\n", task.tests, task.entry_point, task.test_setup)
    assert stub.status == "tests_failed"


def test_the_task_goes_into_q_with_hidden_tests_apart_from_the_instruction():
    task = example_task("roman_to_int").to_task()
    assert task.instruction.endswith("def roman_to_int(numeral: str) -> int:")
    assert "assert" not in task.instruction
    assert task.expected_outputs["tests"][1] == "assert roman_to_int('IV') == 4"


def test_run_python_returns_output_and_submit_changes_the_state():
    env = CodeEnvironment("is_balanced")
    start = env.state_hash()
    ran = env.call("run_python", {"code": "print(6 * 7)"})
    assert ran.ok and ran.content == {"status": "ok", "stdout": "42\n", "stderr": ""}
    assert env.state_hash() == start
    assert env.call("submit_solution", {"code": "def is_balanced(t):\n    return True\n"}).ok
    assert env.state()["submission"].startswith("def is_balanced") and env.state()["submissions"] == 1
    assert env.state_hash() != start


def test_bad_calls_are_error_results_and_leave_the_state_alone():
    env = CodeEnvironment("is_balanced")
    before = env.state_hash()
    assert env.call("delete_everything", {}).error == "unknown tool 'delete_everything'"
    assert env.call("submit_solution", {"code": 3}).ok is False
    assert env.state_hash() == before


def test_reset_from_a_state_restores_it():
    env = CodeEnvironment("is_balanced")
    env.call("submit_solution", {"code": "x = 1"})
    saved = env.state()
    fresh = CodeEnvironment("is_balanced", state=saved)
    assert fresh.state_hash() == env.state_hash()
    with pytest.raises(KeyError):
        example_task("no_such_task")


def test_an_episode_of_slow_runs_stops_at_the_operators_budget(monkeypatch, tmp_path):
    config = tmp_path / "sandbox.yaml"
    config.write_text("limits:\n  wall_s: 1\nrecord_budget_s: 1.5\n")
    monkeypatch.setenv("ACEFORGE_SANDBOX_CONFIG", str(config))
    env = get_environment("code", task_id="is_balanced")  # as replay builds it
    statuses = [env.call("run_python", {"code": "import time\ntime.sleep(100)"}).content["status"] for _ in range(6)]
    # Each run is cut at min(wall_s, budget left): the second gets what the first left (none on a loaded machine,
    # where the first overruns its second by half a second), and nothing runs once the budget is spent.
    timeouts = statuses.count("timeout")
    assert statuses == ["timeout"] * timeouts + ["budget_exhausted"] * (6 - timeouts)
    assert 1 <= timeouts <= 2


def test_a_record_cannot_pass_sandbox_limits_through_env_params():
    with pytest.raises(TypeError, match="limits"):
        get_environment("code", task_id="is_balanced", limits={"wall_s": 1000})
