"""An optional paraphrase stage: a model rewrites each scenario's reason in other words; a rewrite is kept only
when every fact of the original survives it.

The check (``lost_fact``) reads facts out of the original, never rewrites
either text, and names the first loss with a stable reason code:

- ``lost_date``: an ISO date (2025-06-12) of the original is missing (a changed date is a missing one);
- ``lost_id``: an id (#R6446082, HAT170, jonas_eklund_2907, a reservation code JGJFJJ) is missing;
- ``lost_amount`` / ``lost_number``: a sum of money or another number is missing; money counts in any of its
  forms ($1,234.50, 1234.5, 1,234.50 dollars);
- ``lost_name``: a known value the original states (an order, item or payment description, an address,
  passenger details: the scenario's known_info) is missing, compared without case and without a leading
  "the", "my" or "your";
- ``lost_condition``: a condition or negation word of the original (if, only if, unless, otherwise, only,
  not) is missing: "only this order, not your profile" without "not" asks for the opposite;
- ``added_fact``: a date, id or number the original does not have (a model that invents a $50 fee);
- ``not_second_person``: the rewrite speaks as "I" or says no "you" (the scripted user turns "you" into "I");
- ``unchanged``: the rewrite is the original;
- ``length_changed``: the rewrite has under half or over twice the original's words (an echo such as
  "You ...", or a story around the request);
- ``drifted``: it keeps under a quarter of the original's content words (4+ letters, the frame's words and
  fillers left out): a request about something else, which no fact check above can see.

Model output that does not parse is ``no_json`` / ``unparseable`` / ``schema_invalid`` (schemas.structured_output),
a dead backend ``backend_error``. Every code gets the ``paraphrase:`` prefix; a rejected rewrite leaves the
original reason and is counted in SynthStats.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from generators.llm.interface import ChatRequest, GenerationError, SamplingParams
from generators.synthesis.config import ScenarioOptions
from generators.synthesis.stats import SynthStats
from schemas.structured_output import StructuredOutput, generate_structured

PARAPHRASE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"reason": {"type": "string", "minLength": 3, "maxLength": 1600}},
    "required": ["reason"],
    "additionalProperties": False,
}
PARAPHRASED = StructuredOutput(PARAPHRASE_SCHEMA, check=lambda data: None if data["reason"].strip() else "blank")
_SKELETON = '{"reason": "<the same request in other words>"}'

_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
# An id: a token with a letter and a digit, one that starts with "#", or a code of 5+ capitals (JGJFJJ).
_ID = re.compile(r"#\w+|\b(?=\w*[A-Za-z])(?=\w*\d)\w+\b|\b[A-Z]{5,}\b")
_MONEY = re.compile(r"\$\s?\d[\d,]*(?:\.\d+)?|\b\d[\d,]*\.\d{2}\b")
_NUMBER = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
# Longest first: "only if" is its own condition, and its "if" and "only" are then not counted again.
CONDITIONS = ("only if", "unless", "otherwise", "if", "only", "not")
_CONDITION = re.compile(r"\b(" + "|".join(CONDITIONS) + r")\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself|I'm|I'd|I've|I'll)\b")
_SECOND_PERSON = re.compile(r"\byou", re.IGNORECASE)
_LEADING = re.compile(r"^(?:the|my|your)\s+", re.IGNORECASE)
_WORD = re.compile(r"[a-z]{4,}")
# Words of the frame (scenarios.py) and fillers: a rewrite may drop or change them freely.
# fmt: off
_FILLERS = frozenset({
    "airline", "retail", "customer", "support", "team", "contact", "contacting", "touch", "write", "chat", "opened",
    "because", "that", "this", "what", "with", "would", "like", "want", "wants", "need", "from", "your", "have",
    "also", "besides", "after", "hope", "sort",
})
# fmt: on
MIN_LENGTH_RATIO, MAX_LENGTH_RATIO, MIN_CONTENT_KEPT = 0.5, 2.0, 0.25


def _value(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace("$", "").replace(",", "").strip()).normalize()
    except InvalidOperation:
        return None


def facts(text: str) -> dict[str, set]:
    """Dates, ids, amounts, other numbers and condition words of a text; each found span is taken out before
    the next kind is looked for (a date's digits are not numbers, an id's digits are not an amount)."""
    dates = set(_DATE.findall(text))
    rest = _DATE.sub(" ", text)
    ids = set(_ID.findall(rest))
    rest = _ID.sub(" ", rest)
    amounts = {_value(m) for m in _MONEY.findall(rest)} - {None}
    rest = _MONEY.sub(" ", rest)
    numbers = {_value(m) for m in _NUMBER.findall(rest)} - {None}
    normalized = re.sub(r"n't\b", " not", text)
    conditions = {word.lower() for word in _CONDITION.findall(normalized)}
    return {"date": dates, "id": ids, "amount": amounts, "number": numbers, "condition": conditions}


def lost_fact(original: str, paraphrase: str, names: list[str]) -> str | None:
    """The first fact of ``original`` that ``paraphrase`` loses (a reason code, see the module docstring), or None."""
    if paraphrase.strip() == original.strip():
        return "unchanged"
    before, after = facts(original), facts(paraphrase)
    values = after["amount"] | after["number"]  # an amount may come back written as a plain number
    for kind in ("date", "id"):
        if not before[kind] <= after[kind]:
            return f"lost_{kind}"
    if not before["amount"] <= values:
        return "lost_amount"
    if not before["number"] <= values:
        return "lost_number"
    lowered_before, lowered_after = original.lower(), paraphrase.lower()
    for name in names:
        core = _LEADING.sub("", name.strip()).lower()
        if core and core in lowered_before and core not in lowered_after:
            return "lost_name"
    if not before["condition"] <= after["condition"]:
        return "lost_condition"
    if after["date"] - before["date"] or after["id"] - before["id"] or values - before["amount"] - before["number"]:
        return "added_fact"
    if _FIRST_PERSON.search(paraphrase) or not _SECOND_PERSON.search(paraphrase):
        return "not_second_person"
    ratio = len(paraphrase.split()) / max(1, len(original.split()))
    if not MIN_LENGTH_RATIO <= ratio <= MAX_LENGTH_RATIO:
        return "length_changed"
    content = set(_WORD.findall(lowered_before)) - _FILLERS
    if content and len(content & set(_WORD.findall(lowered_after))) < MIN_CONTENT_KEPT * len(content):
        return "drifted"
    return None


def paraphrase_request(reason: str, schema_enforced: bool) -> ChatRequest:
    system = (
        "You rewrite the reason a customer contacts customer support, in other words and in another sentence "
        "shape. Keep it in the second person (you, your). Keep every id, amount, date, number, address and "
        "every description of an order, item, trip or payment method exactly as written, and keep every "
        "condition (if, only, unless, otherwise, not). Add nothing. Reply with one JSON object with the key reason."
    )
    user = f"Rewrite: {reason}" + ("" if schema_enforced else f" Answer with the JSON object only: {_SKELETON}")
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return ChatRequest(messages=messages, json_schema=PARAPHRASE_SCHEMA if schema_enforced else None)


class Paraphraser:
    """An LLM behind a CachedGenerator (results cached by content, so a rerun resumes)."""

    name, version = "llm_paraphraser", "1"

    def __init__(self, generator, max_tokens: int = 200):
        self.generator = generator
        self.params = SamplingParams(max_tokens=max_tokens)

    def rewrite(self, reasons: list[str], names: list[list[str]]) -> list[tuple[str | None, str | None]]:
        """One batch call (and one retry batch for answers that do not parse); for each reason, (the rewrite,
        None) when every fact survives it, else (None, reason code)."""
        enforced = self.generator.capabilities.supports_json_schema
        requests = [paraphrase_request(reason, enforced) for reason in reasons]
        try:
            answers = generate_structured(self.generator, requests, self.params, PARAPHRASED)
        except (GenerationError, ValueError):
            return [(None, "paraphrase:backend_error")] * len(reasons)
        rewritten: list[tuple[str | None, str | None]] = []
        for reason, known, answer in zip(reasons, names, answers):
            if not answer.ok:
                rewritten.append((None, f"paraphrase:{answer.reason}"))
                continue
            text = answer.value["reason"].strip()
            problem = lost_fact(reason, text, known)
            rewritten.append((None, f"paraphrase:{problem}") if problem else (text, None))
        return rewritten


def known_names(scenario: dict[str, Any]) -> list[str]:
    """What the user knows (order, item and payment descriptions, addresses, ...): a rewrite must keep them."""
    return [value for value in scenario["known_info"].values() if isinstance(value, str)]


def apply_paraphrases(
    scenarios: list[dict | None],
    rewritten: list[tuple[str | None, str | None]],
    identity: dict[str, Any],
    stats: SynthStats,
) -> tuple[list[dict | None], list[dict | None]]:
    """The scenarios with each kept rewrite as their reason, and per scenario what its record's metadata says
    about it ({"by", "outcome": "kept" | reason code, "original"}); a rejected rewrite is counted by its code."""
    out: list[dict | None] = []
    notes: list[dict | None] = []
    pending = iter(rewritten)
    for scenario in scenarios:
        if scenario is None:
            out.append(None)
            notes.append(None)
            continue
        text, problem = next(pending)
        stats.paraphrases_tried += 1
        if text is None:
            stats.paraphrase_rejected[problem] += 1
            out.append(scenario)
            notes.append({"by": identity, "outcome": problem})
            continue
        stats.paraphrases_kept += 1
        out.append({**scenario, "reason": text})
        notes.append({"by": identity, "outcome": "kept", "original": scenario["reason"]})
    return out, notes


def paraphrase_scenarios(
    scenarios: list[dict | None], options: ScenarioOptions, stats: SynthStats
) -> tuple[list[dict | None], list[dict | None]]:
    """Every (not rejected) scenario's reason offered to the paraphraser in one batch; (the scenarios, per
    scenario its paraphrase note for the record's metadata). No paraphraser: the scenarios as they are, no notes."""
    backend = options.paraphraser_backend()
    present = [scenario for scenario in scenarios if scenario is not None]
    if backend is None or not present:
        return scenarios, [None] * len(scenarios)
    generator = backend.make_generator()
    try:
        rewritten = Paraphraser(generator, options.paraphrase_max_tokens).rewrite(
            [scenario["reason"] for scenario in present], [known_names(scenario) for scenario in present]
        )
        identity = {"backend": backend.backend_name(), **generator.model_id}
    finally:
        generator.close()
    return apply_paraphrases(scenarios, rewritten, identity, stats)
