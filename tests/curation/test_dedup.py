"""Each dedup kind on literal records with known answers; every removal names the kept twin."""

import numpy as np
import polars as pl
import pytest

from curation.config import DedupConfig
from curation.dedup import find_duplicates
from curation.dedup_stage import fill_minhashes, run_dedup
from curation.facts import facts_of
from curation.signatures import embeddings_for, sidecar
from schemas.io import read_records, write_records
from tests.curation.helpers import chat_record, task_record, trajectory_record


def dedup(records, tmp_path, **cfg):
    """(removed id, kept id, kind, similarity) for each removal, by running the library on ``records``."""
    path = tmp_path / "in.parquet"
    write_records(records, path)
    facts = [facts_of(r) for r in records]
    signatures = embeddings_for(facts)
    config = DedupConfig(**cfg)
    fill_minhashes(path, signatures, config.num_perm)
    removals = find_duplicates(facts, signatures, config)
    return sorted((facts[r.removed].id, facts[r.kept].id, r.kind, round(r.similarity, 3)) for r in removals)


def test_two_records_differing_only_in_ids_are_structural_duplicates_and_exact_ones(tmp_path):
    one, two = trajectory_record("one"), trajectory_record("two", dataset="elsewhere")
    assert dedup([one, two], tmp_path, kinds=["structural"]) == [("two", "one", "structural", 1.0)]
    assert dedup([one, two], tmp_path) == [("two", "one", "exact", 1.0)]  # exact is checked first


def test_structural_duplicates_differ_in_wording_and_values_but_not_in_calls_or_constraints(tmp_path):
    base = trajectory_record("base", order_id="W1")
    reworded = trajectory_record("reworded", order_id="W1", instruction="Drop W1 please.", reason="changed my mind")
    other_order = trajectory_record("other", order_id="W2")
    found = dedup([base, reworded, other_order], tmp_path, kinds=["exact", "structural"])
    assert found == [("reworded", "base", "structural", 1.0)]


def test_minhash_finds_near_duplicate_text_and_leaves_different_text(tmp_path):
    story = " ".join(f"step {i} of the long procedure goes here" for i in range(30))
    one = chat_record("one", "Summarize the procedure: " + story, "It has thirty steps.")
    near = chat_record(
        "near", "Summarize the procedure: " + story.replace("step 7 ", "stage 7 "), "It has thirty steps."
    )
    other = chat_record("other", "Write a haiku about autumn leaves falling slowly", "Red leaves drift down.")
    found = dedup([one, near, other], tmp_path, kinds=["exact", "minhash"], minhash_threshold=0.8)
    assert len(found) == 1
    removed, kept, kind, similarity = found[0]
    assert (removed, kept, kind) == ("near", "one", "minhash") and 0.8 <= similarity < 1.0


def test_semantic_duplicates_need_similar_task_text_and_similar_actions(tmp_path):
    one = trajectory_record("one", instruction="Cancel order W1.")
    paraphrase = trajectory_record("para", instruction="Please cancel my order W1.")
    unrelated = trajectory_record("unrelated", instruction="What is the capital of France?")
    talk_only = chat_record("talk", "Please cancel my order W1.", "I cannot do that here.")  # same ask, no tool calls
    found = dedup([one, paraphrase, unrelated, talk_only], tmp_path, kinds=["semantic"], semantic_threshold=0.9)
    assert [(r, k, kind) for r, k, kind, _ in found] == [("para", "one", "semantic")]
    assert 0.9 <= found[0][3] < 1.0
    assert dedup([one, paraphrase], tmp_path, kinds=["semantic"], semantic_threshold=0.95) == []


def test_a_failure_is_never_a_duplicate_of_a_success_only_of_a_failure_of_the_same_kind(tmp_path):
    failed, passed = trajectory_record("failed", passed=False), trajectory_record("passed", passed=True)
    assert dedup([failed, passed], tmp_path, kinds=["structural"]) == []
    twin = trajectory_record("twin", passed=False)
    other = trajectory_record("other", passed=False)
    for record, reason in ((failed, "wrong_change"), (twin, "wrong_change"), (other, "ungrounded_amount")):
        record.verifier.result.reasons = [reason]
    found = dedup([failed, twin, other, passed], tmp_path, kinds=["structural"])
    assert found == [("twin", "failed", "structural", 1.0)]


def test_tasks_on_other_rows_are_not_duplicates_however_alike_their_text(tmp_path):
    one, other = (
        task_record("one", order_id="W1", instruction="Cancel my order."),
        task_record("two", order_id="W2", instruction="Cancel my order."),
    )
    same_rows = task_record("three", order_id="W1", instruction="Cancel my order, please.")
    found = dedup([one, other, same_rows], tmp_path, kinds=["minhash", "semantic"], semantic_threshold=0.8)
    assert [(r, k) for r, k, _, _ in found] == [("three", "one")]


def test_tasks_are_never_duplicates_of_trajectories_and_empty_records_are_not_compared(tmp_path):
    task = task_record("task", order_id="W1")
    rollout = trajectory_record("rollout", order_id="W1")  # same E, calls and constraints as the task's gold
    empty_a, empty_b = chat_record("ea", "", ""), chat_record("eb", "", "")
    empty_a.trajectory, empty_b.trajectory = [], []
    assert dedup([task, rollout, empty_a, empty_b], tmp_path) == []
    assert dedup([task, task_record("task2", order_id="W1")], tmp_path) == [("task2", "task", "exact", 1.0)]


def test_run_dedup_writes_the_kept_records_an_audit_table_and_reusable_signatures(tmp_path, monkeypatch):
    records = [
        trajectory_record("a"),
        trajectory_record("a-copy"),
        trajectory_record("b", order_id="W2", instruction="Cancel my order W2, I no longer need it."),
        trajectory_record("b-para", order_id="W2", instruction="Please cancel order W2, I do not need it anymore."),
        chat_record("c", "What is the capital of France?", "Paris."),
    ]
    write_records(records, tmp_path / "in.parquet")
    result = run_dedup(tmp_path / "in.parquet", tmp_path / "out.parquet", DedupConfig())
    assert result.records == result.kept + sum(result.removed.values()) == 5
    assert [r.id for r in read_records(tmp_path / "out.parquet")] == ["a", "b", "c"]
    audit = pl.read_parquet(result.audit_path)
    assert audit.columns == ["removed_id", "kept_id", "kind", "similarity", "threshold", "removed_text", "kept_text"]
    rows = {row["removed_id"]: row for row in audit.iter_rows(named=True)}
    assert (rows["a-copy"]["kept_id"], rows["a-copy"]["kind"], rows["a-copy"]["similarity"]) == ("a", "exact", 1.0)
    assert rows["b-para"]["kept_id"] == "b" and rows["b-para"]["kind"] in ("structural", "minhash", "semantic")

    # Another threshold reuses the stored signatures: no text is embedded or shingled again.
    def no_encoding(*args, **kwargs):
        raise AssertionError("signatures should have come from the cache")

    monkeypatch.setattr("curation.signatures.encode_distinct", no_encoding)
    monkeypatch.setattr("curation.dedup_stage.minhash_batch", no_encoding)
    again = run_dedup(
        tmp_path / "in.parquet",
        tmp_path / "again.parquet",
        DedupConfig(kinds=["semantic"], semantic_threshold=0.99),
        signatures_path=sidecar(tmp_path / "out.parquet", "signatures"),
    )
    assert again.removed == {"semantic": 1}  # only the exact copy is that similar


def test_signatures_round_trip_and_are_taken_only_for_the_same_id_and_content(tmp_path):
    from curation.signatures import read_signatures, write_signatures

    facts = [facts_of(trajectory_record("a")), facts_of(chat_record("c", "hi there", "hello"))]
    signatures = embeddings_for(facts)
    signatures.minhash = [np.arange(128, dtype=np.uint32), None]
    write_signatures(tmp_path / "s.parquet", facts, signatures)
    back, found = read_signatures(tmp_path / "s.parquet", facts)
    assert found.all() and np.array_equal(back.text, signatures.text) and np.array_equal(back.action, signatures.action)
    assert np.array_equal(back.minhash[0], signatures.minhash[0]) and back.minhash[1] is None
    changed = facts_of(chat_record("c", "something else", "hello"))
    assert read_signatures(tmp_path / "s.parquet", [changed])[1].tolist() == [False]


def test_unknown_dedup_kinds_and_comma_lists():
    assert DedupConfig(kinds=["exact,minhash"]).kinds == ["exact", "minhash"]
    with pytest.raises(ValueError, match="unknown dedup kind 'fuzzy'"):
        DedupConfig(kinds=["fuzzy"])


def test_among_duplicate_tasks_the_one_at_the_learners_frontier_stays(tmp_path):
    solved, frontier = task_record("solved"), task_record("frontier")  # the same task twice
    solved.scores.extra["pass_rate"], frontier.scores.extra["pass_rate"] = 1.0, 0.5
    assert dedup([solved, frontier], tmp_path) == [("solved", "frontier", "exact", 1.0)]


def test_semantic_search_is_exact_across_blocks_however_dense_the_duplicates():
    """SemanticIndex against brute force on 700 records in 200 tight clusters (blocks of 256): the same removals,
    each naming the kept record with the highest min(text, action) similarity."""
    from types import SimpleNamespace

    from curation.semantic_dedup import SemanticIndex, clip
    from curation.signatures import Signatures

    rng = np.random.default_rng(0)

    def unit(rows):
        return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)

    centres = rng.normal(size=(200, 16))
    members = rng.integers(0, 200, size=700)
    text = unit(centres[members] + rng.normal(scale=0.2, size=(700, 16)))
    action = unit(centres[members] + rng.normal(scale=0.2, size=(700, 16)))
    facts = [SimpleNamespace(text=f"t{i}", action_text="" if i % 50 == 0 else f"a{i}") for i in range(700)]
    order = list(rng.permutation(700))
    threshold = 0.95
    index = SemanticIndex(facts, Signatures(text, action, [None] * 700), threshold, order)
    found, expected, kept = [], [], []
    for i in order:
        match = index.best_match(i)
        found.append(match)
        if match is None:
            index.add(i)
        best = None
        for j in kept:  # brute force: every kept record, in the order kept
            acts_i, acts_j = bool(facts[i].action_text), bool(facts[j].action_text)
            similar = float(clip(text[i] @ text[j]))
            act = float(clip(action[i] @ action[j])) if acts_i and acts_j else float(acts_i == acts_j)
            if (
                similar >= threshold
                and min(similar, act) >= threshold
                and (best is None or min(similar, act) > best[1])
            ):
                best = (j, min(similar, act))
        expected.append(best)
        if best is None:
            kept.append(i)
    assert [m and m[0] for m in found] == [e and e[0] for e in expected]
    assert all(m is None or m[1] == pytest.approx(e[1], abs=2e-6) for m, e in zip(found, expected))  # float32 sums
    # about half removed, and more records kept than one block holds
    assert 300 < sum(m is not None for m in found) < 400 and index.count == len(kept) > 256


def test_dedup_with_minhashes_from_worker_processes_removes_the_same_records(tmp_path):
    from runtime.executor import ProcessExecutor

    records = [
        trajectory_record("a"),
        trajectory_record("a-copy"),
        trajectory_record("b", order_id="W2", instruction="Cancel my order W2, I no longer need it."),
        trajectory_record("b-para", order_id="W2", instruction="Please cancel order W2, I do not need it anymore."),
    ]
    write_records(records, tmp_path / "in.parquet")
    config = DedupConfig(kinds=["minhash"], minhash_threshold=0.5)
    here = run_dedup(tmp_path / "in.parquet", tmp_path / "here.parquet", config)
    spread = run_dedup(tmp_path / "in.parquet", tmp_path / "spread.parquet", config, executor=ProcessExecutor(2))
    assert here.removed == spread.removed and here.removed["minhash"] >= 1
    assert pl.read_parquet(here.audit_path).equals(pl.read_parquet(spread.audit_path))
