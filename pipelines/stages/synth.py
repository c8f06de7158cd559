"""The synthesis stages (tasks, rollouts, the learner's rollouts) as ``Stage``s (pipelines/stages/__init__.py): the ones
``aceforge synth tasks`` and ``synth rollouts`` (pipelines/cli/synth.py, synth_rollouts.py) and the assets
``synth_tasks``, ``rollouts`` and ``learner_rollouts`` (pipelines/assets/synth.py) are made from. This module is the
one in pipelines/ that calls the generators' synthesis and rollout entry points (``run_tasks``, ``run_rollouts``).

A stage's name is its PipelineConfig section (tasks, rollouts, learner). The faces differ only in what they give the
run. ``synth tasks`` gives a config and a dataset name; the asset gives its partition's environment. ``synth
rollouts`` gives one policy run, on every task; the asset gives its section's runs (agents that call a model roll
out only the first ``model_tasks`` tasks) and the generation resource, whose backend those runs use; the learner's
asset gives its one policy. In both faces a record that is not a task goes to the quarantine with its reason, and a
backend that cannot serve a run is a ``StageError``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from generators.rollouts.config import PolicyConfig, RolloutConfig
from generators.synthesis.config import SynthTasksConfig
from pipelines.pipeline_config import RolloutsSection
from pipelines.stages import (
    ENVIRONMENT,
    RECORDS_FILE,
    Out,
    Paths,
    Product,
    Progress,
    Ran,
    Stage,
    StageError,
    Upstream,
    single,
)

if TYPE_CHECKING:  # the rest is imported when a stage runs, so `aceforge --help` starts fast
    from generators.llm.cached import CachedGenerator
    from generators.llm.config import BackendConfig
    from generators.rollouts.summary import RolloutSummary
    from runtime.executor import Executor
    from schemas.record import AgentRecord

QUARANTINE_FILE = "records.quarantine.parquet"  # in the pipeline, beside the rollouts (only if needed)


def load_generator(cfg: BackendConfig, needs_schema: bool = False, needs_tools: bool = False) -> CachedGenerator:
    """``cfg``'s cached generator; a backend that cannot serve what the run needs, or a model that does not load, is
    a StageError."""
    from generators.llm.backends import BACKENDS

    backend = cfg.backend_name()
    capabilities = BACKENDS.get(backend).capabilities
    if needs_schema and not capabilities.supports_json_schema:
        raise StageError(
            f"backend {backend} has no JSON-schema output; --tool-calls schema needs one (e.g. --backend vllm)"
        )
    if needs_tools and not capabilities.supports_tools:
        raise StageError(
            f"backend {backend} does not take tools; use --tool-calls schema with a backend that has JSON-schema output"
        )
    try:
        return cfg.make_generator()
    except (OSError, ValueError, ImportError) as exc:  # a model that is not there, an engine that will not start
        raise StageError(f"cannot load model {cfg.model!r} with backend {backend}: {one_line(exc)}") from exc


def policy_generator(cfg: PolicyConfig) -> CachedGenerator:
    """The generator of a policy whose agent or user calls a model; an llm agent's tool calls need the backend to
    take tools (native) or to give JSON-schema output (schema)."""
    llm = cfg.agent == "llm"
    return load_generator(cfg, llm and cfg.tool_calls == "schema", llm and cfg.tool_calls == "native")


def one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:300]


def synth_lines(stats: dict[str, Any]) -> list[str]:
    """What a person reads of a synthesis run's stats (tasks, backward, evolve, code): made, kept, rejected by reason."""
    reasons = ", ".join(f"{code} {count}" for code, count in stats["rejected_by_reason"].items()) or "none"
    lines = [f"made {stats['made']}, kept {stats['kept']}, rejected {stats['rejected']} ({reasons})"]
    if "trivial_pass_rate" in stats:
        lines.append(f"trivial-pass rate: {stats['trivial_pass_rate']:.1%} of gold-solved drafts (target 0; rejected)")
    if stats["scenario_fallbacks"]:
        lines.append(f"scenario fallbacks to templates: {stats['scenario_fallbacks']}")
    paraphrases = stats.get("paraphrases")  # code tasks have none
    if paraphrases and paraphrases["tried"]:
        lines.append(
            f"paraphrases kept {paraphrases['kept']} of {paraphrases['tried']}; "
            f"the rest keep their reason: {paraphrases['rejected_by_reason']}"
        )
    return lines


def tasks_run(inputs: dict[str, Any], outputs: Paths, cfg: SynthTasksConfig, executor, progress: Progress) -> Ran:
    """``dataset``: the records' dataset name (part of each record's id)."""
    from generators.synthesis.stages import run_tasks
    from schemas.io import write_records

    with progress(f"synthesizing {cfg.env} tasks", "tasks", cfg.n) as on_progress:
        records, stats = run_tasks(cfg, inputs["dataset"], on_progress)
    written = write_records(records, outputs["records"])
    counts = stats.as_dict()
    return Ran(counts, synth_lines(counts), [Product("records", outputs["records"], written, counts)])


def tasks_in_folders(upstream: Upstream, folders: Paths) -> tuple[dict[str, Any], Paths]:
    return {"dataset": f"synth_tasks_{upstream[ENVIRONMENT]}"}, {"records": folders["records"] / RECORDS_FILE}


def rollout_lines(agent: str, summary: dict[str, Any]) -> list[str]:
    acceptance = f"{summary['acceptance']:.1%}" if summary["acceptance"] is not None else "-"
    lines = [
        f"{summary['rollouts']} {agent} rollouts of {summary['tasks']} tasks: passed {summary['passed']}, failed "
        f"{summary['failed']}, undecided {summary['undecided']} (acceptance {acceptance}); leakage {summary['leakage']}"
    ]
    if summary["passed_unfinished"]:
        lines.append(f"passed without the user ending the conversation: {summary['passed_unfinished']}")
    for title in ("end_reasons", "verifier_reasons", "faults", "skipped_by_reason"):
        if summary[title]:
            lines.append(f"{title.replace('_', ' ')}: {', '.join(f'{code} {n}' for code, n in summary[title].items())}")
    return lines


def roll_out(
    tasks: list[AgentRecord],
    runs: list[tuple[RolloutConfig, list[AgentRecord], str]],
    inputs: dict[str, Any],
    outputs: Paths,
    executor: Executor | None,
    progress: Progress,
) -> tuple[int, dict[str, RolloutSummary]]:
    """Each run (its policy, its share of ``tasks``, the unit its progress counts) rolls its tasks out k times,
    verified; all their records go to one file, run after run. A record that is not a task goes to the quarantine
    once, with its reason and its position among the ``tasks`` read from ``source``. Returns the records written
    and each agent's summary."""
    from generators.rollouts.runner import run_rollouts
    from generators.rollouts.summary import RolloutSummary
    from schemas.io import LazyQuarantine, write_records

    position = {record.id: index for index, record in enumerate(tasks)}
    quarantine = LazyQuarantine(outputs["quarantine"])

    def skip(record: AgentRecord, reason: str) -> None:
        if record.id in position:  # each run skips it again
            quarantine.write(inputs["source"], position.pop(record.id), reason, record.model_dump(mode="json"))

    summaries: dict[str, RolloutSummary] = {}

    def records() -> Iterator[AgentRecord]:
        for cfg, chosen, unit in runs:
            summary = summaries[cfg.agent] = RolloutSummary()
            in_here = executor is None or not executor.spread  # else each of the executor's workers loads its own
            generator = policy_generator(cfg) if cfg.uses_model() and in_here else None
            total = len(chosen) * cfg.k
            try:
                with progress(f"rolling out ({cfg.agent} x {cfg.user})", unit, total) as on_progress:
                    rolled = run_rollouts(chosen, cfg, generator, inputs["dataset"], summary, skip, executor=executor)
                    for done, record in enumerate(rolled, 1):
                        on_progress(done, total)
                        yield record
            finally:
                if generator is not None:
                    generator.close()

    try:
        written = write_records(records(), outputs["records"])
    finally:
        quarantine.close()
    return written, summaries


def rollouts_run(inputs: dict[str, Any], outputs: Paths, cfg: RolloutsSection, executor, progress: Progress) -> Ran:
    """``tasks``: the tasks' records; ``source``: where they were read (the quarantine names it); ``dataset``: the
    rollouts' dataset name; ``generation``: what sets the backend of the runs that call a model (the pipeline's
    generation resource; None: each run's own)."""
    tasks, generation, runs = list(inputs["tasks"]), inputs.get("generation"), []
    for run in cfg.runs:
        chosen = tasks
        if run.uses_model():
            run = generation.apply(run) if generation is not None else run
            chosen = tasks[: cfg.model_tasks]
            if not chosen:
                continue
        runs.append((run, chosen, f"{run.agent} rollouts"))
    written, summaries = roll_out(tasks, runs, inputs, outputs, executor, progress)
    by_agent = {agent: summary.as_dict() for agent, summary in summaries.items()}
    counts = {"by_agent": by_agent, "passed_by_agent": {agent: s["passed"] for agent, s in by_agent.items()}}
    lines = [line for agent, summary in by_agent.items() for line in rollout_lines(agent, summary)]
    return Ran(counts, lines, [Product("records", outputs["records"], written, counts)])


def learner_run(inputs: dict[str, Any], outputs: Paths, cfg: PolicyConfig, executor, progress: Progress) -> Ran:
    """The learner's policy on every task (``rollouts_run``'s inputs, its own backend)."""
    run, tasks = RolloutConfig.model_validate(cfg.model_dump()), list(inputs["tasks"])
    written, summaries = roll_out(tasks, [(run, tasks, "rollouts")], inputs, outputs, executor, progress)
    summary = summaries[run.agent].as_dict()
    counts = {"learner": cfg.policy_id(), **summary}
    lines = [f"learner {cfg.policy_id()}", *rollout_lines(run.agent, summary)]
    return Ran(counts, lines, [Product("records", outputs["records"], written, counts)])


def rollouts_in_folders(dataset: str):
    """The ``from_assets`` of a stage that rolls out its partition's synthesized tasks (rollouts named
    ``<dataset>_<environment>``), with the generation resource where the pipeline gives it."""

    def in_folders(upstream: Upstream, folders: Paths) -> tuple[dict[str, Any], Paths]:
        tasks, records = upstream["tasks"], folders["records"] / RECORDS_FILE
        inputs = {
            "tasks": tasks,
            "source": str(single(tasks)),
            "dataset": f"{dataset}_{upstream[ENVIRONMENT]}",
            "generation": upstream.get("generation"),
        }
        return inputs, {"records": records, "quarantine": records.with_name(QUARANTINE_FILE)}

    return in_folders


TASKS = "Constraint-first tasks sampled from the environment's DB, each with a verified gold solution."
ROLLOUTS = "k rollouts per task and agent policy (agent x scripted user x environment), each verified."
LEARNER = "The declared learner's own rollouts, k per task, each verified: its pass rates (and only its) place \
complexity and choose the SFT and RL sets. The learner's id is the hash of this configuration."
ROLLED_OUT = (Out("quarantine", "quarantine"),)  # beside the records: the records that are not tasks
SYNTH_TASKS = Stage(
    "tasks", "synth_tasks", SynthTasksConfig, {}, (Out("records", "records", "synth_tasks", TASKS),),
    tasks_run, tasks_in_folders, scales_out=False, steps=True, partitioned=True
)  # fmt: skip
SYNTH_ROLLOUTS = Stage(
    "rollouts", "rollouts", RolloutsSection, {"tasks": "synth_tasks"},
    (Out("records", "records", "rollouts", ROLLOUTS), *ROLLED_OUT),
    rollouts_run, rollouts_in_folders("rollouts"), steps=True, partitioned=True
)  # fmt: skip
LEARNER_ROLLOUTS = Stage(
    "learner", "learner_rollouts", PolicyConfig, {"tasks": "synth_tasks"},
    (Out("records", "records", "learner_rollouts", LEARNER), *ROLLED_OUT),
    learner_run, rollouts_in_folders("learner_rollouts"), steps=True, partitioned=True
)  # fmt: skip
SYNTHESIS = (SYNTH_TASKS, SYNTH_ROLLOUTS, LEARNER_ROLLOUTS)
