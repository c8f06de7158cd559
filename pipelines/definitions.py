"""Dagster Definitions of the aceforge pipeline (``aceforge ui``, or ``dagster dev`` in the repository).

The graph of ../shared/DESIGN.md's data flow: ``converted`` (one partition per
catalog entry: the demo entries, or the directory ``ACEFORGE_ENTRIES`` names)
and ``synth_tasks`` -> ``rollouts`` (one partition per environment) feed
``verified`` -> ``scored`` -> ``deduplicated`` -> ``sft_set`` / ``rl_set`` ->
``ace_report``, ``hub_folder`` and ``verl_export``. Jobs: ingest, synthesize,
curate, publish, and improve (pipelines/improve_job.py, not a step of the main
job). Blocking checks (schema_valid, duplicate_rate, sft_set_verified) stand before what feeds training or publishing. Run config
defaults are those of ``PipelineConfig()``; resources read the environment
(``ACEFORGE_HOME``, ``ACEFORGE_BACKEND``, ``ACEFORGE_MODEL``, ``ACEFORGE_BASE_URL``).
"""

from __future__ import annotations

from pathlib import Path

from dagster import AssetSelection, Definitions, define_asset_job

from data_catalog.entries import load_entries
from pipelines.assets.curate import build_curate_assets
from pipelines.assets.ingest import build_ingest_assets
from pipelines.assets.publish import build_publish_assets
from pipelines.assets.record_store import RecordStore, recorded_folder
from pipelines.assets.resources import EmbedderResource, GenerationResource, StorageResource
from pipelines.assets.synth import build_synth_assets
from pipelines.improve_job import improve
from pipelines.pipeline_config import PipelineConfig

# One job per asset group; pipelines/catalog_names.py's JOB_ASSETS lists each job's assets (a test keeps them equal).
JOBS = {name: AssetSelection.groups(name) for name in ("ingest", "synthesize", "curate", "publish")}


def build_assets(entries_dir: str | Path | None = None, defaults: PipelineConfig | None = None) -> list:
    defaults = defaults or PipelineConfig()
    return [
        build_ingest_assets(load_entries(entries_dir), defaults.executor),
        *build_synth_assets(defaults),
        *build_curate_assets(defaults),
        *build_publish_assets(defaults),
    ]


def build_resources(storage: StorageResource | None = None, generation: GenerationResource | None = None) -> dict:
    storage = storage or StorageResource()
    return {
        "storage": storage,
        "generation": generation or GenerationResource.from_env(),
        "embedder": EmbedderResource(),
        "record_store": RecordStore(storage=storage),
        "recorded_folder": recorded_folder,
    }


def build_definitions(
    entries_dir: str | Path | None = None,
    defaults: PipelineConfig | None = None,
    storage: StorageResource | None = None,
) -> Definitions:
    """The graph, its jobs and resources: what ``aceforge ui`` shows and what ``aceforge run`` launches."""
    return Definitions(
        assets=build_assets(entries_dir, defaults),
        jobs=[*(define_asset_job(name, selection) for name, selection in JOBS.items()), improve],
        resources=build_resources(storage),
    )


defs = build_definitions()
