"""Next-call figures of a model on held-out conversations with gold history (training/next_call.py).

The closed loop (pass^1) says whether the learner finishes a task; it stays at 0 long after the learner has
learnt most calls, so ``aceforge improve`` also scores every call turn of the oracle's verified held-out
conversations, teacher-forced: exact (greedy decoding would reproduce the gold call verbatim), the tool's name
right, and the same for the turns that call a **write** tool (the calls that change state, which a small
learner learns last). Each rate has a 95 % percentile interval from resampling conversations (the turns of one
conversation share its ids and history, so they are not independent).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from schemas.record import AgentRecord
from training.next_call import HeldOutTurns, gold_turns, score_turns

RESAMPLES = 2000


def rate_interval(
    hits: Sequence[bool], clusters: Sequence[int], resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """The 95 % percentile interval of the rate of ``hits``, resampling whole clusters with replacement."""
    by_cluster: dict[int, list[int]] = {}
    for hit, cluster in zip(hits, clusters):
        by_cluster.setdefault(cluster, []).append(int(hit))
    groups = [(sum(group), len(group)) for group in by_cluster.values()]
    if not groups:
        return 0.0, 0.0
    rng = random.Random(seed)
    rates = []
    for _ in range(resamples):
        drawn = rng.choices(groups, k=len(groups))
        rates.append(sum(h for h, _ in drawn) / sum(n for _, n in drawn))
    rates.sort()
    return round(rates[int(0.025 * resamples)], 4), round(rates[int(0.975 * resamples) - 1], 4)


def write_tools(records: list[AgentRecord]) -> set[str]:
    return {tool.name for record in records for tool in record.environment.tools if tool.access == "write"}


def held_out_turns(records: list[AgentRecord], model_spec: str, rendering: str) -> HeldOutTurns:
    """The call turns of the gold conversations, tokenized with the learner's tokenizer in its rendering."""
    from generators.llm.model_store import resolve_model
    from training.model_io import load_tokenizer

    tokenizer, template = load_tokenizer(resolve_model(model_spec))
    return gold_turns(records, tokenizer, template, rendering)


def rates(hits: list[bool], clusters: list[int]) -> dict[str, Any]:
    low, high = rate_interval(hits, clusters)
    return {"right": sum(hits), "turns": len(hits), "rate": round(sum(hits) / len(hits), 4) if hits else 0.0,
            "ci95": [low, high]}  # fmt: skip


def call_figures(model_spec: str, held: HeldOutTurns, writes: set[str]) -> dict[str, Any]:
    """Exact and tool-name rates over all call turns and over the write turns, with intervals, and the gold
    calls' mean NLL per token, for the model at ``model_spec``."""
    from generators.llm.model_store import resolve_model
    from training.model_io import load_model

    model = load_model(resolve_model(model_spec)).eval()
    scores = score_turns(model, held)
    clusters = [turn.conversation for turn in held.turns]
    written = [i for i, turn in enumerate(held.turns) if set(turn.tools) & writes]
    exact = [score.exact for score in scores]
    return {
        "conversations": len(held.conversations),
        "exact": rates(exact, clusters),
        "tool_name": rates([score.name_right for score in scores], clusters),
        "write_exact": rates([exact[i] for i in written], [clusters[i] for i in written]),
        "nll_per_token": round(sum(s.nll for s in scores) / max(1, sum(s.tokens for s in scores)), 4),
    }
