"""Catalog entries: one YAML file per raw source, saying where it is and how to read it.

An entry names the source (also its Dagster partition and catalog dataset),
its format (a registered converter), the input paths, the licence, and the
format's options. Paths are absolute or relative to the entry's own file,
may be globs, and may start with ``{data_home}`` (the data directory, see
runtime/settings.py), which is where the generated demo sources live::

    name: demo_bookstore_chat
    format: openai_chat
    paths: ["{data_home}/demo/raw/bookstore_chat.jsonl"]
    license: CC0-1.0
    description: Generated bookstore support chats with tool calls.
    options: {}

Unknown keys are an error, so a typo never silently changes a run. This
directory holds the project's own (demo) entries; ``ACEFORGE_ENTRIES`` points
the pipelines at another directory of entries.
"""

from __future__ import annotations

import glob
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from data_catalog.sources import formats
from data_catalog.sources.base import ConvertOptions
from runtime.settings import data_home

ENV_VAR = "ACEFORGE_ENTRIES"
PACKAGE_DIR = Path(__file__).resolve().parent


class EntryError(ValueError):
    """A catalog entry file that cannot be used, with the file named in the message."""


class CatalogEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="Source name: partition key and catalog dataset name.")
    format: str = Field(description="A registered format (see `aceforge formats`).")
    paths: list[str] = Field(min_length=1, description="Input files or globs; relative to this entry's file.")
    license: str = Field(min_length=1, description="Licence of the raw data (SPDX id where there is one).")
    description: str = ""
    options: dict[str, str | int | float | bool] = Field(default_factory=dict, description="Format options.")
    # Value written to each record's source.dataset; the entry name when absent.
    dataset: str | None = None
    # "demo": the files are written by data_catalog/demo.py when missing (the project's own demo sources).
    generated_by: Literal["demo"] | None = None
    # The file this entry was read from (set by the loader; relative paths start there).
    file: Path | None = Field(default=None, exclude=True)

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        known = formats()
        if value not in known:
            raise ValueError(f"unknown format {value!r}; known formats: {', '.join(known)}")
        return value

    def convert_options(self) -> ConvertOptions:
        extra = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in self.options.items()}
        return ConvertOptions(dataset=self.dataset or self.name, license=self.license, extra=extra)

    def resolve_paths(self) -> list[str]:
        """The input files, globs expanded in sorted order; FileNotFoundError names what matched nothing."""
        base = self.file.parent if self.file else Path.cwd()
        files: list[str] = []
        for pattern in self.paths:
            expanded = os.path.expanduser(pattern.replace("{data_home}", str(data_home())))
            full = expanded if os.path.isabs(expanded) else str(base / expanded)
            matches = (
                sorted(glob.glob(full, recursive=True))
                if glob.has_magic(full)
                else [full]
                if os.path.exists(full)
                else []
            )
            if not matches:
                raise FileNotFoundError(f"source {self.name!r}: no input matches {full}")
            files.extend(matches)
        return files


def default_entries_dir() -> Path:
    return Path(os.environ[ENV_VAR]) if os.environ.get(ENV_VAR) else PACKAGE_DIR


def load_entry(path: str | Path) -> CatalogEntry:
    from schemas.stage_config import ConfigError, load_yaml

    path = Path(path).resolve()
    try:
        data = load_yaml(path.read_text(), "the entry")
    except (OSError, ConfigError) as exc:
        raise EntryError(f"{path}: cannot read YAML: {exc}") from None
    if not isinstance(data, dict):
        raise EntryError(f"{path}: expected a mapping of entry fields, got {type(data).__name__}")
    try:
        return CatalogEntry.model_validate({**data, "file": path})
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in exc.errors())
        raise EntryError(f"{path}: {problems}") from None


def load_entries(directory: str | Path | None = None) -> list[CatalogEntry]:
    """Every entry (``*.yaml``/``*.yml``) in ``directory``, sorted by name; names must be unique."""
    directory = Path(directory) if directory else default_entries_dir()
    if not directory.is_dir():
        raise EntryError(f"catalog entry directory not found: {directory}")
    entries = [load_entry(p) for p in sorted([*directory.glob("*.yaml"), *directory.glob("*.yml")])]
    seen: dict[str, Path | None] = {}
    for entry in entries:
        if entry.name in seen:
            raise EntryError(f"source name {entry.name!r} is used by both {seen[entry.name]} and {entry.file}")
        seen[entry.name] = entry.file
    return sorted(entries, key=lambda e: e.name)
