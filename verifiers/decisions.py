"""What a user turn decides about a proposed change, read from its words when no simulator recorded it.

A user answers a request to confirm a change in many ways; what counts is the decision, not a yes-word:

- **consent**: "Yes, please go ahead", "OK, go for it", "Go on then", "Absolutely, do it", "That works", "Sounds good",
  "Please do", "Sure", "Yes, cancel it. I'm not flying in this weather." (a "not" elsewhere in the turn is
  no refusal);
- **refusal**: "No", "Don't", "Not now", "Leave it", "I'd rather keep it", "Never mind", "I changed my mind",
  "Wait, actually no", "Hold off" (a retraction is a refusal said after a consent: the latest one counts);
- **condition**: a consent bound to something still open ("Yes, as long as it goes back to my card", "only if
  it's free"): not consent yet, and not a refusal either;
- **question**: a question and nothing else ("Will the refund go to my card?"): no decision;
- **none**: anything else (new information, thanks, small talk).

A turn is read clause by clause; its decision is the last clause that decides (consent, refusal, condition),
so "Yes. Wait, actually no, leave it for now." is a refusal, and "Yes, but when do I get my money?" stays a
consent. Idioms that only look like answers are read as what they are ("no problem" and "why not" consent,
"correct me if I'm wrong" decides nothing). ``retracts`` says whether a refusal names the change itself ("leave
it", "don't cancel", "changed my mind"), which makes it a refusal whatever question it answers.

Simulators record two more kinds beside their turns (verifiers/consent.py ``RECORDED`` says how they count):
``insist`` (a push back on a refusal) and ``change_request`` (a change of mind: a refusal of what came before).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

Decision = Literal["consent", "refusal", "condition", "question", "none"]
DECIDING: frozenset[str] = frozenset({"consent", "refusal", "condition"})

# Phrases read before the rules below, so that their words do not decide ("no problem" is a consent, "correct
# me if I'm wrong" decides nothing): replaced by what they mean.
_IDIOMS = [
    (r"\b(?:no|not a) (?:problem|worries|worry)\b", " okay "),
    (r"\bwhy not\b|\bi don'?t mind\b|\bdon'?t see why not\b|\bnot at all\b", " okay "),
    (r"\bcorrect me if i'?m wrong\b|\bif i'?m not mistaken\b|\bif i remember (?:correctly|right)\b", " "),
    (r"\bno (?:longer|more)\b|\bnot (?:any ?more|any longer)\b|\bdon'?t need (?:it|them|this|that)\b", " "),
    (r"\bnothing else\b|\bno,? (?:that'?s|that is) (?:all|it)\b", " "),
]
_CONSENT = re.compile(
    r"^(?:yes|yeah|yep|yup|ya|sure|ok|okay|alright|all right|fine|great|perfect|absolutely|definitely|certainly|"
    r"of course|correct|right|exactly|confirmed|agreed|affirmative|please)\b"
    r"|\b(?:go ahead|go for it|go on|carry on|proceed|please do|do it|do that|do so|do both|let'?s do (?:it|that)|"
    r"make it so|make it happen|be my guest|"
    r"(?:fine|ok|okay|good) (?:by|with) me|mm-?hm+|uh-?huh|"
    r"sounds? (?:good|great|fine|right)|works for me|that works|(?:that'?s|that is|it'?s) (?:fine|ok|okay|right|"
    r"correct|good|great|perfect)|i (?:confirm|agree|approve|accept)|i'?m (?:ok|okay|fine) with|confirm(?:ed)?|"
    r"please (?:cancel|return|exchange|change|update|book|modify|switch|proceed|send|add)|"
    r"(?:so|then|and|well),? (?:yes|yeah|yep)(?=\W*(?:$|,))|"
    r"(?:cancel|return|exchange|change|update|book|modify|switch|send|add) (?:it|them|that|this|the \w+)(?: please)?$)\b"
)
# A refusal or a retraction of the change; "not" alone is not one ("I'm not flying in this weather").
_REFUSAL = re.compile(
    r"^(?:no|nope|nah|negative)\b"
    r"|\b(?:don'?t|do not|please don'?t|never) (?:do|go ahead|proceed|cancel|return|exchange|change|update|book|"
    r"modify|switch|touch|bother|make|send|add|move|upgrade|downgrade)\b"
    r"|\b(?:don'?t|do not) want (?:to|that|this|it)\b|\bnot (?:now|yet|today|right now)\b"
    r"|\b(?:leave|keep) (?:it|them|that|this|things|everything)\b|\bleave (?:it|them) (?:as|be|alone)\b"
    r"|\b(?:hold off|stop|never ?mind|forget (?:it|that|about it)|scratch that|on second thought|"
    r"changed? my mind|i'?d rather (?:not|keep|leave|wait|hold)|rather not|i'?ll pass|"
    r"not so fast|cancel that request|don'?t do (?:it|that|this))\b"
    r"|\b(?:no|nope),? (?:thanks|thank you|leave|keep|don'?t|not|wait)\b|\babsolutely not\b|\bi decline\b"
)
# Hesitations: a refusal said as a statement ("Hold on, let me think about it."), none before a question ("Wait,
# will I get all my money back?").
_HESITATION = re.compile(r"\b(?:hold on|wait|let me (?:think|check|decide)|i need (?:to think|more time|time))\b")
_CONDITION = re.compile(
    r"\b(?:only if|as long as|provided (?:that)?|on condition|assuming|if and only if|unless|"
    r"if (?:it|that|this|the|there|you|i|my)\b)"
)
# Refusals that name the change itself: they withdraw consent whatever question they answer.
_RETRACTION = re.compile(
    r"\b(?:leave|keep) (?:it|them|that|this|things|everything)\b|\bchanged? my mind\b|\bon second thought\b"
    r"|\b(?:don'?t|do not) (?:do|go ahead|proceed|cancel|return|exchange|change|update|book|modify|switch|send|"
    r"add|move|upgrade|downgrade)\b|\bnever ?mind\b|\bscratch that\b|\bforget (?:it|that|about it)\b"
    r"|\bi'?d rather (?:not|keep|leave|wait|hold)\b|\b(?:hold|wait)\b.{0,30}\b(?:no|not|don'?t)\b"
)
_EXPLICIT = re.compile(
    r"\b(?:yes|yeah|yep|yup|go ahead|go for it|go on|carry on|do it|do that|do so|do both|please do|proceed|"
    r"make it happen|be my guest|confirm(?:ed)?|ok|okay|"
    r"sure|absolutely|agreed|i agree|make the change|please (?:cancel|return|exchange|change|update|book|modify|"
    r"switch|proceed|send|add))\b"
)
_CLAUSES = re.compile(r"[.!;\n]+|\?+|,?\s+\b(?:but|however|although|though)\b\s*|\s[-–—]+\s")


def normalize(text: str) -> str:
    """Lower case, straight quotes, idioms replaced by what they mean."""
    lowered = text.lower().replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    for pattern, meaning in _IDIOMS:
        lowered = re.sub(pattern, meaning, lowered)
    return lowered


@lru_cache(maxsize=8192)
def decide(text: str) -> Decision:
    """The decision a user turn states about the change it answers (see the module docstring)."""
    lowered = normalize(text)
    decision: Decision = "none"
    asked = False
    for match in _clauses(lowered):
        clause, questioned = match
        clause = clause.strip(" ,'\"()")
        if not clause:
            continue
        said = _clause_decision(clause, questioned)
        if said in DECIDING:
            decision = said
        asked = asked or questioned
    if decision == "none" and asked:
        return "question"
    return decision


def explicit(text: str) -> bool:
    """A consent with a word that can only be one ("yes", "go ahead", "do it", "OK"), not a mere "great, thanks":
    what a proposal the agent did not ask about needs (an announcement answered with thanks is no consent)."""
    return decide(text) == "consent" and bool(_EXPLICIT.search(normalize(text)))


def retracts(text: str) -> bool:
    """A refusal that names the change itself ("leave it", "don't cancel it", "I changed my mind")."""
    return decide(text) == "refusal" and bool(_RETRACTION.search(normalize(text)))


def _clauses(text: str) -> list[tuple[str, bool]]:
    """The clauses of a turn, each with whether a question mark ended it."""
    found: list[tuple[str, bool]] = []
    start = 0
    for separator in _CLAUSES.finditer(text):
        found.append((text[start : separator.start()], "?" in separator.group(0)))
        start = separator.end()
    found.append((text[start:], False))
    return found


def _clause_decision(clause: str, questioned: bool) -> Decision:
    if _REFUSAL.search(clause) or (_HESITATION.search(clause) and not questioned):
        return "refusal"
    if _CONSENT.search(clause):
        return "condition" if _CONDITION.search(clause) else "consent"
    return "condition" if _CONDITION.search(clause) and clause.startswith(("only", "as long")) else "none"
