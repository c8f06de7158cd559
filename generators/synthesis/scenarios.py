"""User scenarios: {persona, reason, known_info, unknown_info, instructions, traits, behaviours} for the simulated user.

Templates by default (no model): traits drawn one by one (generators/rollouts/persona.py: patience, verbosity,
register, how details are given, tech familiarity) and described in the persona sentence; the reason is the
goals' requests and, for most tasks, a motive and a preference (motives.py); the behaviours are the draft's
(behaviours.py), also written as instructions. With a scenario writer, an LLM writes the
persona, the reason for contacting support and the behaviour instructions as
structured output (a JSON schema the backend enforces where it can, else
asked for in the prompt and checked here, with one retry that shows the model
its bad answer: schemas.structured_output). known_info and unknown_info always
come from the draft: ids and descriptions that must resolve exactly are never
left to a model. Output that does not parse or fit the schema is a reason code
(``scenario_writer:<why>``): the template is used instead, or the sample is
rejected, as the config says.
"""

from __future__ import annotations

import random
from typing import Any

import orjson

from generators.llm.interface import ChatRequest, GenerationError, SamplingParams
from generators.rollouts.persona import TRAITS, describe
from generators.synthesis.behaviours import rules as behaviour_rules
from generators.synthesis.config import ScenarioOptions
from generators.synthesis.drafts import TaskDraft
from generators.synthesis.motives import motive_sentences
from generators.synthesis.stats import SynthStats
from schemas.structured_output import StructuredOutput, generate_structured

WRITER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "persona": {"type": "string", "minLength": 3, "maxLength": 400},
        "reason": {"type": "string", "minLength": 3, "maxLength": 800},
        "instructions": {"type": "array", "items": {"type": "string", "minLength": 3}, "minItems": 1, "maxItems": 6},
    },
    "required": ["persona", "reason", "instructions"],
    "additionalProperties": False,
}
# How a scenario's reason sets the requests (phrasings.py), in the requests' sentence (a frame standing alone
# would repeat across tasks); the scripted user's first_person drops a leading "you ... support because|:|.|, as"
# and turns the rest into the first person.
FRAMES = (
    "You contact {domain} customer support because {requests}.",
    "You have opened a chat with {domain} customer support because {requests}.",
    "You are contacting {domain} customer support: {requests}.",
    "You get in touch with the {domain} support team, as {requests}.",
    "You write to {domain} customer support: {requests}.",
    "{Requests}; that is why you are contacting {domain} customer support.",
    "{Requests}, and you hope {domain} customer support can sort it out.",
)
JOINS = ("; and ", ". Also, ", ". Besides that, ", ". On top of that, ", "; after that, ")
# Shown to models whose output the backend cannot constrain to the schema.
_SKELETON = '{"persona": "...", "reason": "You want to ...", "instructions": ["...", "..."]}'


def _blank_fields(data: dict[str, Any]) -> str | None:
    blank = [key for key in ("persona", "reason") if not data[key].strip()]
    return f"{', '.join(blank)} must not be blank" if blank else None


WRITTEN = StructuredOutput(WRITER_SCHEMA, check=_blank_fields)


def known_info(draft: TaskDraft) -> dict[str, str]:
    """Identity slots, then each goal's slots; a slot name repeated by a later goal gets a suffix (order_2)."""
    slots = dict(draft.identity.known_info)
    for goal in draft.goals:
        for slot, value in goal.known_info.items():
            name, n = slot, 2
            while name in slots:
                name, n = f"{slot}_{n}", n + 1
            slots[name] = value
    return slots


def behaviour(draft: TaskDraft) -> list[str]:
    outcomes = {goal.outcome for goal in draft.goals}
    rules = [
        "Reveal information only when the agent asks for it, one detail at a time.",
        "You do not know ids or amounts beyond your known information; say so if asked.",
    ]
    if len(draft.goals) > 1:
        rules.append("Bring up your requests one at a time, in the order given.")
    if "write" in outcomes:
        rules.append("When the agent describes exactly the change you asked for and asks to confirm, say yes.")
    if "refusal" in outcomes and not any(b.get("kind") == "insist_once" for b in draft.behaviours):
        rules.append("Ask exactly for what is described; if the agent says it is not allowed, accept it and move on.")
    rules += behaviour_rules(draft.behaviours)
    if "read" in outcomes:
        rules.append("Make sure the agent tells you the information you asked for.")
    rules.append("End the conversation once your requests are handled.")
    return rules


def reason_text(draft: TaskDraft, rng: random.Random) -> str:
    """The goals' requests (clauses in the second person), joined and set in a frame, each drawn with ``rng``."""
    text = draft.goals[0].request
    for goal in draft.goals[1:]:
        text += rng.choice(JOINS) + goal.request
    # "because" and "as" want a clause with its subject first ("because you want ..."), not "because since you ...".
    subject_first = ("because {requests}", "as {requests}")
    frames = FRAMES if text.startswith("you ") else [f for f in FRAMES if not any(c in f for c in subject_first)]
    return rng.choice(frames).format(domain=draft.domain, requests=text, Requests=text[:1].upper() + text[1:])


def template_scenario(draft: TaskDraft, rng: random.Random) -> dict[str, Any]:
    traits = {name: rng.choice(values) for name, values in TRAITS.items()}
    reason = " ".join([reason_text(draft, rng), *motive_sentences(draft.goals, rng)])
    return {
        "persona": f"{draft.identity.name}, a customer who is {describe(traits)}.",
        "reason": reason,
        "known_info": known_info(draft),
        "unknown_info": list(dict.fromkeys(info for goal in draft.goals for info in goal.unknown_info)),
        "instructions": behaviour(draft),
        "traits": traits,
        "behaviours": [dict(b) for b in draft.behaviours],
    }


def writer_request(draft: TaskDraft, template: dict[str, Any], schema_enforced: bool) -> ChatRequest:
    system = (
        f"You write scenarios for a simulated customer who contacts {draft.domain} customer support. "
        "Reply with one JSON object with the keys persona (one sentence: who they are and how they talk), "
        "reason (in the second person: what they want and why) and instructions (2 to 4 short rules for "
        "playing this customer)."
    )
    user = (
        f"The customer is {draft.identity.name}, {describe(template['traits'])}. What they want, in the second person: "
        + "; ".join(goal.request for goal in draft.goals)
        + f". They know: {orjson.dumps(template['known_info']).decode()}. "
        + f"They do not know: {', '.join(template['unknown_info']) or 'nothing relevant'}."
        + ("" if schema_enforced else f" Answer with the JSON object only, in this form: {_SKELETON}")
    )
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return ChatRequest(messages=messages, json_schema=WRITER_SCHEMA if schema_enforced else None)


def parse_written(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """(the written fields, None) or (None, reason code)."""
    parsed = WRITTEN.parse(text)
    return (parsed.value, None) if parsed.ok else (None, f"scenario_writer:{parsed.reason}")


class ScenarioWriter:
    """An LLM behind a CachedGenerator (results cached by content, so a rerun resumes)."""

    name, version = "llm_scenario_writer", "1"

    def __init__(self, generator, max_tokens: int = 200):
        self.generator = generator
        self.params = SamplingParams(max_tokens=max_tokens)

    def write(self, drafts: list[TaskDraft], templates: list[dict]) -> list[tuple[dict | None, str | None]]:
        """One batch call (and one retry batch for the answers that fail); for each draft, (the scenario, None)
        or (None, reason code)."""
        enforced = self.generator.capabilities.supports_json_schema
        requests = [writer_request(d, t, enforced) for d, t in zip(drafts, templates)]
        try:
            answers = generate_structured(self.generator, requests, self.params, WRITTEN)
        except (GenerationError, ValueError):
            return [(None, "scenario_writer:backend_error")] * len(drafts)
        written: list[tuple[dict | None, str | None]] = []
        for answer, template in zip(answers, templates):
            if not answer.ok:
                written.append((None, f"scenario_writer:{answer.reason}"))
                continue
            # The model's rules first; the template's keep the simulated user playable (confirm, one detail at a time).
            rules = list(dict.fromkeys([*answer.value["instructions"], *template["instructions"]]))
            written.append(({**template, **answer.value, "instructions": rules}, None))
        return written


def write_scenarios(
    drafts: list[TaskDraft], rngs: list[random.Random], options: ScenarioOptions, stats: SynthStats
) -> tuple[list[tuple[dict | None, str]], dict | None]:
    """(scenario, "template" | "llm") per draft (None: rejected, counted in ``stats``), and the writer's
    identity (None: templates only)."""
    templates = [template_scenario(draft, rng) for draft, rng in zip(drafts, rngs)]
    backend = options.writer_backend()
    if backend is None or not drafts:
        return [(template, "template") for template in templates], None
    generator = backend.make_generator()
    try:
        written = ScenarioWriter(generator, options.writer_max_tokens).write(drafts, templates)
        identity = {"backend": backend.backend_name(), **generator.model_id}
    finally:
        generator.close()
    return apply_written(templates, written, options.writer_fallback, stats), identity


def apply_written(
    templates: list[dict], written: list[tuple[dict | None, str | None]], fallback: str, stats: SynthStats
) -> list[tuple[dict | None, str]]:
    """The written scenario, or on a reason code the template (counted as a fallback) or None (counted as a reject)."""
    scenarios: list[tuple[dict | None, str]] = []
    for template, (scenario, problem) in zip(templates, written):
        if scenario is not None:
            scenarios.append((scenario, "llm"))
        elif fallback == "template":
            stats.scenario_fallbacks[problem] += 1
            scenarios.append((template, "template"))
        else:
            stats.reject(problem)
            scenarios.append((None, "rejected"))
    return scenarios
