"""`aceforge synth tasks | backward | evolve`: outputs valid and registered, the summary's counts, determinism,
and one-line usage errors (exit 2) for an unknown environment or an input of the wrong kind."""

from __future__ import annotations

from data_catalog.catalog import Catalog
from schemas.io import read_records
from tests.pipelines.cli_helpers import invoke, last_json


def test_tasks_backward_evolve_write_valid_registered_outputs(data_home, tmp_path):
    tasks, back, harder = tmp_path / "tasks.parquet", tmp_path / "back.parquet", tmp_path / "harder.parquet"
    made = invoke(
        "synth", "tasks", "--env", "retail", "--n", 12, "--constraints", "1-3", "--seed", 0, "-o", tasks, "--json"
    )
    assert made.exit_code == 0, made.output
    summary = last_json(made)
    assert summary["kept"] == 12 and summary["made"] == 12 + summary["rejected"]
    assert sum(summary["rejected_by_reason"].values()) == summary["rejected"]

    result = invoke("synth", "backward", "--env", "airline", "--n", 6, "-o", back)
    assert result.exit_code == 0, result.output
    assert "made " in result.stdout and "kept 6" in result.stdout

    result = invoke("synth", "evolve", tasks, "-o", harder, "--json")
    assert result.exit_code == 0, result.output
    evolved = last_json(result)
    assert evolved["made"] == 24 and evolved["kept"] == len(list(read_records(harder)))

    for path, rows in ((tasks, 12), (back, 6), (harder, evolved["kept"])):
        check = invoke("validate", path)
        assert check.exit_code == 0, check.output
        entry = Catalog().get(path.stem)
        assert (entry.rows, entry.path) == (rows, str(path))
    assert Catalog().get("tasks").details["command"] == "synth tasks"


def test_same_seed_same_file_other_seed_other_ids(data_home, tmp_path):
    def ids(name: str, seed: int) -> str:
        path = tmp_path / name / "tasks.jsonl"  # one stem: the dataset name is part of each record
        args = ("synth", "tasks", "--env", "airline", "--n", 8, "--seed", seed, "--no-catalog", "-o", path)
        assert invoke(*args).exit_code == 0
        return path.read_text()

    first, again, other = ids("a", 3), ids("b", 3), ids("c", 4)
    assert first == again and first != other


def test_usage_errors_are_one_line_with_exit_2(data_home, tmp_path):
    out = tmp_path / "x.parquet"
    for args, message in [
        (("synth", "tasks", "--env", "bank", "-o", out), "environment 'bank' is unknown"),
        (("synth", "tasks", "--env", "code", "-o", out), "environment 'code' has no task synthesizer"),
        (("synth", "tasks", "--constraints", "0-9", "-o", out), "constraints"),
        (("synth", "tasks", "--goals", "fly_to_the_moon", "-o", out), "unknown goal kind"),
        (("synth", "tasks", "-o", tmp_path / "x.csv"), "--output must be"),
        (("synth", "evolve", tmp_path / "missing.parquet", "-o", out), "file not found"),
    ]:
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_evolve_refuses_a_file_that_is_not_tasks(data_home, tmp_path):
    back = tmp_path / "back.jsonl"
    assert invoke("synth", "backward", "--n", 2, "--no-catalog", "-o", back).exit_code == 0
    result = invoke("synth", "evolve", back, "-o", tmp_path / "y.parquet")
    assert result.exit_code == 2
    assert "is not a tasks file" in result.stderr and len(result.stderr.strip().splitlines()) == 1
