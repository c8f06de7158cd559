"""`aceforge run` (the main job) end to end in a fresh data directory, and `aceforge demo`."""

from __future__ import annotations

import filecmp
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from dagster import DagsterInstance, DagsterRunStatus, RunsFilter

from data_catalog.catalog import Catalog
from data_catalog.entries import PACKAGE_DIR
from pipelines.catalog_names import CURATE
from tests.conftest import SPENT
from tests.pipelines.cli_helpers import invoke

ACEFORGE = Path(sys.executable).with_name("aceforge")

# source -> (read, converted, quarantined), as the demo generator plants them
DEMO = {
    "demo_bookstore_adp": (12, 10, 2),
    "demo_bookstore_chat": (28, 24, 4),
    "demo_bookstore_qa": (17, 16, 1),
    "demo_bookstore_react": (11, 10, 1),
    "demo_bookstore_runs": (13, 12, 1),
}


# The main job's graph at a small N without model rollouts (tests/pipelines/test_pipeline_graph.py checks the graph).
SMALL = "tasks: {n: 3}\nrollouts: {model_tasks: 0}\nlearner: {agent: perturbed, k: 2}\nselect: {budget: 4}\n"


def close_scores(a: dict | None, b: dict | None) -> bool:
    """Two records' ACE scores: the same keys, numbers within 1e-5 (the extra JSON's too)."""
    if a is None or b is None:
        return a == b
    flat = lambda s: {**{k: v for k, v in s.items() if k != "extra"}, **json.loads(s.get("extra") or "{}")}  # noqa: E731
    x, y = flat(a), flat(b)
    return x.keys() == y.keys() and all(
        abs(x[k] - y[k]) <= 1e-5 if isinstance(x[k], float) and isinstance(y[k], float) else x[k] == y[k] for k in x
    )


def run_main_job(env: dict, config: Path, *options: str) -> subprocess.CompletedProcess:
    command = [str(ACEFORGE)] if ACEFORGE.exists() else [sys.executable, "-m", "pipelines.cli.main"]
    # Wide enough that the table's output folders (pytest's long temp paths) are not cut to the width.
    return subprocess.run(
        [*command, "run", "--config", str(config), *options],
        env={**env, "COLUMNS": "250"},
        capture_output=True,
        text=True,
        timeout=900,
    )


def ids(path: Path) -> list[str]:
    return sorted(pq.read_table(path)["id"].to_pylist())


def stage_ids_by_cli(assets: Path, out: Path) -> dict[str, tuple[list[str], list[str]]]:
    """The SMALL main job's stages run again through their commands, without the catalog (tasks and the learner's
    rollouts from scratch, each curation stage on the asset upstream of its own); the assets whose records (by id)
    differ from the command's, with both lists."""
    tasks, learner = out / "synth_tasks_retail.parquet", assets / "learner_rollouts/retail/records.parquet"
    commands = [
        ("synth", "tasks", "--env", "retail", "--n", 3, "-o", tasks),
        ("synth", "rollouts", tasks, "--agent", "perturbed", "--k", 2, "-o", out / "learner.parquet"),
        ("score", assets / "verified/all/records.parquet", "-o", out / "scored.parquet", "--rollouts", learner),
        ("dedup", out / "scored.parquet", "-o", out / "deduplicated.parquet"),
        ("select", out / "deduplicated.parquet", "--budget", 4, "--out-dir", out / "selected"),
    ]
    for command in commands:
        result = invoke(*command, "--no-catalog")
        assert result.exit_code == 0, result.output
    made = {
        "synth_tasks/retail": tasks,
        "learner_rollouts/retail": out / "learner.parquet",
        "scored/all": out / "scored.parquet",
        "deduplicated/all": out / "deduplicated.parquet",
        "sft_set/all": out / "selected/sft.parquet",
        "rl_set/all": out / "selected/rl.parquet",
    }
    pairs = {key: (ids(assets / key / "records.parquet"), ids(path)) for key, path in made.items()}
    return {key: pair for key, pair in pairs.items() if pair[0] != pair[1]}


@pytest.mark.slow
def test_run_generates_ingests_through_dagster_and_registers(data_home, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DAGSTER_HOME", "ACEFORGE_ENTRIES")}
    config = tmp_path / "small.yaml"
    config.write_text(SMALL)
    first = run_main_job(env, config)
    assert first.returncode == 0, first.stderr
    for source, (read, converted, quarantined) in DEMO.items():
        row = next(line for line in first.stdout.splitlines() if f" {source} " in line)
        cells = [c.strip() for c in row.strip("│ ").split("│")]
        assert cells[2:5] == [str(read), str(converted), str(quarantined)] and cells[6:] == ["passed", "ok"], row
    assert f"catalog: {data_home / 'catalog.duckdb'}" in first.stderr
    assert f"\ndata: {data_home}\n" in first.stderr and "\\n" not in first.stderr  # one line each, no "\n" written out
    catalog = Catalog()
    rows = {e.name: (e.rows, e.version) for e in catalog.list_datasets()}
    for source, (_, converted, quarantined) in DEMO.items():
        assert rows[source] == (converted, 1) and rows[f"{source}_quarantine"] == (quarantined, 1)
    assert catalog.sql("SELECT count(*) FROM demo_bookstore_chat WHERE env_kind IS NOT NULL").rows == [(24,)]
    # Progress as it goes: a line as each job starts, and one as each stage starts and ends, with rows and time.
    assert "synthesize[retail]: synth_tasks, rollouts, learner_rollouts ..." in first.stderr
    lines = first.stderr.splitlines()
    done = next(
        i for i, line in enumerate(lines) if re.fullmatch(r"synth_tasks\[retail\]: done: 3 rows in \d+\.\ds", line)
    )
    assert lines.index("synth_tasks[retail]: started") < done < lines.index("rollouts[retail]: started")
    assert lines.index("sft_set, rl_set: started") < lines.index("publish: hub_folder, verl_export ...")
    # Why the RL set is empty is said once, of the RL set (it was said of the SFT set too).
    assert not [line for line in (first.stdout + first.stderr).splitlines() if line.startswith("sft_set: RL set")]
    learned = next(
        i for i, line in enumerate(lines) if re.fullmatch(r"learner_rollouts\[retail\]: 6/6 rollouts, " + SPENT, line)
    )
    assert learned < lines.index("curate: " + ", ".join(CURATE) + " ...")
    # Third-party bars (transformers' weight loading, datasets' Parquet writing) are not aceforge's progress.
    assert "Loading weights" not in first.stderr and "Creating parquet" not in first.stderr
    assert re.search(r"^verl_export: done: \d+ rows in ", first.stderr, re.MULTILINE)
    verl_row = next(line for line in first.stdout.splitlines() if line.startswith("│ verl_export"))
    cells = verl_row.split("│")
    assert cells[2].strip().isdigit() and "/assets/verl_export/" in cells[-2]  # rows written; the folder
    assert f"verl export: {data_home / 'assets' / 'verl_export' / 'all'}" in first.stderr

    # One stage, two faces: the CLI's commands, on the defaults the main job gives them and on its inputs, keep the
    # same records as the assets.
    assert stage_ids_by_cli(data_home / "assets", tmp_path / "cli") == {}

    # The same job on a local Ray cluster (convert, rollouts, embeddings and dedup as Ray tasks and actors): every
    # asset has the same records in the same order, and the SFT and RL sets and the verl export the same bytes.
    on_ray = run_main_job({**env, "ACEFORGE_HOME": str(tmp_path / "ray-home")}, config, "--executor-engine", "ray")
    assert on_ray.returncode == 0, on_ray.stderr
    assert re.search(
        r"^scored: ray: cluster 127\.0\.0\.1:\d+, \d+ CPUs, 0 GPUs, dashboard none \(ray_dashboard: true starts one\)$",
        on_ray.stderr,
        re.M,
    )
    assert "scored: Encoder on ray: 2/2 tasks done" in on_ray.stderr
    local_assets, ray_assets = data_home / "assets", tmp_path / "ray-home" / "assets"
    for path in sorted(local_assets.rglob("records.parquet")):
        twin = ray_assets / path.relative_to(local_assets)
        assert pq.read_table(path)["id"].to_pylist() == pq.read_table(twin)["id"].to_pylist(), path
    # The sets hold the same records, all but the ACE scores equal; the scores agree to 1e-5 (Ray embeds in other
    # batches: the vectors agree to about 1e-7, and a score rounded to 6 digits may end one digit apart).
    for produced in ("sft_set/all/records.parquet", "rl_set/all/records.parquet"):
        local, ray = (pq.read_table(assets / produced) for assets in (local_assets, ray_assets))
        others = [name for name in local.column_names if name != "scores"]
        assert local.select(others).equals(ray.select(others)), produced
        for mine, theirs in zip(local["scores"].to_pylist(), ray["scores"].to_pylist()):
            assert close_scores(mine, theirs), (produced, mine, theirs)
    assert filecmp.cmp(local_assets / "verl_export/all/train.parquet", ray_assets / "verl_export/all/train.parquet")

    # A second run converts the same bytes: same files, same catalog versions, five more Dagster runs.
    second = run_main_job(env, config)
    assert second.returncode == 0, second.stderr
    assert {e.name: (e.rows, e.version) for e in Catalog().list_datasets()} == rows
    for stage in ("synth_tasks", "rollouts", "verified", "scored", "deduplicated", "sft_set", "rl_set", "hub_folder"):
        assert any(line.startswith(f"│ {stage}") and " ok " in line for line in second.stdout.splitlines()), stage
    with DagsterInstance.from_config(str(data_home / "dagster")) as instance:
        runs = instance.get_runs(RunsFilter(tags={"aceforge/job": "run"}))
        # per run: 5 ingest sources, 1 environment, 1 curate and 1 publish run
        assert len(runs) == 16 and {r.status for r in runs} == {DagsterRunStatus.SUCCESS}


def test_run_exits_1_and_names_a_failing_source(data_home, tmp_path, monkeypatch):
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "demo.yaml").write_text((PACKAGE_DIR / "demo_bookstore_qa.yaml").read_text())
    (entries / "gone.yaml").write_text("name: gone\nformat: adp\npaths: [nowhere.jsonl]\nlicense: MIT\n")
    monkeypatch.setenv("ACEFORGE_ENTRIES", str(entries))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))  # restored after the test; `run` points it at the data directory
    result = invoke("run")
    assert result.exit_code == 1
    assert "1 of 2 sources failed: gone" in result.stderr
    assert "gone: FileNotFoundError: source 'gone': no input matches" in result.stderr
    assert next(line for line in result.stdout.splitlines() if " gone " in line).rstrip(" │").endswith("FAILED")
    assert Catalog().get("demo_bookstore_qa").rows == 16
    assert "report:" not in result.stderr and "hub folder:" not in result.stderr  # those stages never ran


def test_run_refuses_an_unknown_environment_before_any_work(data_home):
    result = invoke("run", "--environments", "moon")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert (
        result.stderr.strip()
        == "error: options: environments: unknown environment(s) moon; known: airline, code, retail"
    )
    assert not data_home.exists()


def test_run_refuses_invalid_entries_with_usage_error(data_home, tmp_path, monkeypatch):
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "bad.yaml").write_text("name: bad\nformat: adp\npaths: [x]\nlicense: MIT\nlicence: typo\n")
    monkeypatch.setenv("ACEFORGE_ENTRIES", str(entries))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    result = invoke("run")
    assert result.exit_code == 2 and "licence: Extra inputs are not permitted" in result.stderr
    assert "Traceback" not in result.output


def test_demo_command_writes_the_raw_files(tmp_path):
    result = invoke("demo", "-o", tmp_path / "raw")
    assert result.exit_code == 0
    assert sorted(p.name for p in (tmp_path / "raw").iterdir()) == [
        "bookstore_adp.jsonl",
        "bookstore_chat.jsonl",
        "bookstore_qa.jsonl.gz",
        "bookstore_react.json",
        "bookstore_runs.json",
    ]


@pytest.mark.slow
@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupt_stops_the_run_launches_nothing_more_and_exits_130(data_home, tmp_path, sent):
    """Ctrl-C (SIGINT) or SIGTERM while synthesis runs: Dagster fails the step in hand (or drops the error in a
    callback, and the signal is sent again); no later job starts, one line says so, the exit code is 130."""
    env = {k: v for k, v in os.environ.items() if k not in ("DAGSTER_HOME", "ACEFORGE_ENTRIES")}
    config = tmp_path / "small.yaml"
    config.write_text(SMALL)
    command = [str(ACEFORGE)] if ACEFORGE.exists() else [sys.executable, "-m", "pipelines.cli.main"]
    run = subprocess.Popen(
        [*command, "run", "--config", str(config)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    before = []
    for line in run.stderr:
        before.append(line)
        if line.startswith("synth_tasks[retail]: started"):
            run.send_signal(sent)
            break
    after = run.stderr.read()
    assert run.wait(timeout=300) == 130, before + [after]
    assert after.rstrip().splitlines()[-1].startswith("interrupted: the work in hand stopped")
    assert "Traceback" not in after and "curate:" not in after and "publish:" not in after


def test_an_interrupt_stops_any_command_with_one_line_and_130(data_home, tmp_path):
    """Any command: SIGTERM while `synth tasks` works on 100,000 tasks."""
    command = [str(ACEFORGE)] if ACEFORGE.exists() else [sys.executable, "-m", "pipelines.cli.main"]
    run = subprocess.Popen(
        [*command, "synth", "tasks", "--n", "100000", "--no-catalog", "-o", str(tmp_path / "t.jsonl")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(8)  # past the imports: into the work
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 130 and "Traceback" not in err, err
    assert err.rstrip().splitlines()[-1].startswith("interrupted: the work in hand stopped")
