"""Synthesis as Dagster assets, partitioned by environment: tasks, then k rollouts per task and agent policy, and the
declared learner's own rollouts.

Each asset is made by ``stage_asset`` (pipelines/assets/curate.py) from a stage of pipelines/stages/synth.py, the
same definitions ``aceforge synth tasks`` and ``synth rollouts`` are made from; it runs its stage into its own
folder and hands ``StoredRecords`` to the record store (pipelines/assets/record_store.py), which registers and
describes them.
"""

from dagster import AssetsDefinition

from pipelines.assets.curate import stage_asset
from pipelines.pipeline_config import PipelineConfig
from pipelines.stages.synth import SYNTHESIS


def build_synth_assets(defaults: PipelineConfig) -> list[AssetsDefinition]:
    return [stage_asset(stage, defaults, "synthesize") for stage in SYNTHESIS]
