"""Teacher-forced next-call exact match, and the paired bootstrap that compares two arms on it.

A held-out conversation (an oracle rollout) is rendered exactly as SFT renders
its training data (training.render: record_to_chat, then tokenize_chat with the
training chat template), so train and eval see the same tokens. Every assistant
turn that makes a tool call is a **gold turn**: its tokens are the ones the
template's ``{% generation %}`` block marks, from ``<tool_call>`` to the
end-of-turn token (the newlines around them, which the generation prompt gives
or which follow the stop, are left out).

The metric: given the gold dialogue before the turn, is the model's argmax at
every token of the gold turn the gold token? That is exactly "greedy decoding
reproduces the gold turn verbatim", so a hit means the same tool name and the
same arguments (in the rendering's canonical form: the oracle's argument order,
one JSON encoding). It is stricter than comparing parsed arguments: an answer
with the arguments in another order or spacing counts as a miss.

Why argmax rather than generation: one forward pass over a whole conversation
scores all its gold turns at once (causal attention: position t sees only the
gold tokens before it), and the system prompt (policy + tools, ~2.7k tokens,
identical in every retail conversation) is run once per model and its KV cache
reused, so a model costs the dialogue tokens only.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from schemas.record import AgentRecord
from schemas.task_identity import task_of
from training.render import record_to_chat, tokenize_chat


@dataclass
class GoldTurn:
    conversation: int  # index into HeldOutTurns.conversations
    start: int  # first scored token of the turn
    end: int  # one past its last
    task: str
    tools: tuple[str, ...]  # names of the turn's calls
    unseen_kind: bool  # the task has a goal kind absent from the training pool


@dataclass
class HeldOutTurns:
    conversations: list[list[int]] = field(default_factory=list)  # token ids, cut after the last gold turn
    turns: list[GoldTurn] = field(default_factory=list)
    prefix: int = 0  # tokens every conversation starts with (the system prompt): run once per model


def assistant_spans(mask: Sequence[int]) -> list[tuple[int, int]]:
    """The [start, end) runs of 1s in an assistant mask: one per assistant turn, in order."""
    spans, start = [], None
    for index, bit in enumerate([*mask, 0]):
        if bit and start is None:
            start = index
        elif not bit and start is not None:
            spans.append((start, index))
            start = None
    return spans


def _trimmed(tokenizer: Any, ids: list[int], span: tuple[int, int]) -> tuple[int, int]:
    """The span without whitespace-only tokens at its ends: the template marks the newline that ends the
    generation prompt and the one after the end-of-turn token, which a generating model never produces."""
    start, end = span
    while start < end and not tokenizer.decode(ids[start : start + 1]).strip():
        start += 1
    while end > start and not tokenizer.decode(ids[end - 1 : end]).strip():
        end -= 1
    return start, end


def common_prefix(sequences: Sequence[Sequence[int]]) -> int:
    """Length of the longest prefix all sequences share."""
    if not sequences:
        return 0
    first, length = sequences[0], min(len(s) for s in sequences)
    for sequence in sequences[1:]:
        length = next((i for i in range(length) if sequence[i] != first[i]), length)
    return length


def gold_turns(
    records: list[AgentRecord], tokenizer: Any, template: str, unseen_kinds: set[str] = frozenset()
) -> HeldOutTurns:
    """The tool-call turns of the records, tokenized as SFT tokenizes them (see the module docstring)."""
    held = HeldOutTurns()
    for record in records:
        chat = record_to_chat(record)
        tokens = tokenize_chat(tokenizer, chat, template)
        assistant = [message for message in chat.messages if message["role"] == "assistant"]
        spans = [_trimmed(tokenizer, tokens["input_ids"], span) for span in assistant_spans(tokens["assistant_masks"])]
        if len(spans) != len(assistant):
            raise ValueError(f"{record.id}: {len(spans)} marked assistant spans for {len(assistant)} assistant turns")
        kinds = set((record.task.metadata or {}).get("goal_kinds") or [])
        calls = [(span, message) for span, message in zip(spans, assistant) if message.get("tool_calls")]
        if not calls:
            continue
        index = len(held.conversations)
        held.conversations.append(tokens["input_ids"][: calls[-1][0][1]])
        for (start, end), message in calls:
            names = tuple(call["function"]["name"] for call in message["tool_calls"])
            held.turns.append(GoldTurn(index, start, end, task_of(record), names, bool(kinds & unseen_kinds)))
    held.prefix = common_prefix(held.conversations)
    first = min((turn.start for turn in held.turns), default=0)
    held.prefix = min(held.prefix, first - 1)  # the prefix's last logit predicts the token after it
    return held


def score_turns(model: Any, held: HeldOutTurns, device: str = "cpu") -> list[tuple[bool, int, int]]:
    """Per gold turn: (exact match, tokens right, tokens); argmax at every gold-turn token, teacher-forced."""
    import torch

    decoder = getattr(model, model.base_model_prefix)
    head = model.get_output_embeddings()
    by_conversation: dict[int, list[GoldTurn]] = {}
    for turn in held.turns:
        by_conversation.setdefault(turn.conversation, []).append(turn)
    results: dict[int, tuple[bool, int, int]] = {}
    with torch.inference_mode():
        prefix = torch.tensor([held.conversations[0][: held.prefix]], device=device)
        cached = decoder(input_ids=prefix, use_cache=True).past_key_values
        for index, turns in by_conversation.items():
            ids = held.conversations[index]
            rest = torch.tensor([ids[held.prefix :]], device=device)
            hidden = decoder(input_ids=rest, past_key_values=copy.deepcopy(cached), use_cache=True).last_hidden_state[0]
            # the token at position p is predicted from the hidden state at p - 1
            positions = [p for turn in turns for p in range(turn.start, turn.end)]
            rows = torch.tensor([p - 1 - held.prefix for p in positions], device=device)
            predicted = head(hidden[rows]).argmax(-1).tolist()
            right = dict(zip(positions, (pred == ids[p] for pred, p in zip(predicted, positions))))
            for turn in turns:
                hits = sum(right[p] for p in range(turn.start, turn.end))
                results[id(turn)] = (hits == turn.end - turn.start, hits, turn.end - turn.start)
    return [results[id(turn)] for turn in held.turns]


def bootstrap_interval(
    statistic: Callable[[list[int]], float], units: int, resamples: int, seed: int, level: float = 0.95
) -> tuple[float, float]:
    """Percentile interval of ``statistic`` over ``resamples`` draws of ``units`` unit indices with replacement."""
    rng = random.Random(seed)
    values = sorted(statistic([rng.randrange(units) for _ in range(units)]) for _ in range(resamples))
    low = values[int((1 - level) / 2 * resamples)]
    high = values[min(resamples - 1, int((1 + level) / 2 * resamples))]
    return low, high


def paired_difference(
    a: list[list[bool]], b: list[list[bool]], resamples: int = 2000, seed: int = 0
) -> dict[str, float | list[float]]:
    """Arm a − arm b in exact match, paired: ``a[s][t]`` is seed s's hit on held-out turn t (same turns and
    seeds in b). The mean difference, and 95 % intervals from resampling turns (the seeds' mean on each
    resampled turn set) and from resampling seeds (each seed's difference over all turns)."""
    seeds, turns = len(a), len(a[0]) if a else 0
    per_turn = [sum(a[s][t] - b[s][t] for s in range(seeds)) / seeds for t in range(turns)]
    per_seed = [sum(a[s][t] - b[s][t] for t in range(turns)) / turns for s in range(seeds)]

    def over_turns(sample: list[int]) -> float:
        return sum(per_turn[t] for t in sample) / len(sample)

    def over_seeds(sample: list[int]) -> float:
        return sum(per_seed[s] for s in sample) / len(sample)

    return {
        "difference": sum(per_turn) / turns if turns else 0.0,
        "ci_turns": list(bootstrap_interval(over_turns, turns, resamples, seed)) if turns else [0.0, 0.0],
        "ci_seeds": list(bootstrap_interval(over_seeds, seeds, resamples, seed)) if seeds else [0.0, 0.0],
    }
