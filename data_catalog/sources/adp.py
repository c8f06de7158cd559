"""ADP v1 standardized trajectories (``sample_std.json`` / ADP JSONL)."""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import Converter, register, require
from schemas.adp import record_from_adp
from schemas.record import AgentRecord


@register
class AdpConverter(Converter):
    name = "adp"
    description = "Agent Data Protocol v1 standardized trajectories ({id, content: [steps], details})."

    def convert(self, raw: Any) -> AgentRecord:
        require(raw, "id", (str, int))
        require(raw, "content", list)
        return record_from_adp(raw, dataset=self.opts.dataset, license=self.opts.license)
