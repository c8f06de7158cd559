"""The user scenario of q (persona, reason, known info, unknown info, behaviour instructions), as simulators read it.

Shape (the task contract): ``{"persona": str, "reason": str, "known_info": {slot: value},
"unknown_info": [str], "instructions": [str], "traits": {trait: value}, "behaviours": [{"kind": str, ...}]}``;
``reason`` and ``known_info`` are required, the others optional. Slot values may be strings, numbers, lists or
small mappings. Traits say how the user talks (generators/rollouts/persona.py); behaviours what it does beyond
answering (generators/synthesis/behaviours.py).

Leakage: a simulated user should reveal its known information piece by piece, when asked.
A single user turn that states every known value at once (with at least two of them), when the
agent had not asked for all of them, is flagged: the agent then never has to ask.
"""

from __future__ import annotations

import re
from typing import Any

MIN_SLOTS_FOR_LEAKAGE = 2
_WORD = re.compile(r"[a-z0-9]+")


def scenario_problem(scenario: Any) -> str | None:
    """Why a scenario is unusable (None when it has the contract's shape)."""
    if not isinstance(scenario, dict):
        return f"user_scenario is {type(scenario).__name__}, expected an object"
    if not isinstance(scenario.get("reason"), str) or not scenario["reason"].strip():
        return "user_scenario.reason must be a non-empty string"
    if not isinstance(scenario.get("known_info"), dict):
        return "user_scenario.known_info must be an object of slot: value"
    for key in ("unknown_info", "instructions"):
        value = scenario.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            return f"user_scenario.{key} must be a list of strings"
    if "persona" in scenario and not isinstance(scenario["persona"], str):
        return "user_scenario.persona must be a string"
    traits = scenario.get("traits", {})
    if not isinstance(traits, dict) or not all(isinstance(value, str) for value in traits.values()):
        return "user_scenario.traits must be an object of trait: value"
    behaviours = scenario.get("behaviours", [])
    if not isinstance(behaviours, list) or not all(
        isinstance(b, dict) and isinstance(b.get("kind"), str) for b in behaviours
    ):
        return "user_scenario.behaviours must be a list of objects with a kind"
    return None


def slot_text(value: Any) -> str:
    """A slot value as a user would say it."""
    if isinstance(value, dict):
        return ", ".join(f"{key} {slot_text(item)}" for key, item in value.items())
    if isinstance(value, list):
        return ", ".join(slot_text(item) for item in value)
    return str(value)


def scalar_values(value: Any) -> list[str]:
    """Every scalar inside a slot value, as text."""
    if isinstance(value, dict):
        return [text for item in value.values() for text in scalar_values(item)]
    if isinstance(value, list):
        return [text for item in value for text in scalar_values(item)]
    return [str(value)] if str(value).strip() else []


def leaks_everything(text: str, scenario: dict[str, Any], question: str | None = None) -> bool:
    """Whether one user turn states every known value of the scenario unprompted (see the module docstring).

    ``question``: the agent's message the turn answers; a turn that answers a question naming every slot
    ("your first name, last name and zip?") is an answer, not a leak.
    """
    known = scenario.get("known_info") if isinstance(scenario, dict) else None
    if not isinstance(known, dict) or len(known) < MIN_SLOTS_FOR_LEAKAGE:
        return False
    lowered = text.lower()
    values = [v.lower() for value in known.values() for v in scalar_values(value)]
    if not values or not all(v in lowered for v in values):
        return False
    asked = words(question or "")
    return not all(slot_words(slot) & asked for slot in known)


def words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def slot_words(slot: str) -> set[str]:
    """The words a question about this slot would use: 'first_name' -> {'first', 'name'}."""
    return {word for word in words(slot.replace("_", " ")) if len(word) > 2 and not word.isdigit()}


def withheld(text: str, behaviours: list[dict[str, Any]]) -> str:
    """``text`` without what a ``choose_option`` user chooses later: "the Lamp with color red" becomes "another
    Lamp" (the request names no option until the agent lists them)."""
    for behaviour in behaviours:
        if behaviour.get("kind") == "choose_option":
            text = text.replace(f"the {behaviour['choice']}", behaviour["instead"])
    return text


def behaviour_of(scenario: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """The scenario's behaviour of this kind (``scenario["behaviours"]``), or None."""
    behaviours = scenario.get("behaviours") if isinstance(scenario, dict) else None
    if not isinstance(behaviours, list):
        return None
    return next((b for b in behaviours if isinstance(b, dict) and b.get("kind") == kind), None)
