"""One pass over a records file, keeping per record only the small facts curation decides on.

Stages read their input twice: once for the facts (a few hundred bytes a
record, so 100k records fit easily), once to write the records out with what
was decided. No stage holds every AgentRecord in memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from curation.accuracy import Accuracy, accuracy
from curation.complexity import structural_complexity, structural_features
from curation.learner import is_rollout
from curation.views import (
    action_text,
    agent_of,
    content_hash,
    dedup_group,
    goal_kinds,
    grounded_entities,
    is_task_record,
    missing_markers,
    structural_key,
    successful_calls,
    task_id,
    task_text,
    tool_sequence,
)
from schemas.io import read_records
from schemas.record import AgentRecord


@dataclass
class RecordFacts:
    id: str
    task_id: str
    is_task: bool
    is_rollout: bool
    dataset: str
    format: str
    environment: str
    verifier_kind: str
    text: str
    action_text: str
    tool_sequence: str
    entities: frozenset[str]  # views.grounded_entities
    goal_kinds: list[str]
    missing: list[str]
    accuracy: Accuracy
    features: dict[str, int]
    complexity: float
    content_hash: str
    structural_key: str | None
    verdict: bool | None  # v.result.passed
    verdict_origin: str | None  # computed (by aceforge) | imported (with the data) | undecided; None: no verdict
    pass_rate: float | None  # as stored in scores.extra by an earlier score stage
    reward_mean: float | None  # the mean reward of the learner's rollouts of the task (else its pass rate)
    rewards_differ: bool | None  # its learner rollouts' rewards are not all equal; None: no learner rollouts
    dedup_group: str  # only records of one group can be duplicates of each other (views.dedup_group)
    agent: str | None  # the agent policy that made a rollout (lineage.generator.agent.name); None otherwise
    tool_calls_ok: int | None  # tool calls of τ answered without an error; None: E offers no tools

    @property
    def passed(self) -> bool:
        return self.accuracy.level == "passed"


def facts_of(record: AgentRecord) -> RecordFacts:
    features = structural_features(record)
    return RecordFacts(
        id=record.id,
        task_id=task_id(record),
        is_task=is_task_record(record),
        is_rollout=is_rollout(record),
        dataset=record.source.dataset,
        format=record.source.format,
        environment=record.environment.name or record.environment.kind,
        verifier_kind=record.verifier.kind,
        text=task_text(record),
        action_text=action_text(record),
        tool_sequence=tool_sequence(record),
        entities=grounded_entities(record),
        goal_kinds=goal_kinds(record),
        missing=missing_markers(record),
        accuracy=accuracy(record),
        features=features,
        complexity=structural_complexity(features),
        content_hash=content_hash(record),
        structural_key=structural_key(record),
        verdict=record.verifier.result.passed if record.verifier.result else None,
        verdict_origin=record.verifier.result.provenance if record.verifier.result else None,
        pass_rate=record.scores.extra.get("pass_rate"),
        reward_mean=record.scores.extra.get("reward_mean", record.scores.extra.get("pass_rate")),
        rewards_differ=rewards_differ(record.scores.extra),
        dedup_group=dedup_group(record),
        agent=agent_of(record),
        tool_calls_ok=successful_calls(record) if record.environment.tools else None,
    )


def rewards_differ(extra: dict[str, float]) -> bool | None:
    """Whether a task's learner rollouts earned unequal rewards. Scored before rewards were kept (no
    ``reward_spread``), a pass rate strictly between 0 and 1 says so (a pass earns 1, a failure less); 0 or 1
    is taken as equal rewards, as selection then took it."""
    if "reward_spread" in extra:
        return extra["reward_spread"] > 0
    rate = extra.get("pass_rate")
    return None if rate is None else 0.0 < rate < 1.0


def iter_records(path: Path, progress: bool = False, what: str = "reading") -> Iterator[AgentRecord]:
    yield from tqdm(read_records(path), desc=what, unit=" records", disable=not progress)


def read_facts(path: Path, progress: bool = False) -> list[RecordFacts]:
    return [facts_of(record) for record in iter_records(path, progress, "reading facts")]
