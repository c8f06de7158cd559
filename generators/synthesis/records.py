"""Synthesized tasks as AgentRecords, in the shape rollouts, curation and training consume.

- E: ``to_record_environment`` of the seeded world (tools, policy, initial state hash, env_params + seed);
- q: instruction, user_scenario, constraints, expected_outputs {gold_actions, gold_label
  "programmatic", gold_state_hash, outcome, gold_reply}, metadata {task_kind, complexity,
  constraint_kinds, goal_kinds, synthesizer, synthesizer_version, seed, parents, scenario_source,
  reason_paraphrase {by, outcome, original} when a paraphraser ran, + the draft (identity, goals,
  guards) for evolution};
- τ: empty for a task (backward pairs carry their explored τ and its verdict);
- v: kind "constraints";
- id and source.original_id: a content key of the synthesizer, E and the constraints and
  gold actions, so the same seed and config give the same ids.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from generators.synthesis.config import ScenarioOptions
from generators.synthesis.drafts import TaskDraft
from generators.synthesis.gold_solver import GOLD_LABEL, GoldRun
from generators.synthesis.paraphrase import paraphrase_scenarios
from generators.synthesis.scenarios import write_scenarios
from generators.synthesis.stats import SynthStats
from generators.synthesis.synthesizer import young_collections_only
from schemas.record import AgentRecord, Environment, Lineage, Source, Task, Verifier, aceforge_version, stable_id
from schemas.stage_config import StageConfig

TASK_FORMAT = "synth_tasks"
BACKWARD_FORMAT = "synth_backward"


@dataclass(frozen=True)
class Provenance:
    """Who made a record, with what: lineage and metadata of every record of one run."""

    synthesizer: str
    version: str
    seed: int
    dataset: str
    config_hash: str
    scenario_writer: dict[str, Any] | None = None  # backend + model id; None: templates

    def generator(self) -> dict[str, Any]:
        return {
            "synthesizer": self.synthesizer,
            "version": self.version,
            "seed": self.seed,
            "scenario_writer": self.scenario_writer or "template",
        }


def task_key(synthesizer: str, environment: Environment, constraints: list[dict], actions: list[dict]) -> str:
    state = environment.initial_state
    return stable_id(
        synthesizer, state.snapshot_id if state else None, state.content_hash if state else None, constraints, actions
    )


def task_record(
    draft: TaskDraft,
    environment: Environment,
    scenario: dict[str, Any],
    gold: GoldRun,
    provenance: Provenance,
    parents: tuple[str, ...] = (),
    fmt: str = TASK_FORMAT,
    explored: bool = False,
    **metadata: Any,
) -> AgentRecord:
    """The task record of a solved draft; ``explored`` keeps the gold τ and its verdict (backward pairs)."""
    constraints, actions = draft.constraints(), draft.gold_actions()
    key = task_key(provenance.synthesizer, environment, constraints, actions)
    scored = draft.scored()
    return AgentRecord(
        id=f"{draft.domain}-{provenance.synthesizer}-{key}",
        environment=environment,
        task=Task(
            instruction=draft.instruction(),
            user_scenario=scenario,
            constraints=constraints,
            expected_outputs={
                "gold_actions": actions,
                "gold_label": "exploration" if explored else GOLD_LABEL,
                "gold_state_hash": gold.final_state_hash,
                "outcome": draft.outcome(),
                "gold_reply": draft.reply(),
            },
            metadata={
                "task_kind": "+".join(goal.kind for goal in draft.goals),
                "complexity": len(scored),
                "constraint_kinds": sorted({c["check"] for c in scored}),
                "goal_kinds": [goal.kind for goal in draft.goals],
                "synthesizer": provenance.synthesizer,
                "synthesizer_version": provenance.version,
                "seed": provenance.seed,
                "parents": list(parents),
                **metadata,
                **draft.to_metadata(),
            },
        ),
        trajectory=gold.trajectory if explored else [],
        verifier=Verifier(
            kind="constraints",
            version=gold.verdict.version if explored else None,
            result=gold.verdict if explored else None,
        ),
        source=Source(dataset=provenance.dataset, format=fmt, original_id=key),
        lineage=Lineage(
            generator=provenance.generator(),
            parents=list(parents),
            config_hash=provenance.config_hash,
            pipeline_version=aceforge_version(),
        ),
    )


@dataclass
class Solved:
    """A draft whose gold run passed, with what its record needs besides the scenario."""

    draft: TaskDraft
    gold: GoldRun
    rng: random.Random
    environment: Environment
    parents: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)


def config_hash(command: str, cfg: StageConfig) -> str:
    return stable_id(command, cfg.model_dump(mode="json"))


def finish_records(
    solved: list[Solved], options: ScenarioOptions, provenance: Provenance, stats: SynthStats, **record_options: Any
) -> list[AgentRecord]:
    """Scenarios for every solved draft (one writer batch, then one paraphrase batch when a paraphraser is set),
    then their records; ``stats.kept`` is set. A paraphrased record's metadata says so (``reason_paraphrase``)."""
    written, writer = write_scenarios([s.draft for s in solved], [s.rng for s in solved], options, stats)
    scenarios, notes = paraphrase_scenarios([scenario for scenario, _ in written], options, stats)
    provenance = replace(provenance, scenario_writer=writer)
    records = [
        task_record(
            s.draft,
            s.environment,
            scenario,
            s.gold,
            provenance,
            s.parents,
            **record_options,
            **s.metadata,
            scenario_source=source,
            **({"reason_paraphrase": note} if note else {}),
        )
        for s, scenario, (_, source), note in young_collections_only(zip(solved, scenarios, written, notes))
        if scenario is not None
    ]
    stats.kept = len(records)
    return records
