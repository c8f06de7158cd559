"""Loss-based complexity (optional): the learner's mean token loss on the assistant turns of a record.

``loss = mean over assistant tokens t of -log p_learner(t | everything before t)``,
the cross-entropy a training step on this record would start from: high for
what the learner finds surprising (hard, or unusual), low for what it already
writes. It lands in ``scores.extra["loss"]`` and the ``loss`` column; a record
that cannot be rendered as a conversation, or has no assistant token, has none.

Rendering a record as tokens with an assistant mask belongs to training/
(which depends on curation, not the other way round), so the caller passes it
in as ``tokenize``; the CLI wires training/render.py and the learner's
tokenizer. Records are scored one at a time, cut to ``max_tokens``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from schemas.record import AgentRecord

# A record -> {"input_ids": [...], "assistant_masks": [...]}, or None when it cannot be rendered.
Tokenize = Callable[[AgentRecord], dict[str, list[int]] | None]
MAX_TOKENS = 2048


def assistant_loss(model: Any, tokens: dict[str, list[int]], max_tokens: int = MAX_TOKENS) -> float | None:
    import torch

    ids = torch.tensor(tokens["input_ids"][:max_tokens]).unsqueeze(0)
    learned = torch.tensor(tokens["assistant_masks"][:max_tokens], dtype=torch.bool)[1:]
    if not learned.any():
        return None
    with torch.inference_mode():
        logits = model(ids).logits[0, :-1]
    loss = torch.nn.functional.cross_entropy(logits[learned].float(), ids[0, 1:][learned])
    return round(float(loss), 6)


def loss_column(
    model: Any, tokenize: Tokenize, max_tokens: int = MAX_TOKENS
) -> Callable[[Iterable[AgentRecord]], list]:
    """A record column for ``run_score``: each record's assistant loss (None when it has none)."""

    def column(records: Iterable[AgentRecord]) -> list[float | None]:
        values = []
        for record in records:
            tokens = tokenize(record)
            values.append(None if tokens is None else assistant_loss(model, tokens, max_tokens))
        return values

    return column
