"""engine=ray on a real two-node cluster on 127.0.0.1 gives the local engine's outputs.

One cluster (a head and a second node, one CPU each, tests/ray_cluster.py) serves
the module: convert, embeddings (score), dedup and a rollout batch run on it
and are compared with the same stages run locally. The cluster is stopped in
teardown, even when a test fails, and no process of it may be left.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from runtime.executor import ExecutorConfig, open_executor
from tests.ray_cluster import RAY_ENV, LocalCluster

ON_RAY = ExecutorConfig(engine="ray")  # the cluster the fixture connected to

os.environ.update(RAY_ENV)  # before ray is imported: it reads them then
ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    local = LocalCluster()
    try:
        local.start()
        ray.init(address=local.address, log_to_driver=False)
        assert sorted(n["NodeManagerAddress"] for n in ray.nodes() if n["Alive"]) == ["127.0.0.1", "127.0.0.1"]
        yield local
    finally:
        left = local.stop()
    assert left == [], f"Ray processes left running: {left}"


def chat_input(path, cases: int = 120):
    """Demo chats (with the demo's four bad lines), two repeated and three more broken lines."""
    from data_catalog.demo import chat_lines, make_cases

    lines = chat_lines(make_cases(cases, seed=3))
    lines[10:10] = ['{"messages": [{"role": "user", "content": "hi"', json.dumps({"messages": "not a list"})]
    lines += [lines[3], lines[50], "not json"]
    path.write_text("\n".join(lines) + "\n")
    return path


def read_quarantine(path):
    table = pq.read_table(path)
    return list(zip(table["source"].to_pylist(), table["index"].to_pylist(), table["error"].to_pylist()))


def test_convert_on_ray_writes_the_same_records_quarantine_and_counts(cluster, tmp_path, monkeypatch):
    from data_catalog.convert import convert_files
    from data_catalog.sources import reader
    from data_catalog.sources.base import ConvertOptions

    monkeypatch.setattr(reader, "CHUNK_BYTES", 16_384)  # about 20 chunks, spread over both nodes
    raw = chat_input(tmp_path / "chats.jsonl")
    options = ConvertOptions(dataset="chats")
    local = convert_files("openai_chat", [str(raw)], tmp_path / "local.parquet", options=options)
    with open_executor(ON_RAY) as executor:
        on_ray = convert_files("openai_chat", [str(raw)], tmp_path / "ray.parquet", options=options, executor=executor)
    assert local.as_dict() | {"output": None} == on_ray.as_dict() | {"output": None}
    assert (local.read, local.converted, local.quarantined) == (129, 120, 9)  # the demo plants four bad lines
    assert pq.read_table(tmp_path / "local.parquet").equals(pq.read_table(tmp_path / "ray.parquet"))
    quarantine = read_quarantine(on_ray.quarantine)
    assert quarantine == read_quarantine(local.quarantine)
    assert sum(error.startswith("duplicate record") for _, _, error in quarantine) == 2  # seen across chunks
    assert local.errors == on_ray.errors


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """Converted demo chats: templated conversations, so near and semantic duplicates abound."""
    from data_catalog.convert import convert_files

    folder = tmp_path_factory.mktemp("records")
    convert_files("openai_chat", [str(chat_input(folder / "chats.jsonl", 150))], folder / "chats.parquet")
    return folder / "chats.parquet"


@pytest.fixture(scope="module")
def scored_locally(records):
    """The local score of the records; its signatures sidecar serves both dedup runs (same vectors)."""
    from curation.config import ScoreConfig
    from curation.score_stage import run_score

    return run_score(records, records.with_name("scored.parquet"), ScoreConfig())


def test_score_embeds_on_an_actor_pool_with_the_local_vectors(cluster, records, scored_locally, tmp_path):
    from curation.config import ScoreConfig
    from curation.facts import read_facts
    from curation.score_stage import run_score
    from curation.signatures import read_signatures

    local = scored_locally
    with open_executor(ON_RAY) as executor:
        on_ray = run_score(records, tmp_path / "ray.parquet", ScoreConfig(), executor=executor)
    assert local.table["id"].to_list() == on_ray.table["id"].to_list()
    facts = read_facts(local.output)
    a, _ = read_signatures(local.signatures_path, facts)
    b, _ = read_signatures(on_ray.signatures_path, facts)
    assert np.abs(a.text - b.text).max() < 1e-5 and np.abs(a.action - b.action).max() < 1e-5
    assert np.linalg.norm(a.text, axis=1).min() > 0.99  # real vectors, not zeros on both sides


def test_a_dagster_step_on_ray_logs_its_cluster_dashboard_and_task_progress(cluster, records, tmp_path):
    """What the UI shows of a step on Ray: the cluster and its dashboard in the run's log as the step starts, the
    Ray tasks' progress, and the dashboard's link (live) in the materialization's metadata."""
    import urllib.request

    from dagster import DagsterInstance, asset, materialize

    from curation.config import ScoreConfig
    from curation.score_stage import run_score
    from pipelines.assets.progress import engine_step, progress_of

    cfg = ExecutorConfig(engine="ray", ray_address=cluster.address)

    @asset
    def scored_on_ray(context):  # no annotations: this module postpones them, Dagster reads them
        with engine_step(context, cfg) as executor:
            return run_score(records, tmp_path / "scored.parquet", ScoreConfig(), executor=executor).table.height

    with DagsterInstance.ephemeral() as instance:
        result = materialize([scored_on_ray], instance=instance)
        lines = [entry.user_message for entry in instance.all_logs(result.run_id)]
    assert result.success and result.output_for_node("scored_on_ray") == 150
    [where] = [line for line in lines if line.startswith("ray: cluster")]
    [metadata] = [m.metadata for m in result.asset_materializations_for_node("scored_on_ray")]
    dashboard = metadata["ray_dashboard"].value
    token = os.environ["RAY_AUTH_TOKEN_PATH"]  # the cluster's (tests/ray_cluster.py): the dashboard asks for it
    assert where == f"ray: cluster {cluster.address}, 2 CPUs, 0 GPUs, dashboard {dashboard} (its token: {token})"
    assert dashboard.startswith("http://127.0.0.1:")
    assert progress_of(where) == where  # `aceforge run` prints it with the step's progress
    bearer = {"Authorization": "Bearer " + Path(token).read_text()}
    with urllib.request.urlopen(urllib.request.Request(f"{dashboard}/api/version", headers=bearer), timeout=30) as a:
        assert json.load(a)["ray_version"] == ray.__version__
    # 150 chats' distinct texts in two batches, one per actor (one per CPU); each finished task is counted
    assert "progress: Encoder on ray: 2/2 tasks done" in lines


def removed_ids(path) -> dict[str, str]:
    table = pq.read_table(path)
    return dict(zip(table["removed_id"].to_pylist(), table["kind"].to_pylist()))


def test_dedup_on_ray_agrees_with_the_exact_local_result(cluster, scored_locally, tmp_path):
    from curation.config import DedupConfig
    from curation.dedup_stage import run_dedup

    scored = scored_locally.output  # with its embeddings: both runs compare the same vectors
    local = run_dedup(scored, tmp_path / "local.parquet", DedupConfig(kinds=["minhash", "semantic"]))
    cfg = DedupConfig(kinds=["minhash", "semantic"], semantic_cluster_size=25)  # 6 clusters
    with open_executor(ON_RAY) as executor:
        on_ray = run_dedup(scored, tmp_path / "ray.parquet", cfg, executor=executor)
    expected, got = removed_ids(local.audit_path), removed_ids(on_ray.audit_path)
    assert local.removed["minhash"] >= 20 and local.removed["semantic"] >= 5  # the kinds are exercised
    minhash = {i for i, kind in expected.items() if kind == "minhash"}
    assert minhash <= set(got)  # the band shuffle finds every LSH candidate
    ids = pq.read_table(scored)["id"].to_pylist()
    agreement = np.mean([(i in expected) == (i in got) for i in ids])
    print(f"dedup agreement ray vs exact local: {agreement:.4f} ({len(expected)} vs {len(got)} removed)")
    assert agreement >= 0.99


def test_rollouts_on_ray_actors_give_the_local_records_and_verdicts(cluster):
    from generators.rollouts.config import RolloutConfig
    from generators.rollouts.runner import RolloutSummary, run_rollouts
    from tests.generators.rollouts.helpers import balance_task, cancel_task

    tasks = [cancel_task(), balance_task()] * 3  # three shards of up to four tasks over two actors
    runs = {}
    cfg = RolloutConfig(agent="perturbed", k=2)
    for engine in ("local", "ray"):
        summary = RolloutSummary()
        with open_executor(ExecutorConfig(engine=engine)) as executor:
            runs[engine] = (list(run_rollouts(tasks, cfg, None, "unit", summary, executor=executor)), summary)
    (local, local_summary), (on_ray, ray_summary) = runs["local"], runs["ray"]
    assert [r.id for r in local] == [r.id for r in on_ray] and len(local) == 12
    assert [r.verifier.result.passed for r in local] == [r.verifier.result.passed for r in on_ray]
    assert [r.model_dump() for r in local] == [r.model_dump() for r in on_ray]
    assert (ray_summary.tasks, ray_summary.rollouts, ray_summary.failed) == (6, 12, local_summary.failed)
    assert ray_summary.faults == local_summary.faults
