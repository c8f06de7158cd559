"""How a simulated user talks: traits (``scenario["traits"]``) and the scripted user's wording for each.

Traits, each one of a few values (a scenario without traits, or with some missing, gets the defaults, which
say exactly what the scripted user said before traits existed):

- ``patience``: patient | hurried | irritable (hurried and irritable users say so, and press in their answers);
- ``verbosity``: terse | normal | chatty (terse users answer in fewer words, chatty ones add small talk);
- ``register``: formal | casual | plain ("Good morning." / "Hey there!" / "Hi!");
- ``details``: exact | approximate | one_at_a_time (how ids and details are given: as they are; hedged, "I
  believe my email is ..." (the value itself still exact); one per turn even when several are asked for);
- ``tech``: savvy | average | novice (a novice says they are not used to online services).

Every phrasing keeps each known value verbatim (the agent's calls and the verifier match values), and what a
phrasing decides, read by its words (verifiers/decisions.py), is the decision recorded beside it: answers and
thanks decide nothing, a yes is a consent, a change of mind a refusal.
"""

from __future__ import annotations

import re
from typing import Any

TRAITS: dict[str, tuple[str, ...]] = {
    "patience": ("patient", "hurried", "irritable"),
    "verbosity": ("terse", "normal", "chatty"),
    "register": ("formal", "casual", "plain"),
    "details": ("exact", "approximate", "one_at_a_time"),
    "tech": ("savvy", "average", "novice"),
}
DEFAULTS = {"patience": "patient", "verbosity": "normal", "register": "plain", "details": "exact", "tech": "average"}
# How a persona sentence names each trait value (the defaults say nothing).
_DESCRIBED = {
    "hurried": "in a hurry",
    "irritable": "easily irritated",
    "terse": "brief, answering in as few words as possible",
    "chatty": "chatty, adding small talk",
    "formal": "formal in tone",
    "casual": "casual in tone",
    "approximate": "unsure of ids and details, hedging when giving them",
    "one_at_a_time": "giving one detail per message, even when asked for several",
    "savvy": "at ease with online services",
    "novice": "not used to online services",
}
_GREETING = {"plain": "Hi!", "formal": "Good morning.", "casual": "Hey there!"}
_MOOD = {"hurried": "I am in a hurry today.", "irritable": "I have been putting this off for too long."}
_PRESS = {"hurried": "Quickly, please.", "irritable": "This is taking a while."}
_TECH = {"novice": "I am not very used to doing this online.", "savvy": "I had a look at my account page already."}
_SMALL_TALK = "I hope your day is going well."
# Chatty asides, one per answer in turn.
_ASIDES = (
    "I keep all of this written down in a notebook.",
    "It is a lovely day here, by the way.",
    "My nephew set up this account for me.",
)
_YES = {
    ("plain", False): "Yes, please go ahead.",
    ("plain", True): "Yes, go ahead.",
    ("formal", False): "Yes, please proceed with it.",
    ("formal", True): "Yes, proceed.",
    ("casual", False): "Yep, go for it!",
    ("casual", True): "Yep, do it.",
}
_THANKS = {
    ("plain", False): "Thank you, that is all I needed.",
    ("plain", True): "Thanks.",
    ("formal", False): "Thank you very much for your help; that is all I needed.",
    ("formal", True): "Thank you.",
    ("casual", False): "Thanks a lot, that's all I needed!",
    ("casual", True): "Thanks!",
}
_WANT = re.compile(r"^I want to\b")


def traits_of(scenario: dict[str, Any]) -> dict[str, str]:
    """The scenario's traits over the defaults; an unknown value counts as the default."""
    given = scenario.get("traits") if isinstance(scenario.get("traits"), dict) else {}
    return {name: given.get(name) if given.get(name) in TRAITS[name] else DEFAULTS[name] for name in TRAITS}


def describe(traits: dict[str, str]) -> str:
    """'in a hurry, formal in tone and not used to online services' (the defaults: 'polite and patient')."""
    parts = [_DESCRIBED[value] for value in traits.values() if value in _DESCRIBED]
    if not parts:
        return "polite and patient"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


class Voice:
    """The scripted user's phrasings for one set of traits (deterministic: no randomness)."""

    def __init__(self, scenario: dict[str, Any]):
        self.traits = traits_of(scenario)
        self.register = self.traits["register"]
        self.terse = self.traits["verbosity"] == "terse"

    def opening(self, body: str) -> str:
        """The first message: a greeting, the request (``body``, in the first person), how the user feels."""
        if self.register == "formal":
            body = _WANT.sub("I would like to", body)
        extras = [] if self.terse else [_MOOD.get(self.traits["patience"]), _TECH.get(self.traits["tech"])]
        if self.traits["verbosity"] == "chatty":
            extras.append(_SMALL_TALK)
        return " ".join(part for part in [_GREETING[self.register], body, *extras] if part)

    def answer(self, slots: list[tuple[str, str]], answered: int = 0) -> str:
        """The values of ``slots`` ((spoken slot name, value text) pairs), each verbatim; ``answered``: how many
        answers came before (a chatty user's aside changes with it)."""
        if self.terse:
            said = [f"{name[:1].upper()}{name[1:]}: {value}." for name, value in slots]
        elif self.traits["details"] == "approximate":  # unsure of ids and details, never of their own name
            said = [f"{'My' if 'name' in name else 'I believe my'} {name} is {value}." for name, value in slots]
        else:
            said = [f"My {name} is {value}." for name, value in slots]
        if self.register == "casual" and not self.terse:
            said[0] = f"Oh, {said[0] if said[0].startswith('I ') else said[0][:1].lower() + said[0][1:]}"
        if self.traits["verbosity"] == "chatty":
            said.append(_ASIDES[answered % len(_ASIDES)])
        press = _PRESS.get(self.traits["patience"])
        return " ".join([*said, press] if press else said)

    def one_at_a_time(self) -> bool:
        return self.traits["details"] == "one_at_a_time"

    def nothing_more(self) -> str:
        if self.terse:
            return "That is all I know."
        return {
            "formal": "I am afraid I have told you everything I know.",
            "casual": "That's all I've got, sorry.",
        }.get(self.register, "I have told you everything I know.")

    def yes(self) -> str:
        return _YES[(self.register, self.terse)]

    def thanks(self) -> str:
        return _THANKS[(self.register, self.terse)]

    def insist(self) -> str:
        """Pushing back once on a refusal: asks the agent to look again (decides nothing about a change)."""
        if self.traits["patience"] == "irritable":
            return "Really? I was sure that would be possible. Could you check again?"
        if self.terse:
            return "Are you sure? Could you check again?"
        return "Are you sure? It matters a lot to me. Could you please check again?"

    def accept(self) -> str:
        """Accepting a refusal said twice, and ending."""
        return "I see. Thank you for checking." if not self.terse else "I see. Thanks."

    def choose(self, option: str) -> str:
        """Naming the option chosen among those the agent listed."""
        if self.terse:
            return f"The {option}."
        if self.register == "formal":
            return f"I would like the {option}, please."
        return f"I will go with the {option}!" if self.register == "casual" else f"I'll take the {option}."

    def change(self, request: str, declines: bool) -> str:
        """A change of mind: the new request (first person, 'I want to ...'); ``declines``: it answers a request
        to confirm the first one, which it turns down first."""
        apology = "I apologise, I have changed my mind" if self.register == "formal" else "Sorry, I changed my mind"
        body = request if request.endswith(".") else f"{request}."
        if self.register == "formal":
            body = _WANT.sub("I would like to", body)
        text = f"{apology}. Instead, {body}"
        return f"No, please don't do that. {text}" if declines else text
