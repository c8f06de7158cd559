"""Grounding: every fact, id or amount the agent states or uses must have been shown to it first.

Read from the replayed trajectory (verifiers/claims.py says what a claim is):

- each **amount** in an agent message appeared in an earlier user turn or tool result (within a cent;
  any written form), or in the environment's policy text ("$40 per bag"), or is money that a write of
  the trajectory moves (a confirmation names what is about to happen; verifiers/money.py); any other
  sum the agent works out itself goes through a tool (``calculate``);
- when the trajectory's writes change the state, an amount a clause says moves ("$214.00 goes back to
  your card", "you get $31.46 back", "the bag fee is $80") is money they move (or money the policy
  names, or zero), not just any number that was shown (the old fare, a zip code);
- each **id** and **date** in an agent message appeared in an earlier user turn or tool result;
- each **fact term** (the environment's ``fact_terms``: statuses, membership levels) asserted in an
  agent message is shown by a user turn or a tool result that no later read of the same row superseded
  ("pending" from an order's first read no longer counts once its cancellation showed it cancelled;
  said of the past, "was pending", any read counts); a denied one ("has not been processed") asserts
  nothing here (the constraints read denials: verifiers/constraint_checks.py);
- what a clause says of the **row** it names (an order "#R2", a reservation "JGJFJJ", a flight "ZA441")
  is that row's: a fact term its latest read shows (``ungrounded_contradicted``: "order #R2 is cancelled"
  when #R2 was last shown pending, or "#R2 is not cancelled" when shown cancelled), an amount or an id
  a read of it holds, not another order's (``ungrounded_misattributed``: "You paid $406.72 for order
  #R9" with #R3's total), and a row only listed, never read, has no values to state
  (``ungrounded_unread_row``: the status of a flight the agent did not look up); a change is said of a
  row a write changed (``ungrounded_unchanged_row``: "Reservation HKAAAB is now in business" when the
  write moved JGJFJJ);
- each id-like **argument** of a tool call (a user id, an order id, an item id; and the dates of a
  write, such as a passenger's date of birth) appeared in an earlier user turn or tool result: an agent
  never invents or guesses an id.

Score: 1 / (1 + ungrounded claims), so a reward built on the chain's score still tells a slip from a
fabrication (``passed`` is False either way). Reason codes: ``ungrounded_amount``, ``ungrounded_id``,
``ungrounded_date``, ``ungrounded_fact``, ``ungrounded_contradicted``, ``ungrounded_misattributed``,
``ungrounded_unread_row``, ``ungrounded_unchanged_row``, ``ungrounded_argument``.
Evidence: ``claims``, up to MAX_EVIDENCE of {step, kind, value}.
"""

from __future__ import annotations

import re
from collections.abc import Container
from functools import lru_cache
from typing import Any

from schemas.record import VerifierResult
from schemas.steps import ApiAction
from verifiers.amount_words import amounts_said
from verifiers.base import CheckContext, RecordVerifier
from verifiers.claims import (
    BRACKET,
    CLAUSE_COMMA,
    NEGATIONS,
    RULE_WORDS,
    WORD,
    Seen,
    amounts_in,
    cents,
    dates_in,
    fact_terms_in,
    fold,
    ids_in,
    json_cents,
    mentions_term,
    row_clauses,
    seen_before,
    unbracketed,
)
from verifiers.confirmations import asks_for_decision, proposed_tools
from verifiers.money import moved_by_step

MAX_EVIDENCE = 10
MIN_DIGIT_ID = 5
_CLAUSE = re.compile(rf"[;:()\n]|{CLAUSE_COMMA}|(?<=[.!?])\s+")  # a list's lines are clauses


# Words that say money moves now: a refund, a charge, money back, a fee, a difference to pay. "paid" is left
# out: what a user paid before is history.
_MOVEMENT = re.compile(
    r"\b(?:refund\w*|credited|charged?|charging|debited|deducted|reimburs\w*|back|fees?|difference)\b"
    r"|\bpay\w*\b.{0,40}?\bmore\b",
    re.IGNORECASE,
)
# A clause with one of these says money might move, or does not: "if you cancel, $50 would be refunded".
_HEDGES = NEGATIONS | {"if", "unless", "whether", "would", "could", "might", "may", "you'd", "it'd", "we'd", "i'd"}
# Arithmetic in a clause ("3 x $377 = $1,131.00", "$40 each"): its operands are not money said to move.
_ARITHMETIC = re.compile(r"[×*=+]|\bx\b|\beach\b|\bper\b", re.IGNORECASE)
# Words that say an amount is what an account holds or paid ("it holds $100.00", "your balance is $24").
_ACCOUNT_VALUE = re.compile(r"\b(?:holds?|balance|left|remaining|paid)\b", re.IGNORECASE)
# Words that say a row was changed (by this conversation, when it wrote).
_CHANGE = re.compile(r"\b(?:now|updated|requested|modified|changed)\b", re.IGNORECASE)
_PAST = re.compile(r"\b(?:was|were|had been)\s+(?:[\w']+\s+){0,2}$")
_PAST_MOVEMENT = frozenset({"was", "were", "had"})


# What takes back what was said before it in the same message ("$187.86 - sorry, correction: $187.96").
_CORRECTION = re.compile(
    r"\b(?:correction|sorry,? i meant|i mean|i misspoke|let me correct|rather|make that|scratch that)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)  # pure readings of a message's words are kept: a task's rollouts repeat most messages
def _account_amounts(text: str) -> tuple[float, ...]:
    """The amounts of the clauses of ``text`` that say what an account holds or paid."""
    return tuple(a for clause in _CLAUSE.split(text) if _ACCOUNT_VALUE.search(clause) for a in amounts_in(clause))


@lru_cache(maxsize=8192)
def corrected(text: str) -> str:
    """The message as it stands after its last self-correction: what came before it was taken back."""
    found = list(_CORRECTION.finditer(text))
    return text[found[-1].end() :] if found else text


# A question to the user or an example of a format states nothing ("Is it #R123?", "it looks like name_1234").
_SENTENCE_END = re.compile(r"(?<=[.!?\n])")
_EXAMPLE = re.compile(r"\b(?:e\.g\.|for example|such as|looks like|like|format)\b", re.I)


@lru_cache(maxsize=8192)
def statements_only(text: str) -> str:
    """``text`` without its questions and what follows an example marker in a sentence."""
    kept = []
    for sentence in _SENTENCE_END.split(text):
        if sentence.rstrip().endswith("?"):
            continue
        example = _EXAMPLE.search(sentence)
        kept.append(sentence[: example.start()] if example else sentence)
    return "".join(kept)


_DENIED = re.compile(r"\bnot\s+(?:\$|usd\s?)(\d+)\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _denied_dollars(text: str) -> frozenset[str]:
    return frozenset(_DENIED.findall(text))


def denied_amount(text: str, amount: float) -> bool:
    """The message takes the amount back: "the fee is $40.00, not $80" (the whole dollars are compared)."""
    return str(int(amount)) in _denied_dollars(text)


def worked_out(amount: float, shown: list[float]) -> bool:
    """``amount`` is the sum or the difference of two grounded amounts of the same message, or a few times one
    (per passenger, per bag): the agent showed its work ("$107.81 -> $176.19: +$68.38", "3 x $377")."""
    target = cents(amount)
    values = [cents(a) for a in shown]
    pairs = any(a + b == target or abs(a - b) == target for i, a in enumerate(values) for b in values[i + 1 :])
    return pairs or any(a and target % a == 0 and 2 <= target // a <= 9 for a in values)


@lru_cache(maxsize=4096)
def planned_terms(text: str, terms: tuple[str, ...], words: tuple[tuple[str, tuple[str, ...]], ...]) -> frozenset[str]:
    """The ``terms`` that are states the writes the message proposes lead to ("cancelled" when it proposes a
    cancel): the first letters of those writes' action words ("cance" of cancel) in the term."""
    tools = proposed_tools(text, dict(words))
    stems = set().union(*(own for tool, own in _stems(words) if tool in tools))
    return frozenset(term for term, folded in _folded(terms) if any(stem in folded for stem in stems))


@lru_cache(maxsize=16)  # the environment's words and terms: the same few for a whole run
def _stems(words: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each write tool with the first letters of its action words and of its name's first word."""
    return tuple(
        (tool, frozenset(fold(word)[:5] for word in (*own, tool.split("_")[0]) if word)) for tool, own in words
    )


@lru_cache(maxsize=16)
def _folded(terms: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((term, fold(term)) for term in terms)


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


def contradictions(
    index: int,
    text: str,
    terms: tuple[str, ...],
    seen: Seen,
    aliases: dict[str, tuple[str, ...]] | None = None,
    planned: frozenset[str] = frozenset(),
) -> list[dict]:
    """A clause that names a row and asserts a fact term the row's latest read does not show ("order #R2 is
    cancelled" when #R2 was last shown pending), or denies one it shows ("#R2 is not cancelled yet" when the
    cancellation's result showed it cancelled). A term said of the past ("#R2 was pending") needs only some
    earlier read of the row to show it. Only terms the row could hold are compared ("you are a regular member
    and HEKKBJ is an economy trip": a reservation has no membership); a clause with a rule word is a plan or a
    rule ("I will update the cabin of GFKBAB to business"), not the row as it is; so is a ``planned`` term (a
    state the proposed write leads to) unless said of the past ("ZA615 was cancelled" in a proposal to cancel)."""
    if not mentions_term(text, terms, aliases or {}):
        return []
    found = []
    own_aliases = {t: aliases[t] for t in terms if t in (aliases or {})}
    for clause, whole, prefix in _scopes(text):
        if RULE_WORDS & _words(clause):
            continue
        asserted, denied = fact_terms_in(clause, terms, own_aliases)
        # The rows a scope names matter only when it states a term: most scopes state none.
        names = _scope_names(seen, clause, whole, prefix) if asserted or denied else []
        shown_by_one = {
            t for t in asserted for token in names for read in seen.row_reads(token)[:1] if fold(t) in read.text
        }
        for token in names:
            reads = seen.row_reads(token)
            if not reads:
                continue
            past = {t for t in asserted if _said_of_the_past(clause, t) and seen.may_hold(reads[0], t)}
            now = {t for t in asserted - past - shown_by_one - planned if seen.may_hold(reads[0], t)}
            wrong = sorted(now) if now and not any(fold(t) in reads[0].text for t in now) else []
            wrong += [f"was {t}" for t in sorted(past) if not any(fold(t) in read.text for read in reads)]
            wrong += [
                f"not {t}" for t in sorted(denied - planned) if seen.may_hold(reads[0], t) and fold(t) in reads[0].text
            ]
            if wrong:
                found.append({"step": index, "kind": "contradicted", "value": f"{token}: {', '.join(wrong)}"})
    return found


@lru_cache(maxsize=8192)  # the scopes of a message are in its words alone
def _scopes(text: str) -> tuple[tuple[str, str | None, str | None], ...]:
    """Each clause's words outside its brackets (with the whole clause), and each bracket (with the clause's words
    before it), as (scope, clause, prefix): what ``_scope_names`` reads the rows from."""
    scopes: list[tuple[str, str | None, str | None]] = []
    for clause in row_clauses(text):
        scopes.append((unbracketed(clause), clause, None))
        scopes += [
            (bracket.group(1), None, unbracketed(clause[: bracket.start()])) for bracket in BRACKET.finditer(clause)
        ]
    return tuple(scopes)


def _scope_names(seen: Seen, scope: str, clause: str | None, prefix: str | None) -> list[str]:
    """The rows a scope is about: those named outside the brackets (else anywhere in the clause), and for a
    bracket those it names or else the row just before it: "For GECBAE (ZA574, landed) you paid $960" says
    "landed" of ZA574 and "For ZA273 (reservation BGCDBF) was cancelled" says "cancelled" of ZA273."""
    if prefix is None:
        return seen.names_in(scope) or seen.names_in(clause)
    return seen.names_in(scope) or sorted(seen.names_in(prefix), key=prefix.rfind)[-1:]


@lru_cache(maxsize=16384)
def _words(text: str) -> frozenset[str]:
    """The lower-case words of ``text`` (to meet a set of rule or hedge words)."""
    return frozenset(WORD.findall(text.lower()))


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n")


class _AfterWrites:
    """``cents in`` it: among ``base`` or the numbers of the ``rows`` a write left, those walked on the first question:
    a write's rows can hold a whole flight schedule, and most records never ask."""

    def __init__(self, base: set[int], rows: list[Any]) -> None:
        self._base, self._rows = base, rows
        self._cents: set[int] | None = None

    def __contains__(self, value: object) -> bool:
        if self._cents is None:
            self._cents = self._base | {c for row in self._rows for c in json_cents(row)}
        return value in self._cents


def misattributed(
    index: int, text: str, seen: Seen, allowed: Container[int], planned: Container[str] = frozenset()
) -> list[dict]:
    """What a clause says of the one row it names (read before) that is another row's or no row's: an amount
    no read of the row holds ("You paid $406.72 for order #R9" when #R9's details show 512.10; "#R9 is now
    paid with the new method ($8,954.00)") unless ``allowed`` (moved, policy), or an id that another row of
    its kind holds and it does not ("The tracking number of order #R9 is TRK1", TRK1 being #R8's) unless
    ``planned``: an argument of a write the message proposes ("exchange ... order #R9 ... payment method
    gift_card_1" pays the difference with a card that paid another order; it says nothing of #R9's past)."""
    found = []
    for clause in row_clauses(text):
        tokens = seen.names_in(clause)
        named = [(token, reads) for token in tokens if (reads := seen.row_reads(token))]
        if len(named) != 1:
            continue
        token, reads = named[0]
        found += [
            {"step": index, "kind": "misattributed", "value": f"{token}: {a}"}
            for a in amounts_in(clause)
            if cents(a) not in allowed and not any(row.has_amount(a) for row in reads)
        ]
        others = seen.other_rows_like(reads)
        found += [
            {"step": index, "kind": "misattributed", "value": f"{token}: {other}"}
            for other in tokens
            if other != token
            and other not in planned
            and not any(fold(other) in row.text for row in reads)
            and any(fold(other) in row.text for row in others)
        ]
    return found


def unread_rows(index: int, text: str, terms: tuple[str, ...], seen: Seen) -> list[dict]:
    """A clause that states a value (an amount, a status or its denial, another id) of a row the conversation
    listed but never read ("You paid $637.39 for order #R6746329", "the tracking number of order #R6746329 is
    TRK...", "no flight of reservation HCGHKG was cancelled", when only the profile named it): a row's values
    come from reading it. A row is a token shaped like
    the name of a row that was read (an order id like a read order's)."""
    found = []
    for clause in row_clauses(text) if seen.name_shapes else []:
        names = seen.names_in(clause)
        unread = [t for t in names if seen.is_row_name(t) and not seen.row_reads(t)]
        if unread and (amounts_in(clause) or any(fact_terms_in(clause, terms)) or len(names) > len(unread)):
            found += [{"step": index, "kind": "unread_row", "value": token} for token in unread]
    return found


def changes_elsewhere(
    index: int,
    text: str,
    seen: Seen,
    changed: dict[str, set[str]],
    action_words: tuple[tuple[str, tuple[str, ...]], ...] = (),
    object_words: frozenset[str] = frozenset(),
) -> list[dict]:
    """A clause that says a row was changed ("Reservation DDHKDF is now in basic economy", "The passengers of
    reservation FHHBDE are updated", "The exchange for order #R2 is requested") about a row no write of the
    trajectory changed, or by a change that no write made to it: the ``changed`` rows with the writes that
    changed them; a clause that names a change by its action words ("the exchange", "will now be shipped to")
    says that write changed the row ("The return of order #R2 is requested" when #R2 was exchanged, "The
    passengers of HEKKBJ are updated" when HEKKBJ's bags were); the words that name what a write acts on
    (``object_words``: "items", "flights") count only in a clause that names no action by its own word ("The
    return of 2 items" says a return). Not a condition nor a denial ("if you want, #R2 can be updated")."""
    words, actions = _action_words(action_words, object_words)
    found = []
    for clause in row_clauses(text):
        if not _CHANGE.search(clause) or _HEDGES & _words(clause):
            continue
        said = proposed_tools(clause, actions, generic=False) or proposed_tools(clause, words)
        found += [
            {"step": index, "kind": "unchanged_row", "value": token}
            for token in seen.names_in(clause)
            if seen.is_row_name(token) and (token not in changed or said and not said & changed[token])
        ]
    return found


@lru_cache(maxsize=16)  # the environment's words: the same for every message of a run
def _action_words(
    action_words: tuple[tuple[str, tuple[str, ...]], ...], object_words: frozenset[str]
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Each write's action words, all of them and without the ``object_words``."""
    words = dict(action_words)
    return words, {tool: tuple(w for w in own if w not in object_words) for tool, own in words.items()}


def _said_of_the_past(sentence: str, term: str) -> bool:
    """Every mention of ``term`` follows "was", "were" or "had been" (two words between at most)."""
    folded = fold(sentence)
    starts = [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(fold(term))}(?![\w-])", folded)]
    return bool(starts) and all(_PAST.search(folded, 0, start) for start in starts)


def misstated_movements(index: int, text: str, moved: set[int], history: bool = False) -> list[dict]:
    """Amounts a clause says move ("$214.00 goes back to your card", "you get $31.46 back", "the bag fee is
    $80") that no write of the trajectory moves, alone or as one write's total; the clause's amounts may also
    add up to one ("$16.41 and $219.27 are refunded"). Not a condition ("if you cancel, $50 would be
    refunded") nor a denial; "will" counts: a refund that will reach the card is this trajectory's refund.
    With ``history`` (no write yet), money said of the past ("the $474.18 was refunded") is an earlier
    movement a tool showed, which grounding checks like any amount."""
    found = []
    for amounts, past, arithmetic in _movements(text):
        if history and past:
            continue
        if cents(sum(amounts)) in moved or (arithmetic and any(cents(a) in moved for a in amounts)):
            continue
        found += [{"step": index, "kind": "amount", "value": a} for a in amounts if cents(a) not in moved]
    return found


def movements_elsewhere(index: int, text: str, seen: Seen, moved_by_row: dict[str, set[int]]) -> list[dict]:
    """A sentence that names one row a write changed and says money moves ("Order #R1 is cancelled; $54.00 is
    refunded", "The exchange for #R2 is requested; you get $12.00 back") says the write on that row moved it: an
    amount that writes on other rows moved, and the row's did not (alone or as their total), is said of the
    wrong row."""
    found: list[dict] = []
    anywhere = set().union(*moved_by_row.values())
    for sentence in _SENTENCE.split(text):
        rows = {token for token in seen.names_in(sentence) if token in moved_by_row}
        if len(rows) != 1:
            continue
        (row,) = rows
        found += [
            {"step": index, "kind": "misattributed", "value": f"{row}: {a}"}
            for amounts, _, arithmetic in _movements(sentence)
            if not arithmetic and cents(sum(amounts)) not in moved_by_row[row]
            for a in amounts
            if cents(a) in anywhere and cents(a) not in moved_by_row[row]
        ]
    return found


@lru_cache(maxsize=8192)  # every step's message is read with other moved money, the words stay the same
def _movements(text: str) -> tuple[tuple[tuple[float, ...], bool, bool], ...]:
    """(amounts, said of the past, with arithmetic) of each clause of ``text`` that says money moves, unhedged."""
    found = []
    for clause in _CLAUSE.split(text):
        amounts = amounts_in(clause)
        words = _words(clause)
        if not amounts or not _MOVEMENT.search(clause) or words & _HEDGES:
            continue
        found.append((tuple(amounts), bool(words & _PAST_MOVEMENT), bool(_ARITHMETIC.search(clause))))
    return tuple(found)


class GroundingVerifier(RecordVerifier):
    name = "grounding"
    version = "7"
    needs_env = True

    def check(self, ctx: CheckContext) -> VerifierResult:
        env = ctx.initial_env
        terms = tuple(getattr(env, "fact_terms", ()))
        # Amounts a message may state besides what was shown: the policy's money ("$40 per bag"; not its counts,
        # "24 hours"), and the money any write moves.
        policy = {cents(a) for a in amounts_in(getattr(env, "policy", "") or "")}
        also = set(policy)
        moved = {cents(amount) for amounts in moved_by_step(ctx).values() for amount in amounts}
        # A write's total counts as moved too: a refund split over two payment methods is said as one sum.
        moved |= {cents(sum(amounts)) for amounts in moved_by_step(ctx).values() if amounts}
        # and so does the total of every write ("$2,443.00 in total" for two cancellations)
        moved.add(cents(sum(a for amounts in moved_by_step(ctx).values() for a in amounts)))
        also |= moved
        # Said of a row, an amount is one of its reads, one a write moves, or money the policy names ("a
        # certificate of $100 per passenger"). Said to move, it is one a write moves, or nothing: the policy's
        # rate ("$40 per bag", "$40 each") is arithmetic, and "the bag fee is $25" with $25 the insurance's is not.
        may_move = moved | policy | {0}
        writes = {tool.name for tool in env.tools() if tool.access == "write"} if env is not None else set()
        changed: dict[str, set[str]] = {}  # each row a write changed: the writes that changed it
        moved_by_row: dict[str, set[int]] = {}  # and the money they moved (each write's amounts and their total)
        for entry in ctx.write_log:
            amounts = moved_by_step(ctx).get(entry["step"], [])
            for _, key in entry.get("rows") or {}:
                changed.setdefault(key, set()).add(entry["tool"])
                moved_by_row.setdefault(key, set()).update({cents(a) for a in amounts} | {cents(sum(amounts))})
        ok = {entry["step"]: entry["ok"] for entry in ctx.write_log}
        # What the writes are called with: the ids a request to confirm names as the change's arguments.
        arguments = {
            token
            for step in ctx.record.trajectory
            if isinstance(step, ApiAction) and step.function in writes
            for value in step.kwargs.values()
            for token in argument_ids(value)
        }
        first_write = min((e["step"] for e in ctx.write_log if e["ok"] and e.get("access") == "write"), default=None)
        # Money a clause may say of a row besides its reads: money moved, the policy's, and the values the writes
        # leave in the rows they change (a new fare said of the reservation it will be).
        allowed = _AfterWrites(may_move, [after for e in ctx.write_log for _, after in (e.get("rows") or {}).values()])
        word_items = tuple((getattr(env, "action_words", {}) or {}).items())
        objects = frozenset(getattr(env, "object_words", ()))
        aliases = {t: p for t, p in (getattr(env, "phrasings", {}) or {}).items() if t in terms}
        claims: list[dict] = []
        for index, step, seen in seen_before(ctx.record.trajectory):
            if isinstance(step, ApiAction):
                if not ok.get(index, True):  # a refused call changed nothing: a mistyped id is a slip, not a guess
                    continue
                claims += [
                    {"step": index, "kind": "argument", "value": f"{key}={token}"}
                    for key, value in step.kwargs.items()
                    for token in argument_ids(value, dates=step.function in writes)
                    if not seen.has_text(token)
                ]
                continue
            text = corrected(step.content)
            amounts = [a for a in amounts_said(text) if not denied_amount(text, a)]
            shown = [a for a in amounts if seen.has_number(a, also)]
            claims += [
                {"step": index, "kind": "amount", "value": a}
                for a in amounts
                if a not in shown and not worked_out(a, shown)
            ]
            # What an account holds or paid is the account's: the policy's money ("a $100 certificate") is no source.
            claims += [
                {"step": index, "kind": "amount", "value": a}
                for a in _account_amounts(text)
                if cents(a) in policy and not seen.has_number(a, moved)
            ]
            if moved_by_step(ctx):  # money said to move is what the writes move, not another number shown
                history = first_write is None or index < first_write
                claims += [c for c in misstated_movements(index, text, moved | {0}, history) if c not in claims]
                claims += movements_elsewhere(index, text, seen, moved_by_row)
            claims += misattributed(index, text, seen, allowed, arguments if asks_for_decision(text) else frozenset())
            claims += unread_rows(index, text, terms, seen)
            if changed:  # with no write, "now" is not a change the agent made
                claims += changes_elsewhere(index, text, seen, changed, word_items, objects)
            # "#TRK123" for the TRK123 shown, "R123" for "#R123": a mark in front names the same id
            claims += [
                {"step": index, "kind": "id", "value": t}
                for t in ids_in(statements_only(text))
                if not seen.has_text(t) and not seen.has_text(t.lstrip("#")) and not seen.has_text(f"#{t}")
            ]
            # A request to confirm describes what the change will make ("the order is cancelled with the reason ..."):
            # the states its writes lead to are plans there, not facts.
            planned = planned_terms(text, terms, word_items) if asks_for_decision(text) else frozenset()
            said = tuple(t for t in terms if t not in planned)
            asserted, _ = fact_terms_in(text, said, {t: aliases[t] for t in said if t in aliases})
            claims += [
                {"step": index, "kind": "fact", "value": t}
                for t in sorted(asserted)
                if not seen.has_term(t, now=not _said_of_the_past(text, t))
            ]
            claims += contradictions(index, text, terms, seen, aliases, planned)
        reasons = [f"ungrounded_{kind}" for kind in dict.fromkeys(c["kind"] for c in claims)]
        # Partial credit for a reward (GRPO): one ungrounded claim fails the check but does not zero the score.
        score = 1.0 / (1 + len(claims))
        return self.result(not claims, score=score, reasons=reasons, evidence={"claims": claims[:MAX_EVIDENCE]})
