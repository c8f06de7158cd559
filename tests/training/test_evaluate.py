"""pass^k on known verdicts; `aceforge eval` with the oracle (no model) and with SmolLM2 as the llm agent."""

from __future__ import annotations

import json

import pytest

from data_catalog.catalog import Catalog
from schemas.io import write_records
from schemas.record import VerifierResult
from tests.pipelines.cli_helpers import invoke, last_json
from tests.training.helpers import retail_cancel_task, small_retail_task
from training.metrics import pass_hat_k, pass_k_report


def test_pass_hat_k_is_taus_estimate():
    assert pass_hat_k(2, 4, 1) == 0.5
    assert pass_hat_k(2, 4, 2) == 1 / 6  # C(2,2) / C(4,2)
    assert pass_hat_k(3, 4, 4) == 0.0 and pass_hat_k(4, 4, 4) == 1.0
    with pytest.raises(ValueError):
        pass_hat_k(1, 2, 3)


def _rollouts(task, verdicts: list[bool | None]):
    """Rollouts as generators/rollouts records them: the task as parent, a rollout index, a verdict."""
    return [
        task.model_copy(
            update={
                "id": f"{task.id}-{i}",
                "details": {"rollout_index": i},
                "lineage": task.lineage.model_copy(update={"parents": [task.id]}),
                "verifier": task.verifier.model_copy(update={"result": VerifierResult(passed=passed)}),
            }
        )
        for i, passed in enumerate(verdicts)
    ]


def test_pass_k_report_groups_by_domain_and_complexity():
    half = retail_cancel_task("half")  # complexity 2: 2 of 4 pass (an undecided verdict counts as a failure)
    always = small_retail_task("always")  # complexity 3: 4 of 4 pass
    airline = retail_cancel_task("air", complexity=1)
    airline.environment.name = "airline"  # 0 of 4
    report = pass_k_report(
        _rollouts(half, [True, False, None, True]) + _rollouts(always, [True] * 4) + _rollouts(airline, [False] * 4), 4
    )
    assert report["overall"] == {
        "tasks": 3,
        "rollouts": 12,
        "pass^1": round((0.5 + 1 + 0) / 3, 6),
        "pass^2": round((1 / 6 + 1 + 0) / 3, 6),
        "pass^3": round(1 / 3, 6),
        "pass^4": round(1 / 3, 6),
    }
    assert report["by_domain"]["retail"]["pass^2"] == round((1 / 6 + 1) / 2, 6)
    assert report["by_domain"]["airline"]["pass^1"] == 0.0
    assert {name: s["pass^1"] for name, s in report["by_complexity"].items()} == {"1": 0.0, "2": 0.5, "3": 1.0}


def test_eval_command_with_the_oracle_agent(tmp_path):
    tasks = tmp_path / "heldout.parquet"
    write_records([retail_cancel_task("a"), small_retail_task("b")], tasks)
    result = invoke("eval", "--tasks", tasks, "--k", "2", "--agent", "oracle", "--no-catalog", "--json")
    assert result.exit_code == 0, result.output
    report = last_json(result)
    assert report["overall"] == {"tasks": 2, "rollouts": 4, "pass^1": 1.0, "pass^2": 1.0}
    assert json.loads((tmp_path / "heldout.eval.json").read_text())["by_complexity"].keys() == {"2", "3"}
    table = invoke("eval", "--tasks", tasks, "--k", "2", "--agent", "perturbed", "--no-catalog")
    assert table.exit_code == 0 and "domain retail" in table.stdout and "pass^2" in table.stdout


def test_eval_registers_its_rollouts_with_the_tasks_as_input(data_home, tmp_path):
    tasks, rollouts = tmp_path / "heldout.parquet", tmp_path / "eval_rollouts.parquet"
    write_records([retail_cancel_task("a"), small_retail_task("b")], tasks)
    result = invoke("eval", "--tasks", tasks, "--k", "2", "--agent", "oracle", "--rollouts", rollouts)
    assert result.exit_code == 0, result.output
    assert "registered as eval_rollouts (version 1)" in result.stderr
    (entry,) = Catalog().list_datasets()
    assert (entry.rows, entry.parents, entry.details["stage"]) == (4, [], "eval")  # the tasks file is not in it


@pytest.mark.slow
def test_eval_command_with_smollm2_as_the_llm_agent(tmp_path, smol_path):
    tasks = tmp_path / "heldout.parquet"
    write_records([small_retail_task()], tasks)
    rollouts = tmp_path / "rollouts.parquet"
    result = invoke(
        "eval", "--tasks", tasks, "--model", smol_path, "--backend", "transformers", "--k", "2", "--user", "scripted",
        "--budget-max-turns", "2", "--sampling-max-tokens", "32", "--rollouts", rollouts, "--no-catalog",
        "--report", tmp_path / "report.json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["model"] == smol_path and report["backend"] == "transformers"
    assert report["overall"]["tasks"] == 1 and report["overall"]["rollouts"] == 2
    assert 0.0 <= report["overall"]["pass^1"] <= 1.0 and report["overall"]["pass^2"] <= report["overall"]["pass^1"]
    assert sum(report["rollout_summary"]["end_reasons"].values()) == 2
    assert invoke("validate", rollouts).exit_code == 0
    assert "complexity 3" in result.stdout
