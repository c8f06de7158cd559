"""Export a record dataset as a Hugging Face Hub dataset repository: build the folder, check it, upload it.

The registry's ``hub`` target (exporters/registry.py). hub_folder.py builds the folder (Parquet shards per
config and split, the ``sft`` config of chats and the ``preference`` config of chosen/rejected pairs, README.md
dataset card, recipe.yaml, plots) and loads it back with ``datasets`` offline to check the row counts;
hub_upload.py uploads it. Whoever exports registers the folder in the catalog (pipelines/registrar.py: a
record dataset of its own).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from exporters.dpo import preference_rows
from exporters.hub_config import HubExportConfig
from exporters.hub_folder import (
    ExportSource,
    HubExportError,
    build_hub_folder,
    check_hub_folder,
    check_repo_id,
    resolve_source,
)
from exporters.hub_upload import upload_hub_folder
from exporters.openai import chat_row


class HubExportFailed(HubExportError):
    """The source and settings were good, but the export did not finish: the folder does not read back as
    written, or the upload failed."""


def export(
    source: str | Path | ExportSource,
    output: Path,
    *,
    repo_id: str,
    config: HubExportConfig,
    summary: str | None = None,
    plots: Sequence[Path] = (),
    run_config: dict[str, Any] | None = None,
    upload: bool = True,
    say: Callable[[str], None] = lambda line: None,
) -> dict[str, Any]:
    """The registry's entry: the Hub folder of ``source`` (a record Parquet file, or a catalog dataset: NAME for
    its latest version, NAME__vN; or the files of an ``ExportSource``, the pipeline's selected sets) written at
    ``output`` and checked; uploaded to ``repo_id`` when ``upload``;
    ``summary`` (Markdown) and ``plots`` go into the card,
    ``run_config`` into the recipe; ``say`` hears each step.

    Raises HubExportError for a source or settings that cannot be exported (nothing is uploaded), HubExportFailed
    when the check or the upload fails, OSError when the folder cannot be written.
    """
    check_repo_id(repo_id)
    found = source if isinstance(source, ExportSource) else resolve_source(str(source))
    say(f"building {output} from {found.label}")
    folder = build_hub_folder(found, output, repo_id, config, summary, plots, run_config, chat_row, preference_rows)
    try:
        check_hub_folder(folder)
    except HubExportError as exc:
        raise HubExportFailed(str(exc)) from exc
    say(f"checked: datasets reads {folder.stats.rows:,} rows back, as written")
    counts = folder.rows_by_split()
    result: dict[str, Any] = {
        "folder": str(folder.path),
        "rows": folder.stats.rows,
        "splits": {f"{c}/{s}": rows for (c, s), rows in sorted(counts.items())},
        "shards": {
            f"{c}/{s}": sum(1 for x in folder.shards if (x.config, x.split) == (c, s)) for c, s in sorted(counts)
        },
        "uploaded": False,
    }
    if upload:  # a failed upload raises here: nothing is registered for it
        say(f"uploading {folder.path} to {repo_id}")
        try:
            done = upload_hub_folder(folder.path, repo_id, private=config.private, commit_message=config.commit_message)
        except HubExportError as exc:
            raise HubExportFailed(str(exc)) from None  # its text is redacted; the chained cause might not be
        say(f"uploaded {done.files} files: {done.commit_url}")
        result.update(uploaded=True, repo_url=done.repo_url, commit_url=done.commit_url)
    return result
