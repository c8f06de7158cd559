"""Preference pairs from verified rollouts, in TRL's conversational preference format (what DPOTrainer reads).

For each task with a verified success and a verified failure among its rollouts (grouped by the task they
belong to, schemas/task_identity.py), one row per failure:

- ``prompt``: the messages both conversations share from the start (E's policy as the system message, the
  user's opening, the calls and results they have in common), cut back so that both continuations start with an
  assistant turn;
- ``chosen`` / ``rejected``: the rest of the passing and of the failing conversation: assistant turns with
  their ``tool_calls``, tool results, user turns, as training/render.py writes them for SFT;
- ``tools``: E's tools (TRL renders every part with them); ``id``, ``task_id``, ``chosen_id``, ``rejected_id``
  and each side's reward (verifiers/reward.py).

Only aceforge's own verdicts count (``origin`` computed): a success a source vouches for, or an undecided run,
is neither side. Successes are taken in turn, so a task with s successes and f failures gives f pairs, each
failure once. TRL's DPO scores every token of a continuation, tool results and user turns included; both sides
share the environment, so what differs between them is what the agent did.

``PreferenceStats`` counts what happened to every record: rows written, and tasks without a pair by reason.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curation.learner import is_rollout
from curation.views import task_id
from schemas.io import write_jsonl_rows
from schemas.record import AgentRecord, stable_id
from training.inputs import read_training_input
from training.render import Chat, RenderError, record_to_chat
from verifiers.reward import rollout_reward


@dataclass
class PreferenceStats:
    """Counts add up: records = rollouts + sum(skipped.values()); tasks = tasks_paired + tasks without a pair."""

    records: int = 0
    rollouts: int = 0  # verified rollouts grouped by task
    pairs: int = 0
    tasks_paired: int = 0
    skipped: Counter = field(default_factory=Counter)  # records: not_a_rollout, not_computed, <render reason>
    tasks_without_pair: Counter = field(default_factory=Counter)  # no_success, no_failure, no_shared_prompt

    def as_dict(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "rollouts": self.rollouts,
            "pairs": self.pairs,
            "tasks_paired": self.tasks_paired,
            "skipped": dict(self.skipped.most_common()),
            "tasks_without_pair": dict(self.tasks_without_pair.most_common()),
        }


@dataclass
class _Side:
    record: AgentRecord
    chat: Chat


def preference_rows(records: Iterable[AgentRecord], stats: PreferenceStats | None = None) -> Iterator[dict[str, Any]]:
    """The pairs of ``records`` (see the module docstring), tasks in the order they first appear; ``stats`` counts
    what became of every record and task (the Hub export's ``preference`` config needs only the rows)."""
    stats = stats if stats is not None else PreferenceStats()
    sides: dict[str, dict[bool, list[_Side]]] = defaultdict(lambda: {True: [], False: []})
    for record in records:
        stats.records += 1
        result = record.verifier.result
        if not is_rollout(record):
            stats.skipped["not_a_rollout"] += 1
        elif result is None or result.provenance != "computed":
            stats.skipped["not_computed"] += 1
        else:
            try:
                sides[task_id(record)][bool(result.passed)].append(_Side(record, record_to_chat(record)))
                stats.rollouts += 1
            except RenderError as exc:
                stats.skipped[exc.reason] += 1
    for task, by_verdict in sides.items():
        successes, failures = by_verdict[True], by_verdict[False]
        if not successes or not failures:
            stats.tasks_without_pair["no_failure" if successes else "no_success"] += 1
            continue
        rows = [_pair(task, successes[i % len(successes)], failure) for i, failure in enumerate(failures)]
        rows = [row for row in rows if row is not None]
        if not rows:
            stats.tasks_without_pair["no_shared_prompt"] += 1
            continue
        stats.tasks_paired += 1
        stats.pairs += len(rows)
        yield from rows


def shared_prompt_length(chosen: list[dict], rejected: list[dict]) -> int:
    """How many leading messages the pair's prompt takes: the longest common prefix, cut back until both
    continuations start with an assistant turn; 0 when no such prefix holds a user turn."""
    length = 0
    while length < min(len(chosen), len(rejected)) and chosen[length] == rejected[length]:
        length += 1
    while length > 0 and not _assistant_next(chosen, rejected, length):
        length -= 1
    return length if any(m["role"] == "user" for m in chosen[:length]) else 0


def _assistant_next(chosen: list[dict], rejected: list[dict], length: int) -> bool:
    return all(length < len(side) and side[length]["role"] == "assistant" for side in (chosen, rejected))


def _pair(task: str, chosen: _Side, rejected: _Side) -> dict[str, Any] | None:
    cut = shared_prompt_length(chosen.chat.messages, rejected.chat.messages)
    if not cut:
        return None
    return {
        "id": stable_id("preference", chosen.record.id, rejected.record.id),
        "task_id": task,
        "prompt": chosen.chat.messages[:cut],
        "chosen": chosen.chat.messages[cut:],
        "rejected": rejected.chat.messages[cut:],
        "tools": chosen.chat.tools or [],
        "chosen_id": chosen.record.id,
        "rejected_id": rejected.record.id,
        "chosen_reward": rollout_reward(chosen.record.verifier.result),
        "rejected_reward": rollout_reward(rejected.record.verifier.result),
    }


def export_dpo(records: Iterable[AgentRecord], output: Path) -> dict[str, Any]:
    """Write the pairs as JSON Lines (``load_dataset("json", data_files=...)`` gives DPOTrainer's dataset)."""
    stats = PreferenceStats()
    written = write_jsonl_rows(preference_rows(records, stats), output)
    return {"format": "dpo", "output": str(output), "written": written, **stats.as_dict()}


def export(source: Path, output: Path, *, allow_empty: bool = False) -> dict[str, Any]:
    """The registry's entry (exporters/registry.py): the preference pairs of ``source``'s rollouts into ``output``."""
    return export_dpo(read_training_input(source, allow_empty), output)
