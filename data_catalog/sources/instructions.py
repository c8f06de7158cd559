"""Which user turn of a conversation states its task (q.instruction).

The first user turn, except two kinds that come before the task in real data:

- an in-context demonstration (SWE-agent's "Here is a demonstration of how to
  correctly accomplish this task ... --- DEMONSTRATION --- ... --- END OF
  DEMONSTRATION ---" turn); when the task follows the demonstration in the same
  turn, the task is the text after it;
- context a coding agent's harness sends as user messages before the task
  (Codex's ``<environment_context>`` and ``<user_instructions>`` blocks, its
  "# AGENTS.md instructions for ..." turn); a turn that is only such context
  does not state the task;
- boilerplate the agent only acknowledged (AgentInstruct's webshop and kg
  prompts, answered "OK" or "I've understood your instruction, start please."),
  when a later user turn follows it.
"""

from __future__ import annotations

import re
from typing import Any

_DEMONSTRATION = re.compile(r"\A\s*Here is a demonstration of how to|^-{2,} DEMONSTRATION -{2,}$", re.M)
_DEMONSTRATION_END = re.compile(r"^-{2,} END OF DEMONSTRATION -{2,}[ \t]*$", re.M)
_ACKNOWLEDGEMENT = re.compile(
    r"\s*(?:ok(?:ay)?|sure|got it|understood|alright|i understand|i(?:'ve| have) understood)\b", re.I
)
_ACKNOWLEDGEMENT_CHARS = 200
_HARNESS_CONTEXT = re.compile(
    r"\s*(?:<(environment_context|user_instructions)>.*?</\1>"
    r"|# AGENTS\.md instructions for [^\n]*\n+<INSTRUCTIONS>.*?</INSTRUCTIONS>)\s*",
    re.S,
)
_HARNESS_START = re.compile(r"\s*(?:<environment_context>|<user_instructions>|# AGENTS\.md)")


def without_harness_context(text: str) -> str:
    """The text of a user turn less the harness context blocks it opens with ("" when it is only that)."""
    if _HARNESS_START.match(text) is None:  # not text.lstrip(): that copies a long first turn to look at its start
        return text
    end = 0
    while match := _HARNESS_CONTEXT.match(text, end):
        if match.end() == end:
            break
        end = match.end()
    return text[end:]


def without_demonstration(text: str) -> str:
    """The text of a user turn less an in-context demonstration it opens with ("" when it is only that)."""
    if "DEMONSTRATION" not in text or _DEMONSTRATION.search(text) is None:
        return text
    end = max(_DEMONSTRATION_END.finditer(text), key=lambda match: match.start(), default=None)
    return "" if end is None else text[end.end() :].strip()


def _is_user(fields: dict[str, Any]) -> bool:
    return fields["class_"] == "text_observation" and fields["source"] == "user"


def task_instruction(steps: list[Any]) -> str:
    """The text of the user turn that states the task (see the module docstring); "" when there is none.
    Steps are models or the plain dicts of step_dicts.py."""
    rows = [step if isinstance(step, dict) else step.__dict__ for step in steps]
    first = None
    for i, fields in enumerate(rows):
        if not _is_user(fields):
            continue
        text = without_demonstration(without_harness_context(fields["content"]))
        first = fields["content"] if first is None else first
        if not text:
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
