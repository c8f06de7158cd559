"""The scripted user simulator: deterministic, no model; answers the agent from the scenario, slot by slot.

- It opens with the scenario's reason, turned into the first person ("You want to return ..."
  becomes "Hi! I want to return ...").
- When the agent asks for confirmation (confirm, proceed, yes/no, ...) it says yes, and records the decision
  (consent) beside the turn; its other answers record that they decide nothing.
- When the agent asks a question, it gives the known-info slots the question names (by the slot
  name's words: "first_name" answers "your first name?"), else the next slot not given yet, else
  says it has told everything.
- When the agent hands it to a human (a successful transfer call or the transfer notice) it stops
  with ``transfer``; when the agent says something that is not a question, it thanks and stops
  with ``done``.

The same conversation always gets the same answers: the default simulator for tests and CPU runs.
"""

from __future__ import annotations

import re

from generators.rollouts.actors import UserSimulator
from generators.rollouts.conversation import Conversation, UserTurn
from generators.rollouts.oracle import TRANSFER_TOOL, humanize
from generators.rollouts.scenario import slot_text, slot_words, words
from schemas.generation import GenerationResult

CONFIRMATION = re.compile(
    r"\b(confirm|proceed|go ahead|shall i|should i|do you want me|would you like me|is that correct|yes/no|yes or no)\b"
)
# A leading "you contact/write to/are contacting ... support" clause up to "because", ":" or ".": telling the
# agent you contact support says nothing.
_FRAME = re.compile(r"^\s*you\b[^.:;]*?\bsupport\b[^.:;]*?(?:\bbecause\b|[:.](?=\s))\s*", re.IGNORECASE)
_PERSON = {
    "you": "I",
    "your": "my",
    "yours": "mine",
    "you're": "I'm",
    "yourself": "myself",
    "you are": "I am",
    "you were": "I was",
}
_PRONOUN = re.compile(r"\b(you are|you were|you're|yourself|yours|your|you)\b", re.IGNORECASE)
THANKS = "Thank you, that is all I needed."
YES = "Yes, please go ahead."
NOTHING_MORE = "I have told you everything I know."


def _first_person_word(match: re.Match) -> str:
    word = _PERSON[match.group(1).lower()]
    return word[:1].upper() + word[1:] if match.group(1)[0].isupper() else word


def first_person(reason: str) -> str:
    """'You contact support because you want to X.' -> 'Hi! I want to X.'; 'You want X; that is why you are
    contacting support.' -> 'Hi! I want X; that is why I am contacting support.'"""
    text = reason.strip()
    frame = _FRAME.match(text)
    if frame and text[frame.end() :].strip():
        text = text[frame.end() :]
    text = _PRONOUN.sub(_first_person_word, text)
    text = text[:1].upper() + text[1:]
    return f"Hi! {text}" if text.endswith((".", "!", "?")) else f"Hi! {text}."


class ScriptedUser(UserSimulator):
    name = "scripted"
    version = "1"

    def act(self, conv: Conversation, result: GenerationResult | None) -> UserTurn:
        scenario, state = conv.context.scenario, conv.user_state
        if not state.get("opened"):
            state["opened"] = True
            return UserTurn(text=first_person(scenario["reason"]), decision="none")
        message = conv.last_agent_message() or ""
        lowered = message.lower()
        if conv.called(TRANSFER_TOOL) or "transferred to a human" in lowered:
            return UserTurn(stop="transfer")
        if "?" not in message:
            return UserTurn(text=THANKS, stop="done", decision="none")
        if CONFIRMATION.search(lowered):
            return UserTurn(text=YES, decision="consent")
        answer = self._answer(scenario["known_info"], state.setdefault("revealed", []), words(message))
        return UserTurn(text=answer, decision="none")

    @staticmethod
    def _answer(known: dict, revealed: list[str], asked_words: set[str]) -> str:
        slots = [slot for slot in known if slot not in revealed and slot_words(slot) & asked_words]
        if not slots:
            slots = [slot for slot in known if slot not in revealed][:1]
        if not slots:
            return NOTHING_MORE
        revealed.extend(slots)
        return " ".join(f"My {humanize(slot)} is {slot_text(known[slot])}." for slot in slots)
