"""Grounding: every fact, id or amount the agent states or uses must have been shown to it first.

Read from the replayed trajectory (verifiers/claims.py says what a claim is):

- each **amount** in an agent message appeared in an earlier user turn or tool result (within a cent;
  any written form), or in the environment's policy text ("$40 per bag"), or is money that a write of
  the trajectory moves (a confirmation names what is about to happen; verifiers/money.py); any other
  sum the agent works out itself goes through a tool (``calculate``);
- each **id** in an agent message appeared in an earlier user turn or tool result;
- each **fact term** (the environment's ``fact_terms``: statuses, membership levels) asserted in an
  agent message appeared in an earlier user turn or tool result; a denied one ("has not been
  processed") asserts nothing here (the constraints read denials: verifiers/constraint_checks.py);
- each id-like **argument** of a tool call (a user id, an order id, an item id) appeared in an earlier
  user turn or tool result: an agent never invents or guesses an id.

Reason codes: ``ungrounded_amount``, ``ungrounded_id``, ``ungrounded_fact``, ``ungrounded_argument``.
Evidence: ``claims``, up to MAX_EVIDENCE of {step, kind, value}.
"""

from __future__ import annotations

from typing import Any

from schemas.record import VerifierResult
from schemas.steps import ApiAction, TextObservation
from verifiers.base import CheckContext, RecordVerifier
from verifiers.claims import Seen, amounts_in, fact_terms_in, ids_in, numbers_in, seen_before
from verifiers.money import moved_by_step

MAX_EVIDENCE = 10
MIN_DIGIT_ID = 5


def argument_ids(value: Any) -> list[str]:
    """The id-like strings among an argument's values (a value that is an id as a whole)."""
    values = value if isinstance(value, list) else [value]
    # In a structured argument a run of five or more digits is an id too (retail item ids), not an amount.
    return [
        v
        for v in values
        if isinstance(v, str) and (ids_in(v) == [v.strip("-_")] or v.isdigit() and len(v) >= MIN_DIGIT_ID)
    ]


def ungrounded_arguments(trajectory: list) -> list[dict]:
    seen, found = Seen(), []
    for index, step in enumerate(trajectory):
        if isinstance(step, TextObservation) and step.source in ("user", "tool"):
            seen.add(step)
        elif isinstance(step, ApiAction):
            for key, value in step.kwargs.items():
                for token in argument_ids(value):
                    if not seen.has_text(token):
                        found.append({"step": index, "kind": "argument", "value": f"{key}={token}"})
    return found


class GroundingVerifier(RecordVerifier):
    name = "grounding"
    version = "1"
    needs_env = True

    def check(self, ctx: CheckContext) -> VerifierResult:
        env = ctx.initial_env
        terms = tuple(getattr(env, "fact_terms", ()))
        policy_numbers = numbers_in(getattr(env, "policy", "") or "")
        moved = [amount for amounts in moved_by_step(ctx).values() for amount in amounts]
        claims: list[dict] = []
        for index, message, seen in seen_before(ctx.record.trajectory):
            seen.numbers += policy_numbers + moved
            for amount in amounts_in(message.content):
                if not seen.has_number(amount):
                    claims.append({"step": index, "kind": "amount", "value": amount})
            for token in ids_in(message.content):
                if not seen.has_text(token):
                    claims.append({"step": index, "kind": "id", "value": token})
            asserted, _ = fact_terms_in(message.content, terms)
            for term in sorted(asserted):
                if not seen.has_term(term):
                    claims.append({"step": index, "kind": "fact", "value": term})
        claims += ungrounded_arguments(ctx.record.trajectory)
        reasons = [f"ungrounded_{kind}" for kind in dict.fromkeys(c["kind"] for c in claims)]
        return self.result(not claims, reasons=reasons, evidence={"claims": claims[:MAX_EVIDENCE]})
