"""The scripted user simulator: deterministic, no model; answers the agent from the scenario, slot by slot.

- It opens with the scenario's reason, turned into the first person ("You want to return ..."
  becomes "Hi! I want to return ..."), in the words of its traits (generators/rollouts/persona.py:
  "Good morning. I would like to return ...").
- When the agent asks for confirmation (confirm, proceed, yes/no, ...) it says yes, and records the decision
  (consent) beside the turn; its other answers record that they decide nothing.
- When the agent asks a question, it gives the known-info slots the question names (by the slot
  name's words: "first_name" answers "your first name?"), else the next slot not given yet, else
  says it has told everything; a user who gives details one at a time gives the first of them only.
- When the agent hands it to a human (a successful transfer call or the transfer notice) it stops
  with ``transfer``; when the agent says something that is not a question, it thanks and stops
  with ``done``.

Behaviours (``scenario["behaviours"]``, generators/synthesis/behaviours.py), each followed once:

- ``insist_once``: the first agent message that refuses gets a push back ("Are you sure? ... check again?",
  decision ``insist``); the next message that is not a question is accepted and ends the conversation;
- ``change_mind``: the opening asks for ``first_request`` in place of ``request``; the next turn says the user
  changed their mind and asks for ``request`` (decision ``change_request``), declining first when it answers a
  request to confirm, and answering the agent's question when it asked one;
- ``choose_option``: the first agent message that names ``choice`` (or its id, ``value``) among the options it
  lists gets the user's pick (decision ``choose``); one that proposes the choice for confirmation gets a yes.

The same conversation always gets the same answers: the default simulator for tests and CPU runs.
"""

from __future__ import annotations

import re
from typing import Any

from generators.rollouts.actors import UserSimulator
from generators.rollouts.conversation import Conversation, UserTurn
from generators.rollouts.oracle import TRANSFER_TOOL, humanize
from generators.rollouts.persona import Voice
from generators.rollouts.scenario import behaviour_of, slot_text, slot_words, words
from schemas.generation import GenerationResult

CONFIRMATION = re.compile(
    r"\b(confirm|proceed|go ahead|shall i|should i|do you want me|would you like me|is that correct|yes/no|yes or no)\b"
)
# An agent message that turns the request down.
REFUSES = re.compile(
    r"\b(?:cannot|can ?not|can't|unable to|not (?:able|allowed|possible|permitted|eligible)|"
    r"(?:does|do) not (?:allow|permit)|doesn't (?:allow|permit)|won't be able|only [^.?!]*\bcan be)\b"
)
# A leading "you contact/write to/are contacting ... support" clause up to "because", ", as", ":" or ".": telling the
# agent you contact support says nothing.
_FRAME = re.compile(r"^\s*you\b[^.:;]*?\bsupport\b[^.:;]*?(?:\bbecause\b|, as\b|[:.](?=\s))\s*", re.IGNORECASE)
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
_SENTENCE_START = re.compile(r"([.!?]\s+)([a-z])")
YES = Voice({}).yes()  # the default user's yes (gold trajectories use it)


def _first_person_word(match: re.Match) -> str:
    word = _PERSON[match.group(1).lower()]
    return word[:1].upper() + word[1:] if match.group(1)[0].isupper() else word


def first_person_body(reason: str) -> str:
    """'You contact support because you want to X.' -> 'I want to X.'; 'You want X; that is why you are
    contacting support.' -> 'I want X; that is why I am contacting support.'"""
    text = reason.strip()
    frame = _FRAME.match(text)
    if frame and text[frame.end() :].strip():
        text = text[frame.end() :]
    return in_first_person(text)


def in_first_person(text: str) -> str:
    """'You want to X. your card ...' -> 'I want to X. My card ...'"""
    text = _PRONOUN.sub(_first_person_word, text)
    text = _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), text[:1].upper() + text[1:])
    return text if text.endswith((".", "!", "?")) else f"{text}."


def first_person(reason: str) -> str:
    """'You contact support because you want to X.' -> 'Hi! I want to X.'"""
    return f"Hi! {first_person_body(reason)}"


def sentence(clause: str) -> str:
    """A request (a clause in the second person: "you want to ...") as a sentence of its own."""
    return f"{clause[:1].upper()}{clause[1:]}."


def capitalised_or_not(change: dict[str, Any]) -> list[tuple[str, str]]:
    """(request, first request) of a change of mind, as written and with their first letters capitalised."""
    request, first = change.get("request", ""), change.get("first_request", "")
    return [(request, first), (request[:1].upper() + request[1:], first[:1].upper() + first[1:])]


def names_choice(lowered: str, choice: dict[str, Any]) -> bool:
    """Whether an agent message (lower case) names the option the user chooses, by description or by id."""
    return str(choice.get("choice", "")).lower() in lowered or str(choice.get("value", "")).lower() in lowered


def opening(scenario: dict[str, Any]) -> str:
    """The user's first message: the reason (with a change of mind's first request in place of the real one), in
    the first person and the words of the user's traits."""
    reason = scenario["reason"]
    change = behaviour_of(scenario, "change_mind")
    said = [(said, first) for said, first in capitalised_or_not(change) if said in reason] if change else []
    if said:  # as the reason says it (a frame may start its sentence with the request)
        reason = reason.replace(*said[0], 1)
    elif change:  # a reason in other words (a scenario writer's): the first request alone
        reason = sentence(change["first_request"])
    return Voice(scenario).opening(first_person_body(reason))


class ScriptedUser(UserSimulator):
    name = "scripted"
    version = "2"

    def act(self, conv: Conversation, result: GenerationResult | None) -> UserTurn:
        scenario, state = conv.context.scenario, conv.user_state
        if not state.get("opened"):
            state["opened"] = True
            return UserTurn(text=opening(scenario), decision="none")
        voice = Voice(scenario)
        message = conv.last_agent_message() or ""
        lowered = message.lower()
        if conv.called(TRANSFER_TOOL) or "transferred to a human" in lowered:
            return UserTurn(stop="transfer")
        asks = "?" in message
        change = behaviour_of(scenario, "change_mind")
        if change and not state.get("changed"):
            state["changed"] = True
            confirming = asks and bool(CONFIRMATION.search(lowered))
            text = voice.change(in_first_person(sentence(change["request"])), declines=confirming)
            if asks and not confirming:
                text = f"{text} {self._answer(scenario, voice, state, words(message))}"
            return UserTurn(text=text, decision="change_request")
        choice = behaviour_of(scenario, "choose_option")
        if choice and not state.get("chose") and names_choice(lowered, choice):
            state["chose"] = True
            if not (asks and CONFIRMATION.search(lowered)):
                return UserTurn(text=voice.choose(choice["choice"]), decision="choose")
        if behaviour_of(scenario, "insist_once") and not state.get("insisted") and REFUSES.search(lowered):
            state["insisted"] = True
            return UserTurn(text=voice.insist(), decision="insist")
        if not asks:
            return UserTurn(
                text=voice.accept() if state.get("insisted") else voice.thanks(), stop="done", decision="none"
            )
        if CONFIRMATION.search(lowered):
            return UserTurn(text=voice.yes(), decision="consent")
        return UserTurn(text=self._answer(scenario, voice, state, words(message)), decision="none")

    @staticmethod
    def _answer(scenario: dict[str, Any], voice: Voice, state: dict[str, Any], asked_words: set[str]) -> str:
        known, revealed = scenario["known_info"], state.setdefault("revealed", [])
        slots = [slot for slot in known if slot not in revealed and slot_words(slot) & asked_words]
        if not slots:
            slots = [slot for slot in known if slot not in revealed][:1]
        if not slots:
            return voice.nothing_more()
        if voice.one_at_a_time():
            slots = slots[:1]
        state["answers"] = state.get("answers", 0) + 1
        revealed.extend(slots)
        return voice.answer([(humanize(slot), slot_text(known[slot])) for slot in slots], state["answers"] - 1)
