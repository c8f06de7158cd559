"""``aceforge export hub``: a record dataset as a Hugging Face Hub dataset repository.

Builds the Hub-ready folder (Parquet shards per config and split, the ``sft``
config of chats and the ``preference`` config of chosen/rejected pairs, README.md
dataset card, recipe.yaml, plots), loads it back with ``datasets`` offline to
check the row counts, and uploads it unless ``--dry-run``. Exit codes: 0 done,
1 when the check or the upload failed, 2 on usage errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from data_catalog.hub_config import HubExportConfig
from pipelines.cli.common import FAILED, fail, out, plain_text, print_json, say
from pipelines.cli.config import with_config
from pipelines.cli.export import export_app
from pipelines.cli.records import check_file
from schemas.stage_config import ConfigError, read_yaml

if TYPE_CHECKING:
    from data_catalog.hub_export import ExportSource, HubFolder


class HubExportCommand(HubExportConfig):
    """``aceforge export hub``."""

    catalog: bool = True
    """Register the folder's shards in the DuckDB catalog of the data directory."""


@export_app.command("hub")
@with_config(HubExportCommand)
def hub(
    cfg: HubExportCommand,
    dataset: Annotated[
        str, typer.Argument(help="A record Parquet file, or a catalog dataset: NAME (latest version) or NAME__vN.")
    ],
    repo_id: Annotated[str, typer.Option("--repo-id", help="Hub dataset repository, ORG/NAME.")],
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Folder to build (default: <data dir>/exports/hub/ORG__NAME).")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Build the folder and check it with `datasets`; upload nothing.")
    ] = False,
    summary: Annotated[
        Path | None, typer.Option("--summary", help="Markdown ACE summary for the card (e.g. from `aceforge report`).")
    ] = None,
    plots: Annotated[
        list[Path] | None,
        typer.Option(
            "--plot",
            help="PNG plot for the card (repeatable); copied into plots/. Default: the images --summary shows, "
            "beside it (`aceforge report` writes them there).",
        ),
    ] = None,
    run_config: Annotated[
        Path | None, typer.Option("--run-config", help="YAML config of the run that made the data, for the recipe.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON line on stdout.")] = False,
) -> None:
    """Export a record dataset to the Hugging Face Hub: shards, dataset card, recipe; --dry-run builds and checks only.

    The token comes from HF_TOKEN or `hf auth login` and is never printed.
    """
    from data_catalog.dataset_card import FILE_IMAGE
    from data_catalog.hub_export import (
        HubExportError,
        build_hub_folder,
        check_hub_folder,
        check_repo_id,
        default_out_dir,
        resolve_source,
    )
    from training.export_openai import chat_row
    from training.preference import preference_rows

    if Path(dataset).expanduser().exists():  # a path, not a catalog name: the check every record file gets
        check_file(Path(dataset).expanduser())
    try:
        check_repo_id(repo_id)
        source = resolve_source(dataset)
        summary_text = summary.read_text() if summary else None
        if summary_text and not plots:  # the summary's image links are relative to its own folder
            plots = [summary.parent / m[2] for m in FILE_IMAGE.finditer(summary_text)]
        run_cfg = read_yaml(run_config) if run_config else None
    except (HubExportError, ConfigError) as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot read {exc.filename}: {exc.strerror}")
    folder_path = out_dir or default_out_dir(repo_id)
    say(f"building {folder_path} from {source.label}")
    try:
        folder = build_hub_folder(
            source, folder_path, repo_id, cfg, summary_text, plots or (), run_cfg, chat_row, preference_rows
        )
    except HubExportError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {folder_path}: {exc}", FAILED)
    try:
        check_hub_folder(folder)
    except HubExportError as exc:
        fail(str(exc), FAILED)
    say(f"checked: datasets reads {folder.stats.rows:,} rows back, as written")
    result = {"folder": str(folder.path), "rows": folder.stats.rows, "splits": _splits(folder), "uploaded": False}
    if not dry_run:
        result.update(_upload(folder, cfg))  # a failed upload exits here: nothing is registered for it
    if cfg.catalog:
        result["catalog"] = _register(folder, source)
    if as_json:
        print_json(result)
    else:
        _show(folder)


def _upload(folder: HubFolder, cfg: HubExportConfig) -> dict[str, object]:
    from data_catalog.hub_export import HubExportError
    from data_catalog.hub_upload import upload_hub_folder

    say(f"uploading {folder.path} to {folder.repo_id}")
    try:
        uploaded = upload_hub_folder(
            folder.path, folder.repo_id, private=cfg.private, commit_message=cfg.commit_message
        )
    except HubExportError as exc:
        fail(str(exc), FAILED)
    say(f"uploaded {uploaded.files} files: {uploaded.commit_url}")
    return {"uploaded": True, "repo_url": uploaded.repo_url, "commit_url": uploaded.commit_url}


def _register(folder: HubFolder, source: ExportSource) -> str | None:
    from data_catalog.catalog import Catalog
    from pipelines.registrar import register_hub_folder

    try:
        entry = register_hub_folder(folder, source, Catalog())
    except Exception as exc:  # the export itself succeeded: say so, don't fail it
        say(f"warning: could not register the export in the catalog: {exc}")
        return None
    say(f"registered as {entry.name} (version {entry.version}) in the catalog")
    return f"{entry.name}@{entry.version}"


def _splits(folder: HubFolder) -> dict[str, int]:
    return {f"{config}/{split}": rows for (config, split), rows in sorted(folder.rows_by_split().items())}


def _show(folder: HubFolder) -> None:
    table = Table("config", "split", "rows", "shards", title=plain_text(folder.path))
    for (config, split), rows in sorted(folder.rows_by_split().items()):
        shards = sum(1 for s in folder.shards if (s.config, s.split) == (config, split))
        table.add_row(plain_text(config), plain_text(split), f"{rows:,}", str(shards))
    out.print(table)
