"""`aceforge synth rollouts` and `aceforge synth code` end to end (without a model: oracle, perturbed, a scripted backend)."""

import json
import re

import pyarrow.parquet as pq
import pytest

from data_catalog.catalog import Catalog
from generators.llm.backends import BACKENDS
from generators.llm.interface import Backend, Capabilities, Completion, GenerationResult
from schemas.io import read_records, write_records
from tests.conftest import SPENT
from tests.generators.rollouts.helpers import balance_task, cancel_task
from tests.pipelines.cli_helpers import invoke, last_json


@pytest.fixture
def tasks_file(tmp_path):
    path = tmp_path / "tasks.parquet"
    write_records([cancel_task(), balance_task()], path)
    return path


def test_oracle_rollouts_are_written_verified_valid_and_registered(data_home, tmp_path, tasks_file):
    output = tmp_path / "rollouts.parquet"
    result = invoke("synth", "rollouts", tasks_file, "--k", 2, "-o", output, "--json")
    assert result.exit_code == 0, result.output
    summary = last_json(result)
    assert (summary["tasks"], summary["rollouts"], summary["passed"], summary["acceptance"]) == (2, 4, 4, 1.0)
    assert summary["end_reasons"] == {"done": 4}
    records = list(read_records(output))
    assert [r.source.format for r in records] == ["synth_rollouts"] * 4
    assert all(r.verifier.result.passed for r in records)
    assert invoke("validate", output).exit_code == 0
    # Off a terminal, progress is plain lines on stderr: the first at once, the last when all are done.
    progress = [line for line in result.stderr.splitlines() if line.startswith("rolling out (oracle x scripted)")]
    assert re.search(r": 1/4, " + SPENT + "$", progress[0]) and re.search(r": 4/4, " + SPENT + "$", progress[-1])
    done = [int(line.rsplit(": ", 1)[1].split("/")[0]) for line in progress]
    assert done == sorted(done)  # a heartbeat may repeat a count (a slow machine), never go back
    entry = Catalog().get("cli_rollouts")  # an ad-hoc output never takes the pipeline asset's name
    assert entry.rows == 4 and entry.details["command"] == "synth rollouts" and entry.details["passed"] == 4


def test_perturbed_rollouts_same_seed_same_bytes(data_home, tmp_path, tasks_file):
    paths = [tmp_path / "a" / "p.parquet", tmp_path / "b" / "p.parquet"]
    for path in paths:
        result = invoke("synth", "rollouts", tasks_file, "--k", 3, "--agent", "perturbed", "--seed", 4, "-o", path)
        assert result.exit_code == 0, result.output
        assert "faults:" in result.stdout and "verifier reasons:" in result.stdout
    assert paths[0].read_bytes() == paths[1].read_bytes()
    faults = [r.lineage.generator["faults"][0]["kind"] for r in read_records(paths[0])]
    assert len(faults) == 6 and set(faults) <= {"wrong_argument", "skipped_read", "extra_write", "early_end"}


def test_a_file_that_is_not_tasks_is_a_one_line_usage_error(data_home, tmp_path, tasks_file):
    rollouts = tmp_path / "r.parquet"
    assert invoke("synth", "rollouts", tasks_file, "--k", 1, "-o", rollouts, "--no-catalog").exit_code == 0
    result = invoke("synth", "rollouts", rollouts, "-o", tmp_path / "again.parquet")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {rollouts} is not a tasks file (source formats ['synth_rollouts']); give the output of `aceforge synth tasks`"
    ]
    assert invoke("synth", "rollouts", tmp_path / "missing.parquet", "-o", tmp_path / "x.parquet").exit_code == 2


def test_usage_errors_name_the_problem(data_home, tmp_path, tasks_file):
    cases = [
        (["--agent", "nobody"], "unknown agent policy 'nobody'"),
        (["--user", "nobody"], "unknown user simulator 'nobody'"),
        (["--faults", "typo"], "unknown fault kind(s) typo"),
        (["--agent", "llm", "--tool-calls", "schema", "--backend", "transformers"], "has no JSON-schema output"),
    ]
    for flags, message in cases:
        result = invoke("synth", "rollouts", tasks_file, "-o", tmp_path / "x.parquet", *flags)
        assert result.exit_code == 2 and message in result.stderr, (flags, result.output)


GOOD = {
    "entry_point": "double",
    "prompt": "Return twice the given number.",
    "signature": "def double(x: int) -> int:",
    "reference": "def double(x):\n    return 2 * x\n",
    "tests": ["assert double(2) == 4", "assert double(0) == 0", "assert double(-3) == -6"],
}


class ProposingBackend(Backend):
    """A stand-in model for the CLI wiring: a good proposal, then one whose tests pass `return None`, then prose."""

    name = "scripted_proposer"
    capabilities = Capabilities(supports_json_schema=True)
    ANSWERS = [json.dumps(GOOD), json.dumps({**GOOD, "tests": ["assert double(1) is None or True"] * 3}), "Sure!"]

    def __init__(self, model=None, **options):
        pass

    @property
    def model_id(self):
        return {"model": "scripted", "hash": "0"}

    def prompt_text(self, request, params):
        return json.dumps(request.messages)

    def generate(self, requests, params, on_result=None):
        # A retry (the bad answer and the error appended to the conversation) gets no better answer.
        texts = ["Sure!" if len(r.messages) > 2 else self.ANSWERS[i % 3] for i, r in enumerate(requests)]
        results = [GenerationResult(completions=[Completion(text=text)]) for text in texts]
        for i, result in enumerate(results):
            if on_result:
                on_result(i, result)
        return results


@pytest.fixture
def proposer():
    BACKENDS.register(ProposingBackend.name, ProposingBackend)
    yield ProposingBackend.name
    BACKENDS.unregister(ProposingBackend.name)


def test_code_tasks_keep_what_the_sandbox_accepts_and_quarantine_the_rest(data_home, tmp_path, proposer):
    output = tmp_path / "code.parquet"
    result = invoke("synth", "code", "--n", 3, "--backend", proposer, "--no-cache", "-o", output, "--json")
    assert result.exit_code == 0, result.output
    summary = last_json(result)
    assert (summary["made"], summary["kept"], summary["rejected"]) == (3, 1, 2)
    assert summary["rejected_by_reason"] == {"trivial_passes": 1, "unparseable": 1}
    assert invoke("validate", output).exit_code == 0
    quarantine = pq.read_table(tmp_path / "code.quarantine.parquet").to_pylist()
    assert [(row["index"], row["error"]) for row in quarantine] == [(1, "trivial_passes"), (2, "unparseable")]
    # the kept task rolls out: the oracle submits the reference and the hidden tests pass
    rolled = invoke("synth", "rollouts", output, "--k", 1, "-o", tmp_path / "code_rollouts.parquet", "--json")
    assert rolled.exit_code == 0 and last_json(rolled)["passed"] == 1
