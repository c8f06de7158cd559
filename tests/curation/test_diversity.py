"""Diversity with the real MiniLM embedder: nearest-neighbour novelty, clusters and their coverage."""

import numpy as np
import pytest

from curation.diversity import Embedded, clusters, coverage, diversity, entity_novelty, novelty
from curation.embedder import encode, encoder_pool, load_embedder
from curation.facts import facts_of
from curation.neighbors import nearest_neighbors
from curation.score_columns import diversity_columns
from curation.signatures import embeddings_for
from tests.curation.helpers import rollout_of, task_record

TEXTS = [
    "Cancel my order W1, I no longer need it.",
    "Please cancel order W2, I do not need it anymore.",
    "What is the capital of France?",
    "Cancel my order W1, I no longer need it.",  # the first one again
    "",  # no text
]


def embedded(texts):
    return Embedded.of(texts, encode(texts))


def test_the_embedder_loads_once_and_gives_unit_vectors():
    assert load_embedder() is load_embedder()
    vectors = encode(["one text", "", "another"])
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors[[0, 2]], axis=1), 1.0, atol=1e-5)
    assert not vectors[1].any()  # empty text: the zero vector, similar to nothing


def test_ray_encoders_take_a_gpu_each_where_the_cluster_has_gpus_else_a_cpu_each():
    assert encoder_pool({"CPU": 32.0, "GPU": 4.0, "memory": 1e11}) == (4, 1.0, "cuda")
    assert encoder_pool({"CPU": 2.0, "memory": 1e10}) == (2, 0.0, "cpu")
    assert encoder_pool({}) == (1, 0.0, "cpu")


def test_novelty_is_one_minus_the_similarity_to_the_nearest_other_record():
    values = novelty(embedded(TEXTS))
    assert values[0] == 0.0 and values[3] == 0.0  # repeated exactly
    assert 0.0 < values[1] < values[2]  # a paraphrase of another record is less novel than an unrelated question
    assert np.isnan(values[4])
    vectors = encode(TEXTS[:3])
    nearest = max(vectors[2] @ vectors[0], vectors[2] @ vectors[1])
    assert values[2] == pytest.approx(min(1.0, 1.0 - nearest), abs=1e-5)  # clipped to [0, 1]
    assert novelty(embedded(["a single record"]))[0] == 1.0


def test_diversity_averages_the_novelties_a_record_has_and_needs_a_text():
    text = np.array([0.2, 0.4, np.nan, 0.3])
    action = np.array([0.6, np.nan, 0.5, 0.6])
    assert np.allclose(diversity(text, action)[:2], [0.4, 0.4]) and np.isnan(diversity(text, action)[2])
    entities = np.array([1.0, 0.1, 1.0, np.nan])
    assert np.allclose(diversity(text, action, entities)[[0, 1, 3]], [0.6, 0.25, 0.45])
    assert np.isnan(diversity(text, action, entities)[2])


def test_entity_novelty_is_one_minus_the_largest_jaccard_to_another_tasks_entities():
    entities = [
        frozenset({"#W1", "u_1"}),  # task a
        frozenset({"#W1", "u_1"}),  # task b: the same rows
        frozenset({"#W2", "u_1"}),  # task c: one of its two rows shared with a and b (Jaccard 1/3)
        frozenset({"#W9"}),  # task d: rows no one else touches
        frozenset(),  # task e: names no entity
        frozenset({"#W9"}),  # another record of task d: not d's neighbour
    ]
    values = entity_novelty(entities, ["a", "b", "c", "d", "e", "d"])
    assert values[:4].tolist() == [0.0, 0.0, pytest.approx(1 - 1 / 3), 1.0]
    assert np.isnan(values[4]) and values[5] == 1.0


def test_nearest_neighbors_is_exact_and_blocked():
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(50, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    found = nearest_neighbors(vectors, k=3, block=7)
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -2)
    assert (found.index == np.argsort(-sims, axis=1)[:, :3]).all()
    assert np.allclose(found.similarity, np.sort(sims, axis=1)[:, ::-1][:, :3], atol=1e-6)


def test_clusters_and_coverage_by_source():
    texts = [f"Cancel my order W{i}, I no longer need it." for i in range(6)] + [
        f"What is the capital of country number {i}?" for i in range(6)
    ]
    cluster_of, k = clusters(embedded(texts), seed=0)
    assert k == 2
    assert len(set(cluster_of[:6])) == 1 and len(set(cluster_of[6:])) == 1 and cluster_of[0] != cluster_of[6]
    sources = ["shop"] * 6 + ["quiz"] * 5 + ["shop"]
    assert coverage(cluster_of, sources, k) == {"quiz": 0.5, "shop": 1.0}


def test_three_tasks_with_three_rollouts_each_are_diverse_within_their_kind():
    """Scored together, a task and its rollouts share the task text; novelty is measured within kind, so neither
    the tasks nor the rollouts collapse to 0 (they did when a task's text counted as repeated by its rollouts)."""
    tasks = [
        task_record("cancel", order_id="W1", instruction="Cancel my order W1, I no longer need it."),
        task_record("status", order_id="W2", instruction="What is the status of my order W2 and when does it ship?"),
        task_record("address", order_id="W3", instruction="Please change the shipping address of order W3 to Paris."),
    ]
    records = [*tasks, *(rollout_of(task, i, i != 1) for task in tasks for i in range(3))]
    facts = [facts_of(r) for r in records]
    columns = diversity_columns(embeddings_for(facts))(facts)
    by_id = dict(zip((f.id for f in facts), columns["diversity"]))
    assert all(by_id[task.id] > 0.1 for task in tasks)
    assert all(by_id[f"{task.id}-r{i}"] > 0.1 for task in tasks for i in range(3))
    assert all(value is None for value in columns["novelty_entities"])  # "W1" names no id-like row


def test_tasks_on_other_rows_are_novel_in_their_entities_and_tasks_on_the_same_rows_are_not():
    asks = ["Cancel my order, I no longer need it.", "Where is my order?", "Change my order's address to Paris."]
    tasks = [task_record(f"t{i}", order_id=f"#W100000{i}", instruction=ask) for i, ask in enumerate(asks)]
    records = [*tasks, *(rollout_of(task, i, i != 1) for task in tasks for i in range(3))]
    facts = [facts_of(r) for r in records]
    columns = diversity_columns(embeddings_for(facts))(facts)
    entities = dict(zip((f.id for f in facts), columns["novelty_entities"]))
    diverse = dict(zip((f.id for f in facts), columns["diversity"]))
    assert all(entities[r.id] == 1.0 for r in records)  # every task on its own rows; rollouts among other tasks'
    assert all(diverse[task.id] > 0.3 for task in tasks)

    same_rows = [task_record("a", "#W1000001", "Cancel my order."), task_record("b", "#W1000001", "Stop my order.")]
    facts = [facts_of(r) for r in same_rows]
    columns = diversity_columns(embeddings_for(facts))(facts)
    assert columns["novelty_entities"] == [0.0, 0.0]
