"""ADP v1 standardized trajectories (``sample_std.json`` / ADP JSONL), including aceforge's own ADP exports."""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import Converter, Detected, register, require
from schemas.adp import exported_id, record_from_adp
from schemas.record import AgentRecord


@register
class AdpConverter(Converter):
    name = "adp"
    description = "Agent Data Protocol v1 standardized trajectories ({id, content: [steps], details})."
    layouts = (
        "ADP v1 trajectories: a JSON array (sample_std.json) or JSONL of {id, content: [steps], details}",
        "aceforge's export-adp output: E, q, v, tool_call_ids and the record's id (while the record is "
        "unchanged) come back from its aceforge.* details",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        content = value.get("content") if isinstance(value, dict) and "id" in value else None
        if isinstance(content, list) and content and isinstance(content[0], dict) and "class_" in content[0]:
            return 3, "ADP v1 trajectory"
        return None

    def convert(self, raw: Any) -> AgentRecord:
        original_id = require(raw, "id", (str, int))
        require(raw, "content", list)
        record_id = exported_id(raw) or self.record_id(original_id, raw)
        return record_from_adp(raw, self.dataset, self.opts.license, id=record_id)
