"""Which user turn of a conversation states its task (q.instruction).

The first user turn, except two kinds that come before the task in real data:

- an in-context demonstration (SWE-agent's "Here is a demonstration of how to
  correctly accomplish this task ... --- DEMONSTRATION ---" turn);
- boilerplate the agent only acknowledged (AgentInstruct's webshop and kg
  prompts, answered "OK" or "I've understood your instruction, start please."),
  when a later user turn follows it.
"""

from __future__ import annotations

import re
from typing import Any

_DEMONSTRATION = re.compile(r"\A\s*Here is a demonstration of how to|^-{2,} DEMONSTRATION -{2,}$", re.M)
_ACKNOWLEDGEMENT = re.compile(
    r"\s*(?:ok(?:ay)?|sure|got it|understood|alright|i understand|i(?:'ve| have) understood)\b", re.I
)
_ACKNOWLEDGEMENT_CHARS = 200


def is_demonstration(text: str) -> bool:
    return "DEMONSTRATION" in text and _DEMONSTRATION.search(text) is not None


def _fields(step: Any) -> dict[str, Any]:
    return step if isinstance(step, dict) else step.__dict__


def _is_user(fields: dict[str, Any]) -> bool:
    return fields["class_"] == "text_observation" and fields["source"] == "user"


def task_instruction(steps: list[Any]) -> str:
    """The text of the user turn that states the task (see the module docstring); "" when there is none.
    Steps are models or the plain dicts of step_dicts.py."""
    rows = [_fields(step) for step in steps]
    first = None
    for i, fields in enumerate(rows):
        if not _is_user(fields):
            continue
        text = fields["content"]
        first = text if first is None else first
        if is_demonstration(text):
            continue
        reply = next((r for r in rows[i + 1 :] if r["class_"] == "message_action"), None)
        acknowledged = (
            reply is not None
            and len(reply["content"]) <= _ACKNOWLEDGEMENT_CHARS
            and _ACKNOWLEDGEMENT.match(reply["content"]) is not None
        )
        if acknowledged and any(_is_user(r) for r in rows[i + 1 :]):
            continue
        return text
    return first or ""
