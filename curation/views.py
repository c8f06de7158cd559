"""What curation reads from a record: its task text, its actions, its content key and its missing parts.

Every score and dedup kind looks at a record through these pure functions, so
"the task text" or "the actions" mean the same thing everywhere:

- **task text**: ``task.instruction`` followed by the user scenario's ``reason``
  when q has one (a synthesized task's instruction is a short summary, "Update
  the profile address.", shared by every task of its kind; the reason says
  which address), else the first user turn of τ;
- **actions**: the tool calls of τ; for a task record (empty τ), the gold actions
  of ``task.expected_outputs`` (what the task asks an agent to do);
- **action signature**: the sequence of acting steps, a tool call by its name,
  a code step as ``code:<language>``, a message as ``message``; the **tool
  sequence** is its tool calls alone;
- **grounded entities**: the id-like values (verifiers/grounding.py's
  ``argument_ids``: order, user and reservation ids, item numbers) among the
  arguments of the actions, nested ones included: the rows a record touches;
- **goal kinds**: the kinds of the goals a synthesized task is made of
  (``task.metadata.goal_kinds``, else its ``task_kind``; a rollout keeps its
  task's q); empty for records that do not name one;
- **missing markers**: ``no_text`` (no task text), ``no_task`` (neither an
  instruction nor constraints nor expected outputs nor a user turn),
  ``empty_trajectory`` (τ has no step; normal for a task record, fatal for SFT).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from schemas.record import AgentRecord, canonical_json
from schemas.steps import ApiAction, CodeAction, MessageAction, TextObservation, WebObservation
from schemas.task_identity import task_of
from verifiers.grounding import argument_ids

MISSING_MARKERS = ("no_text", "no_task", "empty_trajectory")
_SPACES = re.compile(r"\s+")


def normalize_text(text: str) -> str:
    """Lowercased, whitespace collapsed: what makes two texts "the same" for hashing and shingling."""
    return _SPACES.sub(" ", text).strip().lower()


def first_user_turn(record: AgentRecord) -> str:
    for step in record.trajectory:
        if isinstance(step, TextObservation) and step.source == "user" and step.content.strip():
            return step.content
    return ""


def task_text(record: AgentRecord) -> str:
    """The task as a person would read it (empty when the record has none)."""
    instruction = (record.task.instruction or "").strip()
    reason = (record.task.user_scenario or {}).get("reason")
    if isinstance(reason, str) and reason.strip() and reason.strip() not in instruction:
        instruction = f"{instruction}\n{reason.strip()}".strip()
    return instruction or first_user_turn(record).strip()


def is_task_record(record: AgentRecord) -> bool:
    """A task to be solved (q with no τ): a candidate for the RL set, never for SFT."""
    return not record.trajectory


def task_id(record: AgentRecord) -> str:
    """The task a record belongs to (schemas/task_identity.py)."""
    return task_of(record)


def gold_actions(record: AgentRecord) -> list[dict[str, Any]]:
    gold = (record.task.expected_outputs or {}).get("gold_actions") or []
    return [action for action in gold if isinstance(action, dict) and action.get("name")]


def tool_calls(record: AgentRecord) -> list[tuple[str, dict[str, Any]]]:
    """(name, arguments) of each tool call of τ; of the gold actions for a task record."""
    if record.trajectory:
        return [(step.function, step.kwargs) for step in record.trajectory if isinstance(step, ApiAction)]
    return [(action["name"], action.get("arguments") or {}) for action in gold_actions(record)]


def action_signature(record: AgentRecord) -> list[str]:
    if not record.trajectory:
        return [name for name, _ in tool_calls(record)]
    names = []
    for step in record.trajectory:
        if isinstance(step, ApiAction):
            names.append(step.function)
        elif isinstance(step, CodeAction):
            names.append(f"code:{step.language}")
        elif isinstance(step, MessageAction):
            names.append("message")
    return names


def action_text(record: AgentRecord) -> str:
    """The action signature as one line, the text its embedding is made of ("" when the record acts not at all)."""
    return " -> ".join(action_signature(record))


def tool_sequence(record: AgentRecord) -> str:
    """The names of the tool calls in order, as one line ("" when the record calls no tool)."""
    return " -> ".join(name for name, _ in tool_calls(record))


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def grounded_entities(record: AgentRecord) -> frozenset[str]:
    """The id-like argument values of the record's actions (see the module docstring)."""
    return frozenset(
        token for _, arguments in tool_calls(record) for leaf in _leaves(arguments) for token in argument_ids(leaf)
    )


def goal_kinds(record: AgentRecord) -> list[str]:
    metadata = record.task.metadata or {}
    kinds = metadata.get("goal_kinds")
    if isinstance(kinds, list) and kinds:
        return [str(kind) for kind in kinds]
    return [str(metadata["task_kind"])] if metadata.get("task_kind") else []


def call_skeleton(record: AgentRecord) -> list[tuple[str, list[str]]]:
    """Each tool call as (name, sorted argument keys): the shape of what was done, without the values."""
    return [(name, sorted(arguments)) for name, arguments in tool_calls(record)]


def step_text(step: Any) -> str:
    if isinstance(step, ApiAction):
        return f"{step.function} {canonical_json(step.kwargs).decode()}"
    if isinstance(step, WebObservation):
        return step.axtree or step.html or step.url or ""
    return getattr(step, "content", "") or ""


def record_text(record: AgentRecord) -> str:
    """The whole record as text (task, then every step): what near-duplicate text detection shingles."""
    parts = [task_text(record)]
    parts += [step_text(step) for step in record.trajectory]
    if not record.trajectory:
        parts += [f"{name} {canonical_json(args).decode()}" for name, args in tool_calls(record)]
    return "\n".join(part for part in parts if part)


def content_hash(record: AgentRecord) -> str:
    """Exact-duplicate key: E's name, the normalized task, constraints and steps; never ids, source or scores.

    Tool-call ids are left out (they are names, not content); text is normalized.
    """
    steps = [
        {key: normalize_text(value) if isinstance(value, str) else value for key, value in step.model_dump().items()}
        for step in record.trajectory
    ]
    for step in steps:
        step.pop("tool_call_id", None)
    content = [
        record.environment.name,
        normalize_text(task_text(record)),
        record.task.constraints,
        gold_actions(record) if not record.trajectory else [],
        steps,
    ]
    return hashlib.blake2b(canonical_json(content), digest_size=16).hexdigest()


def structural_key(record: AgentRecord) -> str | None:
    """Same E + same tool-call skeleton + same task definition; None when the record calls no tool.

    The task definition is the constraint set; a record without constraints is
    defined by its normalized task text instead (otherwise every unconstrained
    record with the same call skeleton, e.g. two different customers served
    the same way, would collapse into one).
    """
    skeleton = call_skeleton(record)
    if not skeleton:
        return None
    constraints = sorted(canonical_json(c).decode() for c in record.task.constraints)
    definition = constraints or normalize_text(task_text(record))
    key = [record.environment.name or record.environment.kind, skeleton, definition]
    return hashlib.blake2b(canonical_json(key), digest_size=16).hexdigest()


def agent_of(record: AgentRecord) -> str | None:
    """The agent policy that made a rollout, as its lineage names it (``oracle``, ``perturbed``, ``llm``)."""
    agent = record.lineage.generator.get("agent") if isinstance(record.lineage.generator, dict) else None
    return agent.get("name") if isinstance(agent, dict) else None


def successful_calls(record: AgentRecord) -> int:
    """Tool calls of τ whose result is not an error."""
    results = {
        s.tool_call_id: s.content for s in record.trajectory if isinstance(s, TextObservation) and s.source == "tool"
    }
    return sum(
        1
        for s in record.trajectory
        if isinstance(s, ApiAction) and not results.get(s.tool_call_id, "Error").lstrip().lower().startswith("error")
    )


def dedup_group(record: AgentRecord) -> str:
    """Records of different groups are never duplicates of each other, whatever their text.

    Tasks and trajectories apart (a task and its rollouts look alike by design and feed different sets);
    a task also by its grounded targets (the arguments of its gold actions: the same template on other
    rows is another task); a trajectory by its verdict, and a failure by its first reason (a failure is a
    duplicate only of a failure of the same kind, never of a success: both teach something).
    """
    if is_task_record(record):
        targets = [action.get("arguments") for action in gold_actions(record)]
        return "task:" + hashlib.blake2b(canonical_json(targets), digest_size=8).hexdigest()
    result = record.verifier.result
    if result is None or result.passed is None:
        return "trajectory:no_verdict"
    if result.passed:
        return "trajectory:passed"
    return "trajectory:failed:" + (result.reasons[0] if result.reasons else "")


def missing_markers(record: AgentRecord) -> list[str]:
    """Which of MISSING_MARKERS apply: scores that need the part are left empty and say so."""
    markers = []
    if not task_text(record):
        markers.append("no_text")
    task = record.task
    if not (task.instruction.strip() or task.constraints or task.expected_outputs or first_user_turn(record)):
        markers.append("no_task")
    if not record.trajectory:
        markers.append("empty_trajectory")
    return markers
