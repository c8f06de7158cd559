"""Publishing as Dagster assets: the Hub-ready folder of the selected sets, and the verl export of the RL set.

Each runs its exporter as the commands do (``exporters.registry.EXPORTERS``: ``aceforge export hub`` and
``aceforge export verl``), on the pipeline's own files. The folder is checked by loading it back with
``datasets``; uploading it is ``aceforge export hub DATASET --repo-id ...`` (a person decides to publish).
"""

from pathlib import Path

from dagster import AssetExecutionContext, AssetIn, AssetsDefinition, MaterializeResult, MetadataValue, asset

from exporters.hub_config import HubExportConfig
from exporters.hub_folder import ExportSource
from exporters.registry import EXPORTERS
from pipelines.assets.config_schema import config_schema
from pipelines.assets.record_store import RecordSet, asset_dir, without_file_images
from pipelines.assets.resources import StorageResource
from pipelines.pipeline_config import PipelineConfig
from pipelines.stages import single


def build_publish_assets(defaults: PipelineConfig) -> list[AssetsDefinition]:
    @asset(
        group_name="publish",
        ins={
            "sft": AssetIn("sft_set"),
            "rl": AssetIn("rl_set"),
            "report": AssetIn("ace_report", input_manager_key="recorded_folder"),
        },
        config_schema=config_schema(HubExportConfig, defaults.hub),
        description="The selected sets as a Hugging Face dataset folder: Parquet shards, dataset card, recipe.",
        kinds={"parquet", "huggingface"},
    )
    def hub_folder(
        context: AssetExecutionContext, sft: RecordSet, rl: RecordSet, report: Path, storage: StorageResource
    ):
        cfg = HubExportConfig.from_mapping(context.op_execution_context.op_config, "run config")
        summary = (report / "summary.md").read_text() if (report / "summary.md").exists() else None
        source = ExportSource("selected sets (sft_set + rl_set)", [*sft.paths, *rl.paths])
        with storage.as_data_home():  # paths in the card and recipe are written relative to it
            result = EXPORTERS.get("hub")(
                source,
                asset_dir(storage, context) / "folder",
                repo_id=defaults.hub_repo_id,
                config=cfg,
                upload=False,  # a person decides to publish: `aceforge export hub`
                summary=summary,
                plots=sorted(report.glob("*.png")),
                say=context.log.info,
            )
        card = (Path(result["folder"]) / "README.md").read_text()
        return MaterializeResult(
            metadata={
                "folder": MetadataValue.path(result["folder"]),
                "rows_by_config_split": MetadataValue.json(result["splits"]),
                "card": MetadataValue.md(without_file_images(card, "in the folder; ace_report shows it")),
                "publish_with": f"aceforge export hub sft_set --repo-id {defaults.hub_repo_id}",
            }
        )

    @asset(
        group_name="publish",
        ins={"rl": AssetIn("rl_set")},
        description="The RL set in verl's Parquet layout (prompt, reward_model, extra_info with tools and interaction).",
        kinds={"parquet"},
    )
    def verl_export(context: AssetExecutionContext, rl: RecordSet, storage: StorageResource):
        with storage.as_data_home():  # an empty RL set (the learner solves all or nothing) writes empty files
            counts = EXPORTERS.get("verl")(single(rl), asset_dir(storage, context), allow_empty=True)
        return MaterializeResult(
            metadata={k: MetadataValue.json(v) if isinstance(v, dict) else v for k, v in counts.items()}
        )

    return [hub_folder, verl_export]
