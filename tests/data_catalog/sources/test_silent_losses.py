"""Issue 38, item 2: inputs that converted wrongly or were lost whole, each on a literal input."""

from __future__ import annotations

from data_catalog.sources import get_converter


def test_atif_observation_with_a_null_content_part_keeps_the_trajectory():
    trajectory = {
        "schema_version": "ATIF-v1.6",
        "session_id": "s1",
        "agent": {"name": "terminus", "version": "2"},
        "steps": [
            {"step_id": 1, "source": "user", "message": "Count the files."},
            {
                "step_id": 2,
                "source": "agent",
                "message": "",
                "tool_calls": [{"tool_call_id": "c1", "function_name": "count", "arguments": {}}],
                "observation": {
                    "results": [{"source_call_id": "c1", "content": [None, {"type": "text", "text": "3 files"}]}]
                },
            },
            {"step_id": 3, "source": "agent", "message": "There are 3 files."},
        ],
    }
    record = get_converter("atif").convert(trajectory)
    result = record.trajectory[2]
    assert (result.source, result.tool_call_id, result.content) == ("tool", "c1", "3 files")
    assert record.trajectory[-1].content == "There are 3 files."
