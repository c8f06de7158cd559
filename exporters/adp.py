"""Export records as ADP v1 JSONL (ADP's own schema: class_ fields, details as strings): schemas/adp.py says how."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from exporters.per_record import write_each
from schemas.adp import record_to_adp


def export(source: Path, output: Path) -> dict[str, Any]:
    """The registry's entry (exporters/registry.py): every record of ``source`` as one ADP line of ``output``."""
    return {"format": "adp", **write_each(source, output, record_to_adp)}
