"""Teacher-forced next-call exact match (and gold-call NLL and tool-name accuracy) on held-out tool-call turns.

A held-out conversation (an oracle rollout) is rendered exactly as SFT renders
its training data (training.render: record_to_chat in the learner's rendering,
the compact one for SmolLM2, then tokenize_chat with the training chat
template), so train and eval see the same tokens. Every assistant
turn that makes a tool call is a **gold turn**: its tokens are the ones the
template's ``{% generation %}`` block marks, from ``<tool_call>`` to the
end-of-turn token (the newlines around them, which the generation prompt gives
or which follow the stop, are left out).

The primary metric: given the gold dialogue before the turn, is the model's argmax at
every token of the gold turn the gold token? That is exactly "greedy decoding
reproduces the gold turn verbatim", so a hit means the same tool name and the
same arguments (in the rendering's canonical form: the oracle's argument order,
one JSON encoding). It is stricter than comparing parsed arguments: an answer
with the arguments in another order or spacing counts as a miss.

Secondary figures, from the same forward pass: the gold call's mean negative
log-likelihood per token, and tool-name accuracy (argmax right at every token
that holds a character of a called tool's name, given the gold tokens before).

Why argmax rather than generation: one forward pass over a whole conversation
scores all its gold turns at once (causal attention: position t sees only the
gold tokens before it), and the system prompt (policy + tools, ~550 tokens compact,
identical in every retail conversation) is run once per model and its KV cache
reused, so a model costs the dialogue tokens only.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generators.rollouts.agent_prompt import Rendering
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
    names: tuple[int, ...] = ()  # the turn's tokens that hold a character of a called tool's name


@dataclass
class TurnScore:
    exact: bool  # argmax right at every token of the turn
    right: int  # tokens right
    tokens: int  # tokens scored
    nll: float  # summed negative log-likelihood of the gold tokens (nats)
    name_right: bool  # argmax right at every token of the called tools' names


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


def name_tokens(tokenizer: Any, ids: list[int], start: int, end: int, names: Sequence[str]) -> tuple[int, ...]:
    """Positions in [start, end) whose token holds a character of one of ``names`` where the turn's text names
    it (``"name": "<name>"``), found on the decoded text of the growing span."""
    ends = [len(tokenizer.decode(ids[start : start + i])) for i in range(end - start + 1)]
    text, spans, after = tokenizer.decode(ids[start:end]), [], 0
    for name in names:
        begin = text.index(f'"name": "{name}"', after) + len('"name": "')
        spans.append((begin, begin + len(name)))
        after = begin + len(name)
    return tuple(
        start + i
        for i in range(end - start)
        if any(ends[i] < high and ends[i + 1] > low for low, high in spans)  # token i covers [ends[i], ends[i+1])
    )


def gold_turns(
    records: list[AgentRecord],
    tokenizer: Any,
    template: str,
    rendering: Rendering,
    unseen_kinds: set[str] = frozenset(),
) -> HeldOutTurns:
    """The tool-call turns of the records, tokenized as SFT tokenizes them in ``rendering`` (the module docstring)."""
    held = HeldOutTurns()
    for record in records:
        chat = record_to_chat(record, rendering)
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
            positions = name_tokens(tokenizer, tokens["input_ids"], start, end, names)
            unseen = bool(kinds & unseen_kinds)
            held.turns.append(GoldTurn(index, start, end, task_of(record), names, unseen, positions))
    held.prefix = common_prefix(held.conversations)
    first = min((turn.start for turn in held.turns), default=0)
    held.prefix = min(held.prefix, first - 1)  # the prefix's last logit predicts the token after it
    return held


def score_turns(model: Any, held: HeldOutTurns, device: str = "cpu") -> list[TurnScore]:
    """Per gold turn, teacher-forced: argmax and log-likelihood at every gold-turn token given the gold before it."""
    import torch

    decoder = getattr(model, model.base_model_prefix)
    head = model.get_output_embeddings()
    by_conversation: dict[int, list[GoldTurn]] = {}
    for turn in held.turns:
        by_conversation.setdefault(turn.conversation, []).append(turn)
    results: dict[int, TurnScore] = {}
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
            logits = head(hidden[rows]).float()
            gold = torch.tensor([ids[p] for p in positions], device=device)
            nll = torch.nn.functional.cross_entropy(logits, gold, reduction="none").tolist()
            right = (logits.argmax(-1) == gold).tolist()
            by_position = {p: (r, loss) for p, r, loss in zip(positions, right, nll)}
            for turn in turns:
                span = [by_position[p] for p in range(turn.start, turn.end)]
                hits = sum(r for r, _ in span)
                results[id(turn)] = TurnScore(
                    exact=hits == len(span),
                    right=hits,
                    tokens=len(span),
                    nll=sum(loss for _, loss in span),
                    name_right=all(by_position[p][0] for p in turn.names),
                )
    return [results[id(turn)] for turn in held.turns]
