"""Exports for other trainers, read back field by field on known records; the CLI commands on the same files."""

from __future__ import annotations

import hashlib
import json

import pyarrow.parquet as pq
import pytest

from exporters.openai import export_openai
from exporters.sharegpt import export_sharegpt
from exporters.verl import export_verl
from schemas.io import write_records
from schemas.steps import ApiAction
from tests.pipelines.cli_helpers import invoke, last_json
from tests.training.helpers import (
    CANCEL_TOOL,
    ORDER_TOOL,
    UNKNOWN_CALL,
    UNKNOWN_ERROR,
    literal_record,
    oracle_rollout,
    record_with_a_failed_call,
    retail_cancel_task,
)

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


def test_a_failed_call_is_weighted_zero_in_openai_chat_and_left_out_of_sharegpt(tmp_path):
    record = record_with_a_failed_call(UNKNOWN_CALL, UNKNOWN_ERROR)
    export_openai([record], tmp_path / "chat.jsonl")
    [row] = _lines(tmp_path / "chat.jsonl")
    assert [m.get("weight") for m in row["messages"] if m["role"] == "assistant"] == [0, None, None, None, None]
    assert row["messages"][3]["content"] == UNKNOWN_ERROR
    summary = export_sharegpt([record, literal_record()], tmp_path / "agent.jsonl")
    slip, clean = _lines(tmp_path / "agent.jsonl")
    assert slip["conversations"] == clean["conversations"]  # no per-turn mask in the format: the slip is dropped
    assert summary["failed_call_turns_dropped"] == 1


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
        update={"task": task.task.model_copy(update={"instruction": "", "user_scenario": None})}
    )
    summary = export_verl([task, no_request], tmp_path / "verl", split="test")
    assert summary["written"] == 1 and summary["records"] == 2 and summary["skipped"] == {"no_prompt": 1}
    [row] = pq.read_table(tmp_path / "verl" / "test.parquet").to_pylist()
    assert row["data_source"] == "aceforge/retail"
    assert row["ability"] == "tool_use"
    # The user's opening turn, as the scripted user says it: what they want, with no outcome or ids they would
    # only give when asked.
    assert row["prompt"] == [
        {"role": "system", "content": task.environment.policy},
        {"role": "user", "content": "Hi! I want to cancel my pending order #R2119897."},
    ]
    assert row["reward_model"]["style"] == "rule"
    truth = json.loads(row["reward_model"]["ground_truth"])
    assert truth == {"constraints": task.task.constraints, "expected_outputs": task.task.expected_outputs}
    extra = row["extra_info"]
    assert (extra["split"], extra["index"], extra["task_id"], extra["complexity"]) == ("test", 0, "task-cancel", 2)
    assert extra["need_tools_kwargs"] is True
    world = task.environment.model_dump_json()
    assert json.loads(extra["interaction_kwargs"]["environment"]) == task.environment.model_dump(mode="json")
    # The row holds the environment once; the tools hold its digest (15 tools used to carry 15 more copies: a
    # 171 KB row, now about 17 KB).
    assert json.dumps(row).count(json.dumps(world)) == 1 and len(world) > 9000
    assert len(json.dumps(row)) < 2 * len(world)
    create = {"task_id": "task-cancel", "environment_sha256": hashlib.sha256(world.encode()).hexdigest()}
    assert extra["tools_kwargs"] == {t.name: {"create_kwargs": create} for t in task.environment.tools}
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


def test_exports_read_plain_chat_jsonl_and_say_one_line_for_other_files(tmp_path):
    from tests.training.helpers import CHAT

    chats = tmp_path / "chats.jsonl"
    chats.write_text(json.dumps(CHAT) + "\n")
    result = invoke("export", "openai", chats, "-o", tmp_path / "o.jsonl")
    assert result.exit_code == 0, result.output
    [row] = _lines(tmp_path / "o.jsonl")
    assert [m["role"] for m in row["messages"]] == ["user", "assistant", "tool", "assistant"]
    assert row["tools"][0]["function"]["name"] == "get_order"
    (tmp_path / "summary.md").write_text("# ACE summary\n")
    result = invoke("export", "openai", tmp_path / "summary.md", "-o", tmp_path / "x.jsonl")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "summary.md: expected a .parquet or .jsonl file" in result.output


def test_empty_input_exits_1_unless_allowed(tmp_path):
    empty = tmp_path / "empty.parquet"
    write_records([], empty)
    result = invoke("export", "sharegpt", empty, "-o", tmp_path / "s.json")
    assert result.exit_code == 1 and "holds no records (--allow-empty accepts that)" in result.output
    result = invoke("export", "sharegpt", empty, "-o", tmp_path / "s.json", "--allow-empty")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "s.json").read_text()) == []


def test_sharegpt_into_a_json_file_writes_a_json_array(tmp_path):
    export_sharegpt([literal_record("a"), literal_record("b")], tmp_path / "sft.json")
    rows = json.loads((tmp_path / "sft.json").read_text())
    assert [row["id"] for row in rows] == ["a", "b"]
    info = json.loads((tmp_path / "dataset_info.json").read_text())
    assert info["sft"]["file_name"] == "sft.json"


def test_verl_export_refuses_trajectories_as_train_rl_does(tmp_path):
    rollouts = tmp_path / "sft.parquet"
    task = retail_cancel_task()
    write_records([oracle_rollout(task)], rollouts)
    result = invoke("export", "verl", rollouts, "-o", tmp_path / "verl")
    assert result.exit_code == 1 and not (tmp_path / "verl").exists()
    message = f"{rollouts}: no task to train on (1 record(s): has a trajectory already (not a task)); RL takes tasks"
    assert message in " ".join(result.output.split())
    train = invoke("train", "rl", "--data", rollouts, "--output-dir", tmp_path / "rl")
    assert train.exit_code == 1 and message in " ".join(train.output.split())


def test_hub_sft_config_keeps_each_calls_own_arguments(tmp_path):
    """Two rows whose calls take different arguments read back exactly: no argument unified in as null."""
    from datasets import load_dataset

    from exporters.hub_config import HubExportConfig
    from exporters.hub_folder import ExportSource, build_hub_folder
    from exporters.openai import chat_row

    other = literal_record("other")
    other.environment.tools[0].parameters = {"type": "object", "properties": {"email": {"type": "string"}}}
    other.trajectory[1] = ApiAction(function="get_order", kwargs={"email": "a@b.c"}, tool_call_id="c1")
    records = tmp_path / "records.parquet"
    write_records([literal_record("lit"), other], records)
    folder = build_hub_folder(
        ExportSource("records", [records]), tmp_path / "hub", "acme/x", HubExportConfig(), to_chat=chat_row
    )
    assert ("sft", "train") in folder.rows_by_split()
    chats = {
        row["id"]: row for row in load_dataset(str(folder.path), "sft", split="train", cache_dir=str(tmp_path / "c"))
    }
    assert chats["lit"]["messages"][2]["tool_calls"][0]["function"]["arguments"] == {"order_id": "12"}
    assert chats["other"]["messages"][2]["tool_calls"][0]["function"]["arguments"] == {"email": "a@b.c"}
    assert chats["other"]["tools"][0]["function"]["parameters"] == other.environment.tools[0].parameters
    assert "## Configurations and splits" in (folder.path / "README.md").read_text()
    assert 'load_dataset("acme/x", "sft", split="train")' in (folder.path / "README.md").read_text()


def _episode_text(record, tokenizer) -> str:
    """What verl hands the reward function: the rendered conversation after the prompt (system + first user turn)."""
    from generators.llm.model_store import tool_chat_template
    from training.render import record_to_chat

    chat = record_to_chat(record)
    render = dict(tools=chat.tools, chat_template=tool_chat_template(), tokenize=False)
    prompt = tokenizer.apply_chat_template(chat.messages[:2], add_generation_prompt=True, **render)
    whole = tokenizer.apply_chat_template(chat.messages, **render)
    assert whole.startswith(prompt)
    return whole[len(prompt) :]


def test_verl_reward_module_gives_the_verifiers_verdicts_on_exported_rows(tmp_path, smol_tokenizer):
    import importlib.util

    from schemas.steps import MessageAction, TextObservation
    from verifiers.reward import rollout_reward
    from verifiers.runner import verify_record

    task = retail_cancel_task()
    export_verl([task], tmp_path / "verl")
    [row] = pq.read_table(tmp_path / "verl" / "train.parquet").to_pylist()
    spec = importlib.util.spec_from_file_location("reward", tmp_path / "verl" / "reward.py")  # as verl loads it
    reward = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reward)

    solved = oracle_rollout(task)
    refused = task.model_copy(
        update={"trajectory": [TextObservation(content="Cancel it", source="user"), MessageAction(content="No.")]}
    )
    # a row exported before the environment moved into interaction_kwargs (it sat in extra_info) scores the same
    interaction = dict(row["extra_info"]["interaction_kwargs"])
    earlier = {**row["extra_info"], "environment": interaction.pop("environment"), "interaction_kwargs": interaction}
    for episode, passed, graded in ((solved, True, 1.0), (refused, False, 0.0)):
        expected = verify_record(episode)
        for extra_info in (row["extra_info"], earlier):
            score = reward.compute_score(
                row["data_source"], _episode_text(episode, smol_tokenizer), row["reward_model"]["ground_truth"],
                extra_info,
            )  # fmt: skip
            assert expected.passed is passed and score == rollout_reward(expected) == graded
    assert reward.compute_score(row["data_source"], "", row["reward_model"]["ground_truth"], row["extra_info"]) < 1


def test_verl_configs_name_the_tools_and_the_user_and_the_user_answers_from_the_scenario(tmp_path):
    import asyncio

    import yaml

    from training.verl_reward import AceforgeTool, AceforgeUser

    task = retail_cancel_task()
    export_verl([task], tmp_path / "verl")
    tools = yaml.safe_load((tmp_path / "verl" / "tool_config.yaml").read_text())["tools"]
    assert [t["tool_schema"]["function"]["name"] for t in tools] == [t.name for t in task.environment.tools]
    assert {t["class_name"] for t in tools} == {"training.verl_reward.AceforgeTool"}
    [interaction] = yaml.safe_load((tmp_path / "verl" / "interaction_config.yaml").read_text())["interaction"]
    assert interaction == {"name": "aceforge_user", "class_name": "training.verl_reward.AceforgeUser", "config": {}}
    [row] = pq.read_table(tmp_path / "verl" / "train.parquet").to_pylist()

    async def episode():
        kwargs = row["extra_info"]["tools_kwargs"]["find_user_id_by_email"]["create_kwargs"]
        find = AceforgeTool({"type": "native"}, tools[0]["tool_schema"])
        with pytest.raises(KeyError, match="aceforge_user interaction"):  # the tools hold only a reference
            await find.create(**kwargs)
        user = AceforgeUser(interaction["config"])
        talk = await user.start_interaction(**row["extra_info"]["interaction_kwargs"])
        # verl's SGLang rollout spreads create_kwargs, its agent loop passes them whole: the same world either way
        found = []
        for instance in (await find.create(**kwargs), await find.create(create_kwargs=kwargs)):
            found.append(await find.execute(instance, {"email": "umar.xu3769@mail.test"}))
            await find.release(instance)
        asked = await user.generate_response(talk, [{"role": "assistant", "content": "What is your email?"}])
        done = await user.generate_response(talk, [{"role": "assistant", "content": "It is cancelled."}])
        await user.finalize_interaction(talk)
        with pytest.raises(KeyError):  # the episode's end drops the registered world
            await find.create(create_kwargs=kwargs)
        return found, asked, done

    found, asked, done = asyncio.run(episode())
    assert found[0] == found[1] and "umar_xu_3769" in found[0][0] and found[0][2] == {"ok": True}
    assert asked == (False, "My email is umar.xu3769@mail.test.", 0.0, {})
    assert done[0] is True
