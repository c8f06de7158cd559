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


def test_the_reply_to_a_command_is_environment_in_sharegpt_as_in_mini_swe_agent():
    conversation = {
        "conversations": [
            {"from": "human", "value": "How many files are there?"},
            {"from": "gpt", "value": "Let me look.\n<execute>\nls | wc -l\n</execute>"},
            {"from": "human", "value": "3"},
            {"from": "gpt", "value": "There are 3 files."},
        ]
    }
    sharegpt = get_converter("sharegpt").convert(conversation).trajectory
    assert [s.class_ for s in sharegpt[1:3]] == ["code_action", "text_observation"]
    assert (sharegpt[2].source, sharegpt[2].content) == ("environment", "3")
    mini = (
        get_converter("mini_swe_agent")
        .convert(
            {
                "messages": [
                    {"role": "user", "content": "How many files are there?"},
                    {"role": "assistant", "content": "THOUGHT: look.\n```bash\nls | wc -l\n```"},
                    {"role": "user", "content": "3"},
                ]
            }
        )
        .trajectory
    )
    assert (mini[2].source, mini[2].content) == (sharegpt[2].source, sharegpt[2].content)
