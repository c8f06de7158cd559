"""Synthesis as Dagster assets, partitioned by environment: tasks, then k rollouts per task and agent policy,
and the declared learner's own rollouts.

Thin wrappers: generators/synthesis and generators/rollouts do the work; the
assets write into their own folders and hand ``StoredRecords`` to the record
store (pipelines/assets/record_store.py), which registers and describes them.
"""

from collections import Counter
from collections.abc import Callable, Iterable
from itertools import chain
from pathlib import Path

from dagster import AssetExecutionContext, AssetIn, AssetsDefinition, StaticPartitionsDefinition, asset

from generators.rollouts.config import PolicyConfig, RolloutConfig
from generators.rollouts.runner import RolloutSummary, run_with_own_model
from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.stages import run_tasks
from pipelines.assets.config_schema import config_schema
from pipelines.assets.progress import engine_step, step_progress
from pipelines.assets.record_store import RECORDS_FILE, RecordSet, StoredRecords, asset_dir
from pipelines.assets.resources import GenerationResource, StorageResource
from pipelines.pipeline_config import PipelineConfig, RolloutsSection
from runtime.executor import Executor
from schemas.io import write_records
from schemas.record import AgentRecord


def build_synth_assets(defaults: PipelineConfig) -> list[AssetsDefinition]:
    environments = StaticPartitionsDefinition(defaults.environments)

    @asset(
        group_name="synthesize",
        partitions_def=environments,
        io_manager_key="record_store",
        config_schema=config_schema(SynthTasksConfig, defaults.tasks),
        description="Constraint-first tasks sampled from the environment's DB, each with a verified gold solution.",
        kinds={"python", "parquet"},
    )
    def synth_tasks(context: AssetExecutionContext, storage: StorageResource) -> StoredRecords:
        env = context.partition_key
        cfg = SynthTasksConfig.from_mapping({**context.op_execution_context.op_config, "env": env}, "run config")
        with storage.as_data_home():
            with step_progress(context, "tasks", cfg.n) as on_progress:
                records, stats = run_tasks(cfg, f"synth_tasks_{env}", on_progress)
            path = write_into(asset_dir(storage, context), records)
        context.log.info(f"{env}: {stats.as_dict()}")
        return StoredRecords(path, stats.as_dict(), config=cfg)

    # What the assets that roll the synthesized tasks out share.
    from_tasks = {
        "group_name": "synthesize",
        "partitions_def": environments,
        "io_manager_key": "record_store",
        "ins": {"tasks": AssetIn("synth_tasks")},
        "kinds": {"python", "parquet"},
    }

    @asset(
        config_schema=config_schema(RolloutsSection, defaults.rollouts),
        description="k rollouts per task and agent policy (agent x scripted user x environment), each verified.",
        **from_tasks,
    )
    def rollouts(
        context: AssetExecutionContext, tasks: RecordSet, storage: StorageResource, generation: GenerationResource
    ) -> StoredRecords:
        section = RolloutsSection.from_mapping(context.op_execution_context.op_config, "run config")
        env = context.partition_key
        runs, summaries, every_task = [], {}, list(tasks)
        with storage.as_data_home():
            for cfg in section.runs:
                chosen = every_task
                if cfg.uses_model():
                    cfg = generation.apply(cfg)
                    chosen = every_task[: section.model_tasks]
                    if not chosen:
                        continue
                unit, total = f"{cfg.agent} rollouts", len(chosen) * cfg.k
                with (
                    engine_step(context, defaults.executor) as executor,
                    step_progress(context, unit, total) as on_progress,
                ):
                    records, summary = roll(chosen, cfg, f"rollouts_{env}", on_progress, executor)
                runs.append(records)
                summaries[cfg.agent] = summary.as_dict()
                context.log.info(f"{env} {cfg.agent}: {summary.as_dict()}")
            path = write_into(asset_dir(storage, context), chain.from_iterable(runs))
        verdicts = Counter({agent: s["passed"] for agent, s in summaries.items()})
        counts = {"by_agent": summaries, "passed_by_agent": dict(verdicts)}
        return StoredRecords(path, counts, tasks.paths, section)

    @asset(
        config_schema=config_schema(PolicyConfig, defaults.learner),
        description="The declared learner's own rollouts, k per task, each verified: its pass rates (and only its) "
        "place complexity and choose the SFT and RL sets. The learner's id is the hash of this configuration.",
        **from_tasks,
    )
    def learner_rollouts(context: AssetExecutionContext, tasks: RecordSet, storage: StorageResource) -> StoredRecords:
        policy = PolicyConfig.from_mapping(context.op_execution_context.op_config, "run config")
        env = context.partition_key
        cfg = RolloutConfig.model_validate(policy.model_dump())
        with storage.as_data_home():
            every_task = list(tasks)
            with (
                engine_step(context, defaults.executor) as executor,
                step_progress(context, "rollouts", len(every_task) * cfg.k) as on_progress,
            ):
                records, summary = roll(every_task, cfg, f"learner_rollouts_{env}", on_progress, executor)
            path = write_into(asset_dir(storage, context), records)
        context.log.info(f"{env} learner {policy.policy_id()}: {summary.as_dict()}")
        return StoredRecords(path, {"learner": policy.policy_id(), **summary.as_dict()}, tasks.paths, policy)

    return [synth_tasks, rollouts, learner_rollouts]


def roll(
    tasks: list[AgentRecord],
    cfg: RolloutConfig,
    dataset: str,
    on_progress: Callable[[int, int], None],
    executor: Executor | None = None,
) -> tuple[list[AgentRecord], RolloutSummary]:
    """k rollouts per task under ``cfg`` (with its own model, when its agent or user calls one), and their summary."""
    summary, records = RolloutSummary(), []
    total = len(tasks) * cfg.k
    for record in run_with_own_model(tasks, cfg, dataset, summary, executor):
        records.append(record)
        on_progress(len(records), total)
    return records, summary


def write_into(folder: Path, records: Iterable[AgentRecord]) -> Path:
    path = folder / RECORDS_FILE
    write_records(records, path)
    return path
