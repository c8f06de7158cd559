"""Publishing as Dagster assets: the Hub-ready folder of the selected sets, and the verl export of the RL set.

The folder is checked by loading it back with ``datasets``; uploading it is
``aceforge export hub DATASET --repo-id ...`` (a person decides to publish).
"""

from pathlib import Path

from dagster import AssetExecutionContext, AssetIn, AssetsDefinition, MaterializeResult, MetadataValue, asset

from exporters.hub_config import HubExportConfig
from exporters.hub_folder import ExportSource, build_hub_folder, check_hub_folder
from exporters.verl import export_verl
from pipelines.assets.config_schema import config_schema
from pipelines.assets.record_store import RecordSet, asset_dir, without_file_images
from pipelines.assets.resources import StorageResource
from pipelines.pipeline_config import PipelineConfig


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
        from exporters.openai import chat_row

        cfg = HubExportConfig.from_mapping(context.op_execution_context.op_config, "run config")
        summary = (report / "summary.md").read_text() if (report / "summary.md").exists() else None
        out = asset_dir(storage, context) / "folder"
        source = ExportSource("selected sets (sft_set + rl_set)", [*sft.paths, *rl.paths])
        with storage.as_data_home():  # paths in the card and recipe are written relative to it
            folder = build_hub_folder(
                source,
                out,
                defaults.hub_repo_id,
                cfg,
                summary=summary,
                plots=sorted(report.glob("*.png")),
                to_chat=chat_row,
            )
            read = check_hub_folder(folder)
        return MaterializeResult(
            metadata={
                "folder": MetadataValue.path(str(folder.path)),
                "rows_by_config_split": MetadataValue.json({f"{c}/{s}": n for (c, s), n in read.items()}),
                "card": MetadataValue.md(
                    without_file_images((folder.path / "README.md").read_text(), "in the folder; ace_report shows it")
                ),
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
        with storage.as_data_home():
            counts = export_verl(iter(rl), asset_dir(storage, context))
        return MaterializeResult(
            metadata={k: MetadataValue.json(v) if isinstance(v, dict) else v for k, v in counts.items()}
        )

    return [hub_folder, verl_export]
