"""What an agent is shown of E before the conversation: the system prompt and the tools the chat template renders.

One function, ``agent_prompt``, used by every place a learner sees E (the rollout agent, SFT rendering,
GRPO episodes, evaluation through the rollout stage, the trainer exports), so a learner reads the same
bytes wherever it is trained or tested. Two renderings (``rendering``, one field: ``RenderingOption``):

- ``full`` (the default, for real models): E's policy text as the system prompt, and every tool's JSON
  schema passed to the chat template, which writes them (and how to call them) into the system turn.
  About 2.7k SmolLM2 tokens for the retail world, 3.5k for the airline one.
- ``compact`` (for small learners): the domain's short policy summary (the rules the verifier
  enforces; ``compact_policy`` of the environment class, used only while E's policy is that class's
  policy text, else E's own policy stays), one line per tool (``tool_signature``) and one line on how
  to call, all in the system prompt; no tools go to the chat template, so the tool list appears once.
  Calls are the same Hermes ``<tool_call>`` blocks the template renders for earlier calls, parsed from
  the reply text by the agent (the backend parses only when a request carries tools). About 550 SmolLM2
  tokens for the retail world, 600 for the airline one (bench/prompt_tokens.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from generators.llm.tool_calls import normalize_tools
from schemas.record import Environment, Tool
from schemas.stage_config import StageConfig

Rendering = Literal["full", "compact"]

# The compact prompt's call instruction: the block the chat template renders for a call in the history.
NATIVE_CALLS = 'Call a tool by replying <tool_call>{"name": ..., "arguments": {...}}</tool_call>'
TOOLS_HEADER = "Tools:"
_WORD = re.compile(r"[A-Za-z0-9_]+")
_SCALARS = {"integer": "int", "number": "float", "boolean": "bool"}


class RenderingOption(StageConfig):
    """Mixed into each stage config that renders prompts for a learner (rollouts, evaluation, SFT, RL, exports)."""

    rendering: Rendering = "full"
    """What the learner is shown of E: full (E's policy, and the tools' JSON schemas through the chat template: for
    real models) or compact (a short policy summary and one line per tool in the system prompt, about a fifth of the
    tokens: for small learners such as SmolLM2-135M). Give a learner the same rendering in rollouts, training,
    evaluation and exports."""


@dataclass(frozen=True)
class AgentPrompt:
    system: str | None  # None: E has no policy (each caller keeps its own default)
    tools: list[dict[str, Any]] | None  # OpenAI function tools for the chat template; None: none rendered by it


def agent_prompt(environment: Environment, rendering: Rendering, calls: str = NATIVE_CALLS) -> AgentPrompt:
    """The system prompt and template tools of ``environment`` in ``rendering``; ``calls`` is the compact prompt's
    line on how to call a tool (the llm agent's schema mode swaps in its own)."""
    if rendering == "full":
        return AgentPrompt(environment.policy or None, normalize_tools(environment.tools))
    policy = compact_policy(environment) or (environment.policy or "").strip()
    if not environment.tools:
        return AgentPrompt(policy or None, None)
    lines = [policy, "", TOOLS_HEADER] if policy else [TOOLS_HEADER]
    return AgentPrompt("\n".join([*lines, *map(tool_signature, environment.tools), calls]), None)


def compact_policy(environment: Environment) -> str | None:
    """The short policy of E's domain, when E's policy is that domain's policy text (a record written with an older
    or a foreign policy keeps its own: a summary of other rules would mislead)."""
    from environments.registry import ENVIRONMENTS

    if not environment.name or environment.name not in ENVIRONMENTS:
        return None
    world = ENVIRONMENTS.get(environment.name)
    summary = getattr(world, "compact_policy", "")
    if summary and (environment.policy or "").strip() == str(getattr(world, "policy", "")).strip():
        return summary.strip()
    return None


def tool_signature(tool: Tool) -> str:
    """One line: ``name(arg, arg: type, ...)``; strings are untyped, enums list their values, objects their keys,
    optional arguments end in ``?``."""
    properties = tool.parameters.get("properties", {})
    required = set(tool.parameters.get("required", []))
    args = [_argument(name, schema, name in required) for name, schema in properties.items()]
    return f"{tool.name}({', '.join(args)})"


def _argument(name: str, schema: dict[str, Any], required: bool) -> str:
    kind = _type(schema)
    label = name if required else f"{name}?"
    return f"{label}: {kind}" if kind else label


def _type(schema: dict[str, Any]) -> str:
    """A short type: '' for a plain string, int/float/bool, a|b for an enum, list[...] and {key, key: type}."""
    if "enum" in schema:  # a bare word needs no quotes (fewer tokens); a value with spaces keeps them
        return "|".join(value if _WORD.fullmatch(str(value)) else json.dumps(value) for value in schema["enum"])
    kind = schema.get("type")
    if kind == "array":
        return f"list[{_type(schema.get('items', {})) or 'str'}]"
    if kind == "object":
        required = set(schema.get("required", []))
        return "{" + ", ".join(_argument(k, v, k in required) for k, v in schema.get("properties", {}).items()) + "}"
    return _SCALARS.get(kind, "")
