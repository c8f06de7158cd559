"""The LLM agent: any generators/ backend, with E's tools and E's policy as the system prompt.

Tool calls (``RolloutConfig.tool_calls``):

- ``native``: the model writes calls in its chat template's own markup (Hermes
  ``<tool_call>`` blocks for ChatML models), which the backend parses; a reply
  without calls is a message to the user.
- ``schema``: for models that do not emit tool calls by themselves, every reply
  is constrained (``ChatRequest.json_schema``; vLLM's structured outputs) to
  the JSON schema of "one tool call or one message": ``{"name": <a tool of E>,
  "arguments": <that tool's parameters>}`` or ``{"message": <text>}``. The
  history shows the agent's earlier turns in that same JSON.

What the agent is shown of E (``RolloutConfig.rendering``, generators/rollouts/agent_prompt.py): E's policy
with the tools' schemas through the chat template (full), or a policy summary with one line per tool in the
system prompt (compact); in compact native mode the request carries no tools, so the agent reads the
``<tool_call>`` blocks out of the reply itself, as a backend does for a request with tools.

A reply that is neither a call nor a message ends the rollout with
``malformed_output``; an empty one with ``empty_reply``.
"""

from __future__ import annotations

import json
from typing import Any

from generators.llm.tool_calls import completion_from_text, normalize_tools
from generators.rollouts.actors import AgentPolicy, model_turn_error
from generators.rollouts.agent_prompt import NATIVE_CALLS, agent_prompt
from generators.rollouts.conversation import AgentTurn, Conversation, TaskContext
from schemas.generation import ChatRequest, GenerationResult
from schemas.record import Tool
from schemas.steps import ApiAction, MessageAction, TextObservation

SCHEMA_INSTRUCTION = (
    'Answer with exactly one JSON object: {"name": <tool name>, "arguments": {...}} to call one tool, '
    'or {"message": <text>} to write to the customer.'
)
MESSAGE_MAX_CHARS = 1000
DEFAULT_SYSTEM = "You are a helpful customer support agent."


def action_schema(tools: list[Tool]) -> dict[str, Any]:
    """The JSON schema of one tool call of ``tools`` or one message."""
    calls = [
        {
            "type": "object",
            "properties": {"name": {"const": tool.name}, "arguments": tool.parameters},
            "required": ["name", "arguments"],
            "additionalProperties": False,
        }
        for tool in tools
    ]
    message = {
        "type": "object",
        "properties": {"message": {"type": "string", "minLength": 1, "maxLength": MESSAGE_MAX_CHARS}},
        "required": ["message"],
        "additionalProperties": False,
    }
    return {"anyOf": [*calls, message]}


def history(conv: Conversation, as_json: bool) -> list[dict[str, Any]]:
    """τ so far as chat messages from the agent's side (user turns, its own turns, tool results)."""
    messages: list[dict[str, Any]] = []
    for step in conv.steps:
        if isinstance(step, TextObservation) and step.source == "user":
            messages.append({"role": "user", "content": step.content})
        elif isinstance(step, TextObservation) and step.source == "tool":
            messages.append({"role": "tool", "tool_call_id": step.tool_call_id, "content": step.content})
        elif isinstance(step, MessageAction):
            content = json.dumps({"message": step.content}, ensure_ascii=False) if as_json else step.content
            messages.append({"role": "assistant", "content": content})
        elif isinstance(step, ApiAction) and as_json:
            call = {"name": step.function, "arguments": step.kwargs}
            messages.append({"role": "assistant", "content": json.dumps(call, ensure_ascii=False)})
        elif isinstance(step, ApiAction):
            call = {
                "id": step.tool_call_id,
                "type": "function",
                "function": {"name": step.function, "arguments": step.kwargs},
            }
            messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
    return messages


def parse_schema_reply(text: str) -> AgentTurn:
    """A reply constrained to the action schema: a call (even of a tool E lacks) or a message."""
    try:
        value = json.loads(text)
    except ValueError:
        return AgentTurn(error="malformed_output")
    if isinstance(value, dict) and isinstance(value.get("message"), str):
        return (
            AgentTurn(message=value["message"].strip()) if value["message"].strip() else AgentTurn(error="empty_reply")
        )
    if isinstance(value, dict) and isinstance(value.get("name"), str) and isinstance(value.get("arguments"), dict):
        return AgentTurn(calls=[(value["name"], value["arguments"])])
    return AgentTurn(error="malformed_output")


class LlmAgent(AgentPolicy):
    name = "llm"
    version = "1"
    uses_model = True

    @property
    def mode(self) -> str:
        return getattr(self.settings, "tool_calls", "native")

    @property
    def rendering(self) -> str:
        return getattr(self.settings, "rendering", "full")

    def describe(self) -> dict[str, Any]:
        # The default rendering is left out: descriptions of full-rendering agents stay what they were.
        compact = {"rendering": self.rendering} if self.rendering != "full" else {}
        return {**super().describe(), "tool_calls": self.mode, **compact}

    def _base_request(self, context: TaskContext) -> ChatRequest:
        """The task's system prompt, tools and action schema, validated once for its k rollouts.

        Checking a JSON schema is costly (about half a second for a tool world's action schema),
        so each turn's request is this one with the conversation's messages and seed swapped in.
        """
        if "agent_request" not in context.derived:
            schema_mode = self.mode == "schema"
            calls = SCHEMA_INSTRUCTION if schema_mode else NATIVE_CALLS
            prompt = agent_prompt(context.task.environment, self.rendering, calls)
            system = prompt.system or DEFAULT_SYSTEM
            if schema_mode and self.rendering == "full":
                system = f"{system}\n\n{SCHEMA_INSTRUCTION}"
            context.derived["agent_request"] = ChatRequest(
                messages=[{"role": "system", "content": system}],
                # E's tools as they are (Tool objects; a backend normalizes them), unless the rendering shows none.
                tools=(context.tools or None) if prompt.tools else None,
                json_schema=action_schema(context.tools) if schema_mode else None,
            )
        return context.derived["agent_request"]

    def request(self, conv: Conversation) -> ChatRequest:
        base = self._base_request(conv.context)
        messages = [*base.messages, *history(conv, as_json=self.mode == "schema")]
        return base.model_copy(update={"messages": messages, "sampling": conv.sampling})

    def act(self, conv: Conversation, result: GenerationResult | None) -> AgentTurn:
        error = model_turn_error(result)
        if error:
            return AgentTurn(error=error, tokens=result.tokens_out)
        completion = result.completions[0]
        if self.mode == "native" and self.rendering == "compact":  # no tools in the request: calls are in the text
            tools = normalize_tools(conv.context.tools)
            completion = completion_from_text(completion.text, completion.finish_reason, tools)
        if completion.tool_calls:
            turn = AgentTurn(calls=[(call.name, call.arguments) for call in completion.tool_calls])
        elif completion.tool_call_errors:
            turn = AgentTurn(error="malformed_output")
        elif self.mode == "schema":
            turn = parse_schema_reply(completion.text)
        else:
            text = completion.text.strip()
            turn = AgentTurn(message=text) if text else AgentTurn(error="empty_reply")
        turn.tokens = result.tokens_out
        return turn
