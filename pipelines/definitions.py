"""Dagster Definitions of the aceforge pipelines (``dagster dev -f pipelines/definitions.py``).

The partitions come from the catalog entries at load time: the project's
demo entries, or the directory ``ACEFORGE_ENTRIES`` names. Set
``DAGSTER_HOME`` to ``<ACEFORGE_HOME>/dagster`` to keep Dagster's run history
beside the data (``aceforge run`` does).
"""

from __future__ import annotations

from pathlib import Path

from dagster import Definitions

from data_catalog.entries import load_entries
from pipelines.ingest_assets import build_ingest_assets


def build_definitions(entries_dir: str | Path | None = None) -> Definitions:
    converted = build_ingest_assets(load_entries(entries_dir))
    return Definitions(assets=[converted])


defs = build_definitions()
