"""Exports for other trainers, read back field by field on known records; the CLI commands on the same files."""

from __future__ import annotations

import json

import pyarrow.parquet as pq

from schemas.io import write_records
from schemas.steps import ApiAction
from tests.pipelines.cli_helpers import invoke, last_json
from tests.training.helpers import CANCEL_TOOL, ORDER_TOOL, literal_record, retail_cancel_task
from training.export_openai import export_openai
from training.export_sharegpt import export_sharegpt
from training.export_verl import export_verl

FUNCTIONS = [t.model_dump(include={"name", "description", "parameters"}) for t in (ORDER_TOOL, CANCEL_TOOL)]


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def _unknown_tool_record():
    record = literal_record("bad")
    record.trajectory[1] = ApiAction(function="refund", tool_call_id="c1")
    return record


def test_openai_export_reads_back_messages_and_tools(tmp_path):
    summary = export_openai([literal_record(), _unknown_tool_record()], tmp_path / "chat.jsonl")
    assert summary == {
        "format": "openai",
        "output": str(tmp_path / "chat.jsonl"),
        "written": 1,
        "records": 2,
        "rendered": 1,
        "skipped": {"tool_without_spec": 1},
    }
    [row] = _lines(tmp_path / "chat.jsonl")
    assert row["id"] == "lit-1"
    assert row["tools"] == [{"type": "function", "function": f} for f in FUNCTIONS]
    assert [m["role"] for m in row["messages"]] == [
        "system", "user", "assistant", "tool", "assistant", "user", "assistant", "tool", "tool", "assistant"
    ]  # fmt: skip
    assert row["messages"][0] == {"role": "system", "content": "Be brief."}
    assert row["messages"][2] == {
        "role": "assistant",
        "content": "I will look it up.",
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": {"order_id": "12"}}}
        ],
    }
    assert row["messages"][3] == {
        "role": "tool",
        "tool_call_id": "c1",
        "name": "get_order",
        "content": '{"status": "shipped"}',
    }
    assert row["messages"][-1] == {"role": "assistant", "content": "Done: 13 is cancelled, 14 is pending."}


def test_openai_export_can_write_arguments_as_json_strings(tmp_path):
    export_openai([literal_record()], tmp_path / "chat.jsonl", arguments_as_strings=True)
    [row] = _lines(tmp_path / "chat.jsonl")
    assert row["messages"][2]["tool_calls"][0]["function"] == {"name": "get_order", "arguments": '{"order_id": "12"}'}


def test_sharegpt_export_alternates_sides_with_function_calls_and_observations(tmp_path):
    output = tmp_path / "data" / "agent.jsonl"
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "dataset_info.json").write_text(json.dumps({"other": {"file_name": "other.json"}}))
    summary = export_sharegpt([literal_record()], output)
    assert (summary["written"], summary["records"], summary["call_text_dropped"]) == (1, 1, 1)
    [row] = _lines(output)
    assert row["id"] == "lit-1"
    assert row["system"] == "Be brief."
    assert json.loads(row["tools"]) == FUNCTIONS
    assert row["conversations"] == [
        {"from": "human", "value": "Where is order 12?"},
        {"from": "function_call", "value": '{"name": "get_order", "arguments": {"order_id": "12"}}'},
        {"from": "observation", "value": '{"status": "shipped"}'},
        {"from": "gpt", "value": "Order 12 has shipped."},
        {"from": "human", "value": "Cancel 13 and check 14."},
        {
            "from": "function_call",
            "value": '[{"name": "cancel_order", "arguments": {"order_id": "13"}}, '
            '{"name": "get_order", "arguments": {"order_id": "14"}}]',
        },
        {"from": "observation", "value": '["{\\"cancelled\\": true}", "{\\"status\\": \\"pending\\"}"]'},
        {"from": "gpt", "value": "Done: 13 is cancelled, 14 is pending."},
    ]
    info = json.loads((tmp_path / "data" / "dataset_info.json").read_text())
    assert info == {
        "other": {"file_name": "other.json"},
        "agent": {
            "file_name": "agent.jsonl",
            "formatting": "sharegpt",
            "columns": {"messages": "conversations", "system": "system", "tools": "tools"},
        },
    }


def test_sharegpt_export_opens_an_agent_first_conversation_with_an_empty_human_turn(tmp_path):
    record = literal_record()
    record.trajectory = record.trajectory[3:]  # starts with the agent's "Order 12 has shipped."
    export_sharegpt([record], tmp_path / "a.jsonl")
    [row] = _lines(tmp_path / "a.jsonl")
    assert row["conversations"][:2] == [
        {"from": "human", "value": ""},
        {"from": "gpt", "value": "Order 12 has shipped."},
    ]


def test_verl_export_reads_back_every_column(tmp_path):
    task = retail_cancel_task()
    no_request = retail_cancel_task("task-empty").model_copy(
        update={"task": task.task.model_copy(update={"instruction": ""})}
    )
    summary = export_verl([task, no_request], tmp_path / "verl", split="test")
    assert summary["written"] == 1 and summary["records"] == 2 and summary["skipped"] == {"no_prompt": 1}
    [row] = pq.read_table(tmp_path / "verl" / "test.parquet").to_pylist()
    assert row["data_source"] == "aceforge/retail"
    assert row["ability"] == "tool_use"
    assert row["prompt"] == [
        {"role": "system", "content": task.environment.policy},
        {"role": "user", "content": task.task.instruction},
    ]
    assert row["reward_model"]["style"] == "rule"
    truth = json.loads(row["reward_model"]["ground_truth"])
    assert truth == {"constraints": task.task.constraints, "expected_outputs": task.task.expected_outputs}
    extra = row["extra_info"]
    assert (extra["split"], extra["index"], extra["task_id"], extra["complexity"]) == ("test", 0, "task-cancel", 2)
    assert json.loads(extra["environment"]) == task.environment.model_dump(mode="json")
    assert extra["need_tools_kwargs"] is True
    assert extra["tools_kwargs"] == {
        t.name: {"create_kwargs": {"task_id": "task-cancel"}} for t in task.environment.tools
    }
    assert extra["interaction_kwargs"]["name"] == "aceforge_user"
    assert extra["interaction_kwargs"]["task_id"] == "task-cancel"
    assert json.loads(extra["interaction_kwargs"]["user_scenario"]) == task.task.user_scenario
    tools = json.loads((tmp_path / "verl" / "tools.json").read_text())
    assert [t["function"]["name"] for t in tools["retail"]] == [t.name for t in task.environment.tools]


def test_export_commands(tmp_path):
    records = tmp_path / "records.parquet"
    write_records([literal_record(), _unknown_tool_record()], records)
    result = invoke("export", "openai", records, "-o", tmp_path / "o.jsonl")
    assert result.exit_code == 0, result.output
    assert last_json(result)["written"] == 1 and len(_lines(tmp_path / "o.jsonl")) == 1
    result = invoke("export", "sharegpt", records, "-o", tmp_path / "s.jsonl")
    assert result.exit_code == 0, result.output
    assert last_json(result)["skipped"] == {"tool_without_spec": 1}
    tasks = tmp_path / "tasks.parquet"
    write_records([retail_cancel_task()], tasks)
    result = invoke("export", "verl", tasks, "-o", tmp_path / "verl")
    assert result.exit_code == 0, result.output
    assert pq.read_table(tmp_path / "verl" / "train.parquet").num_rows == 1
    bad = tmp_path / "bad.parquet"
    write_records([_unknown_tool_record()], bad)
    assert invoke("export", "openai", bad, "-o", tmp_path / "none.jsonl").exit_code == 1
    assert invoke("export", "verl", tmp_path / "missing.parquet", "-o", tmp_path / "v").exit_code == 2
