"""``aceforge export hub``: a record dataset as a Hugging Face Hub dataset repository.

Builds the Hub-ready folder (Parquet shards per config and split, the ``sft``
config of chats and the ``preference`` config of chosen/rejected pairs, README.md
dataset card, recipe.yaml, plots), loads it back with ``datasets`` offline to
check the row counts, and uploads it unless ``--dry-run``: the ``hub`` exporter (exporters/hub.py), called
through ``exporters.registry.EXPORTERS``. Exit codes: 0 done,
1 when the check or the upload failed, 2 on usage errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from exporters.hub_config import HubExportConfig
from pipelines.cli.common import FAILED, fail, out, plain_text, print_json, say
from pipelines.cli.config import with_config
from pipelines.cli.export import export_app
from pipelines.cli.records import check_file
from schemas.stage_config import ConfigError, read_yaml


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
    from exporters.hub import HubExportFailed
    from exporters.hub_folder import HubExportError, default_out_dir
    from exporters.registry import EXPORTERS

    if Path(dataset).expanduser().exists():  # a path, not a catalog name: the check every record file gets
        check_file(Path(dataset).expanduser())
    try:
        summary_text = summary.read_text() if summary else None
        if summary_text and not plots:  # the summary's image links are relative to its own folder
            plots = [summary.parent / m[2] for m in FILE_IMAGE.finditer(summary_text)]
        run_cfg = read_yaml(run_config) if run_config else None
    except ConfigError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot read {exc.filename}: {exc.strerror}")
    folder_path = out_dir or default_out_dir(repo_id)
    try:
        result = EXPORTERS.get("hub")(
            dataset,
            folder_path,
            repo_id=repo_id,
            config=cfg,
            upload=not dry_run,
            summary=summary_text,
            plots=plots or (),
            run_config=run_cfg,
            say=say,
        )
    except HubExportFailed as exc:
        fail(str(exc), FAILED)
    except HubExportError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {folder_path}: {exc}", FAILED)
    if cfg.catalog:
        _register(result, dataset, repo_id)
    if as_json:
        print_json(result)
    else:
        _show(result)


def _register(result: dict[str, Any], dataset: str, repo_id: str) -> None:
    """The exported folder in the catalog (a warning, not a failure, when the catalog cannot take it)."""
    from data_catalog.catalog import Catalog
    from exporters.hub_folder import resolve_source
    from pipelines.registrar import register_hub_folder

    try:
        entry = register_hub_folder(result, repo_id, resolve_source(dataset), Catalog())
    except Exception as exc:  # the export itself succeeded: say so, don't fail it
        say(f"warning: could not register the export in the catalog: {exc}")
        return
    say(f"registered as {entry.name} (version {entry.version}) in the catalog")
    result["catalog"] = f"{entry.name}@{entry.version}"


def _show(result: dict[str, Any]) -> None:
    table = Table("config", "split", "rows", "shards", title=plain_text(result["folder"]))
    for name, rows in result["splits"].items():
        config, split = name.split("/")
        table.add_row(plain_text(config), plain_text(split), f"{rows:,}", str(result["shards"][name]))
    out.print(table)
