"""Grounding: every fact, id or amount the agent states or uses must have been shown to it first.

Read from the replayed trajectory (verifiers/claims.py says what a claim is):

- each **amount** in an agent message appeared in an earlier user turn or tool result (within a cent;
  any written form), or in the environment's policy text ("$40 per bag"), or is money that a write of
  the trajectory moves (a confirmation names what is about to happen; verifiers/money.py); any other
  sum the agent works out itself goes through a tool (``calculate``);
- each **id** and **date** in an agent message appeared in an earlier user turn or tool result;
- each **fact term** (the environment's ``fact_terms``: statuses, membership levels) asserted in an
  agent message appeared in an earlier user turn or tool result; a denied one ("has not been
  processed") asserts nothing here (the constraints read denials: verifiers/constraint_checks.py);
- a sentence that names a row by id and states a fact term about it says what the row's latest read
  showed ("order #R2 is cancelled" when #R2 was last shown pending is ``ungrounded_contradicted``);
- each id-like **argument** of a tool call (a user id, an order id, an item id; and the dates of a
  write, such as a passenger's date of birth) appeared in an earlier user turn or tool result: an agent
  never invents or guesses an id.

Score: 1 / (1 + ungrounded claims), so a reward built on the chain's score still tells a slip from a
fabrication (``passed`` is False either way). Reason codes: ``ungrounded_amount``, ``ungrounded_id``, ``ungrounded_date``, ``ungrounded_fact``,
``ungrounded_contradicted``, ``ungrounded_argument``.
Evidence: ``claims``, up to MAX_EVIDENCE of {step, kind, value}.
"""

from __future__ import annotations

import re
from typing import Any

from schemas.record import VerifierResult
from schemas.steps import ApiAction
from verifiers.base import CheckContext, RecordVerifier
from verifiers.claims import Seen, amounts_in, cents, dates_in, fact_terms_in, fold, ids_in, numbers_in, seen_before
from verifiers.money import moved_by_step

MAX_EVIDENCE = 10
MIN_DIGIT_ID = 5
_SENTENCE = re.compile(r"(?<=[.;!?])\s+")


def argument_ids(value: Any, dates: bool = False) -> list[str]:
    """The id-like strings among an argument's values (a value that is an id, or with ``dates`` a date, as a
    whole). A read may look at a date the agent picked (a search the day after); a write may not invent one."""
    values = value if isinstance(value, list) else [value]
    # In a structured argument a run of five or more digits is an id too (retail item ids), not an amount.
    return [
        v
        for v in values
        if isinstance(v, str)
        and any(ch.isdigit() for ch in v)
        and (ids_in(v) == [v.strip("-_")] or v.isdigit() and len(v) >= MIN_DIGIT_ID or dates and dates_in(v) == [v])
    ]


def contradictions(index: int, text: str, terms: tuple[str, ...], seen: Seen) -> list[dict]:
    """A sentence that names a row by id and states a fact term the row's latest read does not show
    ("order #R2 is cancelled" when #R2 was last shown pending)."""
    found = []
    for sentence in _SENTENCE.split(text):
        asserted, _ = fact_terms_in(sentence, terms)
        for token in ids_in(sentence) if asserted else []:
            row = seen.latest_row(token)
            if row is not None and not any(fold(term) in row for term in asserted):
                found.append(
                    {"step": index, "kind": "contradicted", "value": f"{token}: {', '.join(sorted(asserted))}"}
                )
    return found


class GroundingVerifier(RecordVerifier):
    name = "grounding"
    version = "3"
    needs_env = True

    def check(self, ctx: CheckContext) -> VerifierResult:
        env = ctx.initial_env
        terms = tuple(getattr(env, "fact_terms", ()))
        # Numbers a message may state besides what was shown: the policy's, and the money any write moves.
        also = {cents(n) for n in numbers_in(getattr(env, "policy", "") or "")}
        also |= {cents(amount) for amounts in moved_by_step(ctx).values() for amount in amounts}
        writes = {tool.name for tool in env.tools() if tool.access == "write"} if env is not None else set()
        claims: list[dict] = []
        for index, step, seen in seen_before(ctx.record.trajectory):
            if isinstance(step, ApiAction):
                claims += [
                    {"step": index, "kind": "argument", "value": f"{key}={token}"}
                    for key, value in step.kwargs.items()
                    for token in argument_ids(value, dates=step.function in writes)
                    if not seen.has_text(token)
                ]
                continue
            text = step.content
            claims += [
                {"step": index, "kind": "amount", "value": a} for a in amounts_in(text) if not seen.has_number(a, also)
            ]
            claims += [{"step": index, "kind": "id", "value": t} for t in ids_in(text) if not seen.has_text(t)]
            claims += [{"step": index, "kind": "date", "value": d} for d in dates_in(text) if not seen.has_text(d)]
            asserted, _ = fact_terms_in(text, terms)
            claims += [{"step": index, "kind": "fact", "value": t} for t in sorted(asserted) if not seen.has_term(t)]
            claims += contradictions(index, text, terms, seen)
        reasons = [f"ungrounded_{kind}" for kind in dict.fromkeys(c["kind"] for c in claims)]
        # Partial credit for a reward (GRPO): one ungrounded claim fails the check but does not zero the score.
        score = 1.0 / (1 + len(claims))
        return self.result(not claims, score=score, reasons=reasons, evidence={"claims": claims[:MAX_EVIDENCE]})
