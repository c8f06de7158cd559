"""Fidelity of a converted record to its raw file: every message, call, result, reasoning and answer, in order.

A test lists what the raw file holds, read straight from it (not through the converter), as
``Item``s; ``assert_faithful`` checks that the record holds each one, in that order, with the
right role, and that the record has no more calls, results or user turns than the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from data_catalog.convert import convert_files
from schemas.io import read_records
from schemas.record import AgentRecord


@dataclass(frozen=True)
class Item:
    kind: str  # user | system | thinking | text | call | result
    text: str = ""  # the text (a call: its name)
    arguments: Any = None  # a call's arguments
    call_id: str | None = None  # a call's or a result's id


def _tokens(record: AgentRecord) -> list[tuple[str, Any]]:
    """The record as (kind, value) in order: a step's reasoning comes before the step itself."""
    tokens: list[tuple[str, Any]] = []
    for step in record.trajectory:
        if getattr(step, "reasoning", None):
            tokens.append(("reasoning", step.reasoning))
        if step.class_ == "message_action":
            tokens.append(("text", step.content))
        elif step.class_ == "api_action":
            tokens.append(("call", (step.function, step.kwargs, step.tool_call_id)))
        elif step.class_ == "code_action":
            tokens.append(("call", (step.language, step.content, step.tool_call_id)))
        elif step.class_ in ("text_observation", "image_observation"):
            tokens.append((step.source, (step.content, getattr(step, "tool_call_id", None))))
    return tokens


Code = dict[str, "str | tuple[str, str]"]  # a code tool's name -> its code argument (bash), or (language, argument)


def _matches(item: Item, kind: str, value: Any, shell: Code) -> bool:
    if item.kind == "thinking":
        return kind == "reasoning" and item.text.strip() in value
    if item.kind == "text":
        return (kind == "text" and value == item.text.strip()) or (kind == "reasoning" and item.text.strip() in value)
    if item.kind == "call":
        if kind != "call" or value[2] != item.call_id:
            return False
        code = shell.get(item.text)
        if code is not None:  # a code tool's call is a CodeAction of its code (a shell tool's: bash)
            language, key = ("bash", code) if isinstance(code, str) else code
            return value[:2] == (language, item.arguments[key])
        return value[:2] == (item.text, item.arguments)
    if item.kind == "result":
        return kind == "tool" and value == (item.text, item.call_id)
    return kind == item.kind and value[0] == item.text  # user / system


def assert_faithful(record: AgentRecord, items: list[Item], shell: Code | None = None) -> None:
    """``shell``: the file's code tools (their calls are CodeActions): a shell tool's name and its command
    argument, or a tool's name and (language, argument)."""
    tokens = _tokens(record)
    at = 0
    for n, item in enumerate(items):
        found = next((i for i in range(at, len(tokens)) if _matches(item, *tokens[i], shell or {})), None)
        assert found is not None, f"item {n} {item} is not in the record after token {at}: {tokens[at : at + 3]}"
        at = found if tokens[found][0] == "reasoning" else found + 1  # one reasoning holds thinking and lead-in text
    for kind, record_kind in (("call", "call"), ("result", "tool"), ("user", "user")):
        expected = sum(item.kind == kind for item in items)
        assert sum(k == record_kind for k, _ in tokens) == expected, f"{kind} count differs from the file's"


# The agent-log samples (tests/data_catalog/sources/samples/): what each is, and reading them.
SAMPLES = Path(__file__).parent / "samples"
EXPECTED = {  # sample -> (format, layout auto names, records)
    "nemo_gym_rollouts.jsonl": ("openai_responses", "NeMo Gym rollout (Responses items)", 2),
    "openhands_eval_output.jsonl": ("openhands", "OpenHands evaluation output (event-stream history)", 1),
    "openhands_events.json": ("openhands", "OpenHands event stream", 1),
    "atif_rfc_example.json": ("atif", "ATIF trajectory (ATIF-v1.4)", 1),
    "toolbench_answers.json": ("toolbench", "ToolBench answer tree", 2),
    "aider/sessions.aider.chat.history.md": ("aider", "Aider chat history", 2),
    "agentbench/runs.jsonl": ("agentbench", "AgentBench run output", 1),
    "bfcl_multi_turn/BFCL_v4_multi_turn_base.json": ("bfcl_multi_turn", "BFCL multi-turn test entry", 2),
    "bfcl_multi_turn/BFCL_v4_multi_turn_miss_func.json": ("bfcl_multi_turn", "BFCL multi-turn test entry", 1),
    "letta/composio_github_star_agent.af": ("letta", "Letta agent file (0.6-0.7)", 1),
    "letta/lettabot_builder.af": ("letta", "Letta agent file", 2),
    "anthropic_messages/request.json": ("anthropic_messages", "Anthropic Messages conversation", 1),
    "anthropic_messages/response.json": ("anthropic_messages", "Anthropic Messages response", 1),
    "claude_code/session.jsonl": ("claude_code", "Claude Code session event", 1),
    "codex_cli/rollout.jsonl": ("codex_cli", "Codex CLI rollout line", 1),
    "gemini_cli/session.json": ("gemini_cli", "Gemini CLI session", 1),
    "inspect_ai/eval_log.json": ("inspect_ai", "Inspect AI eval log", 1),
    "smolagents/memory_steps.json": ("smolagents", "smolagents memory steps", 1),
    "openai_agents/v1_9_custom_tool_call_and_tool_origin.json": ("openai_agents", "OpenAI Agents SDK run state", 1),
    "openai_agents/v1_13_pending_tool_approval.json": ("openai_agents", "OpenAI Agents SDK run state", 1),
    "smolagents/benchmark_run.jsonl": ("smolagents", "smolagents benchmark row", 1),
}


def convert(name: str, tmp_path: Path) -> list[AgentRecord]:
    fmt, _, count = EXPECTED[name]
    stats = convert_files(fmt, [str(SAMPLES / name)], tmp_path / "out.parquet")
    assert (stats.converted, stats.quarantined) == (count, 0), stats.first_errors
    return list(read_records(tmp_path / "out.parquet"))


def lines(name: str) -> list[dict]:
    return [json.loads(line) for line in (SAMPLES / name).read_text().splitlines() if line.strip()]


def step_texts(record: AgentRecord) -> list[str]:
    """The text of every step that has one (thinking must never be one of them)."""
    return [step.content for step in record.trajectory if hasattr(step, "content")]


def identity(record: AgentRecord) -> tuple[str | None, str | None, str | None, list[str]] | None:
    """The record's source.agent as (framework, model, version, other_models); None when it has none."""
    agent = record.source.agent
    return agent and (agent.framework, agent.model, agent.version, agent.other_models)
