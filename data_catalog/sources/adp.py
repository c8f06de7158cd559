"""ADP v1 standardized trajectories (``sample_std.json`` / ADP JSONL), including aceforge's own ADP exports."""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import Converter, register, require
from schemas.adp import record_from_adp
from schemas.record import AgentRecord


@register
class AdpConverter(Converter):
    name = "adp"
    description = "Agent Data Protocol v1 standardized trajectories ({id, content: [steps], details})."
    layouts = (
        "ADP v1 trajectories: a JSON array (sample_std.json) or JSONL of {id, content: [steps], details}",
        "aceforge's export-adp output: E, q, v and tool_call_ids come back from its aceforge.* details",
    )

    def convert(self, raw: Any) -> AgentRecord:
        original_id = require(raw, "id", (str, int))
        require(raw, "content", list)
        return record_from_adp(raw, self.dataset, self.opts.license, id=self.record_id(original_id, raw))
