"""Exporters by target: ``EXPORTERS.get("verl")(source, output, **options)`` writes a record dataset for another tool.

Every exporter has one shape, the one each ``aceforge export ...`` command calls:

    export(source, output, **options) -> summary

- ``source``: the dataset as the user named it: a record file (Parquet or JSONL; the trainer targets also take
  chat files); the Hub target also takes a catalog dataset name;
- ``output``: the file or folder to write (the Hub target: None for its default folder);
- ``options``: the target's own keywords (``split``, ``rendering``, ``allow_empty``, ``repo_id``, ...);
- ``summary``: what was written, as one JSON-able dict (the command prints it).

A bad source raises the reading module's error with a one-line message (training.inputs.InputError,
schemas.versions.SchemaError, exporters.hub_folder.HubExportError, exporters.per_record.RecordNotExported).
``EXPORTERS`` is a runtime/plugins.py registry: the built-ins are lazy ``"module:function"`` paths, and an
installed package adds a target through the ``aceforge.exporters`` entry points.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from runtime.plugins import Registry

Exporter = Callable[..., dict[str, Any]]


def _check_exporter(name: str, obj: Any) -> None:
    if not callable(obj):
        raise TypeError(f"{obj!r} is not a function that exports (source, output, **options)")


EXPORTERS: Registry[Exporter] = Registry(
    "exporters",
    "exporter",
    {
        "adp": "exporters.adp:export",
        "atif": "exporters.atif:export",
        "dpo": "exporters.dpo:export",
        "hub": "exporters.hub:export",
        "openai": "exporters.openai:export",
        "sharegpt": "exporters.sharegpt:export",
        "verl": "exporters.verl:export",
    },
    check=_check_exporter,
)
