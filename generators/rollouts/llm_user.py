"""The LLM user simulator: a model given the scenario plays the customer, one message per turn.

Its system prompt holds the persona, how it talks (the scenario's traits,
generators/rollouts/persona.py), the reason for contacting support, what it
knows (to be given only when asked), what it does not know, and the behaviour
instructions (the scenario's behaviours among them, as the synthesizer wrote them). It sees the agent's messages (never the tool calls) as the other
side of the chat, after the agent's fixed greeting. It ends the conversation
with a stop marker: ``###STOP###`` (done), ``###TRANSFER###`` (handed to a
human), ``###OUT-OF-SCOPE###`` (the agent cannot help with this). The marker is
cut from the recorded text; a reply that is empty without one ends the rollout
with ``empty_reply``. Asked to confirm a change, it ends its answer with ``[[yes]]`` or ``[[no]]``: cut from the
text and recorded beside the turn as its decision (consent or refusal); a turn without one records none, and the
verifier reads its words.
"""

from __future__ import annotations

import re

from generators.rollouts.actors import UserSimulator, model_turn_error
from generators.rollouts.conversation import Conversation, UserTurn
from generators.rollouts.persona import describe, traits_of
from generators.rollouts.scenario import slot_text
from schemas.generation import ChatRequest, GenerationResult
from schemas.steps import MessageAction, TextObservation

GREETING = "Hi! How can I help you today?"
STOP_MARKERS = {"###STOP###": "done", "###TRANSFER###": "transfer", "###OUT-OF-SCOPE###": "out_of_scope"}
# The user's decision on a change the agent asks it to confirm, said as a marker the turn ends with.
DECISION_MARKERS = re.compile(r"\[\[\s*(yes|no)\s*\]\]", re.IGNORECASE)


def system_prompt(conv: Conversation) -> str:
    scenario = conv.context.scenario
    env = conv.context.task.environment.name or "the company's"
    known = "\n".join(f"- {slot}: {slot_text(value)}" for slot, value in scenario["known_info"].items())
    unknown = "\n".join(f"- {item}" for item in scenario.get("unknown_info", [])) or "- (nothing listed)"
    rules = "\n".join(f"- {item}" for item in scenario.get("instructions", []))
    persona, manner = scenario.get("persona", "a customer"), describe(traits_of(scenario))
    manner = "" if manner in persona else f"{manner}; "  # a template persona already says it
    return (
        f"You are a customer writing to {env} customer support. Write only what the customer says: "
        "one short message per turn, in your own words, never as the agent.\n\n"
        f"Who you are: {persona}\n"
        f"How you talk: {manner}keep every id, name and detail you give exactly as listed.\n"
        f"Why you are writing: {scenario['reason']}\n\n"
        f"What you know (give a piece only when the agent asks for it):\n{known}\n\n"
        f"What you do not know:\n{unknown}\n\n"
        f"How you behave:\n{rules}\n\n"
        "When the agent asks you to confirm a change, answer in your own words and end your message with [[yes]] if "
        "you agree to exactly that change or [[no]] if you do not.\n"
        "When your request is fully handled, reply with ###STOP###. If the agent transfers you to a human agent, "
        "reply with ###TRANSFER###. If the agent cannot help with your request at all, reply with ###OUT-OF-SCOPE###."
    )


class LlmUser(UserSimulator):
    name = "llm"
    version = "1"
    uses_model = True

    def request(self, conv: Conversation) -> ChatRequest:
        messages = [{"role": "system", "content": system_prompt(conv)}, {"role": "user", "content": GREETING}]
        for step in conv.steps:  # the simulator is the "assistant" of its own chat; the agent is its "user"
            if isinstance(step, TextObservation) and step.source == "user":
                messages.append({"role": "assistant", "content": step.content})
            elif isinstance(step, MessageAction):
                messages.append({"role": "user", "content": step.content})
        return ChatRequest(messages=messages, sampling=conv.sampling)

    def act(self, conv: Conversation, result: GenerationResult | None) -> UserTurn:
        error = model_turn_error(result)
        if error:
            return UserTurn(error=error, tokens=result.tokens_out)
        text, stop = result.completions[0].text, None
        for marker, reason in STOP_MARKERS.items():
            if marker in text:
                stop = stop or reason
                text = text.replace(marker, "")
        said = DECISION_MARKERS.findall(text)
        decision = ({"yes": "consent", "no": "refusal"}[said[-1].lower()]) if said else None
        text = DECISION_MARKERS.sub("", text).strip()
        if not text and stop is None:
            return UserTurn(error="empty_reply", tokens=result.tokens_out)
        return UserTurn(text=text, stop=stop, tokens=result.tokens_out, decision=decision)
