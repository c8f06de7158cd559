"""openai_responses, openhands, atif and toolbench on excerpts of real public files (samples/PROVENANCE.md),
and export-atif back through the atif format."""

from __future__ import annotations

import json

import pytest

from data_catalog.convert import convert_files
from data_catalog.sources import get_converter
from exporters.atif import record_to_atif
from schemas.io import read_records
from schemas.record import AgentRecord
from tests.data_catalog.sources.fidelity import SAMPLES, convert, identity


def kinds(record: AgentRecord) -> list[str]:
    """Each step as kind:detail (an observation's source, a call's function, code's language, else None)."""
    details = (
        getattr(s, "source", None) or getattr(s, "function", None) or getattr(s, "language", None)
        for s in record.trajectory
    )
    return [f"{s.class_}:{detail}" for s, detail in zip(record.trajectory, details)]


def test_nemo_gym_rollouts(tmp_path):
    weather, multireward = convert("nemo_gym_rollouts.jsonl", tmp_path)
    assert weather.source.original_id == "resp_example_paris"
    assert kinds(weather) == [
        "text_observation:user",
        "api_action:get_weather",
        "text_observation:tool",
        "message_action:None",
    ]
    call, result = weather.trajectory[1:3]
    assert (call.kwargs, call.tool_call_id, result.tool_call_id) == (
        {"city": "Paris"},
        "toolu_weather_paris",
        "toolu_weather_paris",
    )
    assert (weather.verifier.kind, weather.verifier.result.passed, weather.verifier.result.score) == (
        "reward",
        True,
        1.0,
    )
    assert weather.verifier.result.evidence["verifier_metadata"] == {"expected_city": "Paris"}
    assert identity(weather) == (None, "claude-sonnet-4-6", None, []) and weather.lineage.generator is None
    # A developer message is the system prompt; a reward of 2.0 is on another scale: no pass/fail decided.
    assert kinds(multireward)[:2] == ["text_observation:system", "text_observation:user"]
    assert (multireward.verifier.result.passed, multireward.verifier.result.score) == (None, 2.0)
    assert [t.name for t in multireward.environment.tools] == ["get_weather"]
    assert multireward.details == {"reasoning_items_without_text": 1}


def test_responses_items_with_reasoning_and_an_unknown_item():
    converter = get_converter("openai_responses")
    items = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "List files."}]},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Use the shell."}]},
        {"type": "function_call", "call_id": "c1", "name": "bash", "arguments": '{"command": "ls"}'},
        {"type": "function_call_output", "call_id": "c1", "output": "a.py"},
    ]
    (raw,) = converter.items(items)
    record = converter.convert(raw)
    step = record.trajectory[1]
    assert (step.class_, step.content, step.reasoning, step.tool_call_id) == (
        "code_action",
        "ls",
        "Use the shell.",
        "c1",
    )
    with pytest.raises(ValueError, match=r"output\[0\]: unsupported item type 'computer_call'"):
        converter.convert({"object": "response", "output": [{"type": "computer_call"}]})


def test_openhands_evaluation_output(tmp_path):
    (record,) = convert("openhands_eval_output.jsonl", tmp_path)
    assert record.source.original_id == "ponylang__ponyc-4595" and record.environment.kind == "swe_repo"
    assert [t.name for t in record.environment.tools] == ["execute_bash", "think"]
    assert record.task.instruction.startswith("<uploaded_files>\n/workspace/ponylang__ponyc__0.1")
    assert kinds(record) == [
        "text_observation:system",
        "text_observation:user",
        "code_action:bash",
        "text_observation:tool",
        "code_action:bash",
        "text_observation:tool",
        "api_action:think",
        "text_observation:tool",
        "message_action:None",
    ]
    run = record.trajectory[2]
    assert (run.content, run.tool_call_id) == ("ls -l /workspace/ponylang__ponyc__0.1", "toolu_01")
    assert run.reasoning.startswith("The task involves fixing an issue")
    assert record.trajectory[3].tool_call_id == "toolu_01" and record.trajectory[3].content.startswith("total 300")
    assert record.details["events_not_steps"] == {"recall": 2}
    assert record.details["git_patch"].startswith("diff --git a/src/libponyc/ast/parser.c")
    assert identity(record) == ("openhands", "openai/openrouter-llama-4-maverick", None, [])
    assert record.lineage.generator == {"agent_class": "CodeActAgent"}
    assert record.verifier.kind == "none"


def test_openhands_event_list_reads_the_model_call(tmp_path):
    (record,) = convert("openhands_events.json", tmp_path)
    assert kinds(record) == [
        "text_observation:user",
        "api_action:str_replace_editor",
        "text_observation:tool",
        "message_action:None",
    ]
    edit = record.trajectory[1]
    assert edit.kwargs["command"] == "create" and edit.kwargs["path"] == "/workspace/game_2048.py"
    assert record.trajectory[3].content.startswith("I've created a simple implementation of the 2048 game")


def test_openhands_verdict_from_the_report():
    raw = {
        "instance_id": "x",
        "history": [{"id": 1, "source": "user", "action": "message", "args": {"content": "Fix it."}}],
        "test_result": {"git_patch": "", "report": {"resolved": True}},
    }
    record = get_converter("openhands").convert(raw)
    assert (record.verifier.kind, record.verifier.result.passed) == ("unit_tests", True)


def test_atif_rfc_example(tmp_path):
    (record,) = convert("atif_rfc_example.json", tmp_path)
    assert record.source.original_id == "025B810F-B3A2-4C67-93C0-FE7A142A947A"
    assert identity(record) == ("harbor-agent", "gemini-2.5-flash", "1.0.0", [])  # the file's agent block
    assert kinds(record) == [
        "text_observation:user",
        "api_action:financial_search",
        "api_action:financial_search",
        "text_observation:tool",
        "text_observation:tool",
        "message_action:None",
    ]
    first = record.trajectory[1]
    assert first.reasoning.startswith("The request requires two data points") and first.reasoning.endswith(
        "I will search for the current trading price and volume for GOOGL."
    )
    assert [s.tool_call_id for s in record.trajectory[3:5]] == ["call_price_1", "call_volume_2"]
    assert record.lineage.usage["total_cost_usd"] == 0.00078
    assert record.details["steps"]["2"]["reasoning_effort"] == "medium"


def test_export_atif_converts_back_to_the_same_record(tmp_path):
    (record,) = convert("atif_rfc_example.json", tmp_path)
    document = json.loads(json.dumps(record_to_atif(record)))
    assert document["schema_version"] == "ATIF-v1.5"
    assert [len(s.get("tool_calls", [])) for s in document["steps"]] == [0, 2, 0]
    back = get_converter("atif").convert(document)
    assert (back.id, back.trajectory, back.task) == (record.id, record.trajectory, record.task)
    document["steps"][0]["message"] = "What is the price of MSFT?"  # edited: other content, another id
    assert get_converter("atif").convert(document).id != record.id


def test_export_atif_of_a_shell_trajectory():
    raw = {
        "messages": [
            {"role": "user", "content": "List files."},
            {"role": "assistant", "content": "<function=bash>\n<parameter=command>ls</parameter>\n</function>"},
            {"role": "user", "content": "OBSERVATION:\na.py"},
        ]
    }
    record = get_converter("openai_chat").convert(raw)
    document = record_to_atif(record)
    agent = document["steps"][1]
    assert agent["tool_calls"][0]["function_name"] == "bash"
    assert agent["tool_calls"][0]["arguments"] == {"command": "ls"}
    assert agent["observation"]["results"] == [{"content": "a.py", "source_call_id": "call_1"}]
    assert get_converter("atif").convert(json.loads(json.dumps(document))).trajectory == record.trajectory[:1] + [
        record.trajectory[1].model_copy(update={"tool_call_id": "call_1"}),
        record.trajectory[2].model_copy(update={"tool_call_id": "call_1", "name": "bash"}),
    ]


def test_toolbench_chosen_path_and_tree(tmp_path):
    answered, gave_up = convert("toolbench_answers.json", tmp_path)
    assert answered.task.instruction.startswith("Can you retrieve the contact details of the 'Gondrand'")
    assert [t.name for t in answered.environment.tools] == [
        "transitaire_for_transitaires",
        "transitaires_for_transitaires",
        "Finish",
    ]
    assert kinds(answered)[2:] == [
        "api_action:transitaires_for_transitaires",
        "text_observation:tool",
        "api_action:transitaire_for_transitaires",
        "text_observation:tool",
        "api_action:Finish",
    ]
    assert answered.trajectory[4].kwargs == {"is_id": "ACT_AGENCE_CALEDONIENNE_DE_TRANSIT"}
    assert answered.details["finish_type"] == "give_answer" and answered.verifier.kind == "none"
    # The branches the search gave up on stay in the tree.
    tree = json.dumps(gave_up.details["answer_tree"])
    assert gave_up.details["finish_type"] == "give_up" and tree.count('"pruned": true') == 3


def test_toolbench_answer_file_name_is_its_id(tmp_path):
    answers = json.loads((SAMPLES / "toolbench_answers.json").read_text())
    path = tmp_path / "G1_answer" / "10_ChatGPT_DFS_woFilter_w2.json"
    path.parent.mkdir()
    path.write_text(json.dumps(answers[0]))
    convert_files("toolbench", [str(path)], tmp_path / "t.parquet")
    (record,) = read_records(tmp_path / "t.parquet")
    assert record.source.original_id == "G1_answer/10_ChatGPT_DFS_woFilter_w2"


def test_openhands_resolver_output_with_flat_events():
    """The resolver's output.jsonl (OpenHands tests/unit/resolver/mock_output) writes args beside the action, no source."""
    raw = {
        "instruction": "Please fix the following issue.",
        "git_patch": "diff --git a/LICENSE b/LICENSE\n",
        "history": [
            {"content": "Please fix the following issue.", "images_urls": None, "action": "message"},
            {"command": "touch LICENSE", "thought": "Create the file.", "action": "run", "is_confirmed": "confirmed"},
            {"content": "\r\nroot@bcd3959393a1:/workspace # ", "command": "touch LICENSE", "observation": "run"},
            {"outputs": {}, "thought": "The MIT License has been added.", "action": "finish"},
        ],
    }
    record = get_converter("openhands").convert(raw)
    assert kinds(record) == [
        "text_observation:user",
        "code_action:bash",
        "text_observation:environment",
        "message_action:None",
    ]
    assert (record.trajectory[1].content, record.trajectory[1].reasoning) == ("touch LICENSE", "Create the file.")
    assert (record.trajectory[3].content, record.trajectory[3].reasoning) == ("The MIT License has been added.", None)


def test_responses_output_saved_as_a_growing_transcript():
    """aviary's rollouts (NeMo Gym) save output as lists of items, each extending the last."""
    first = [
        {"type": "message", "role": "user", "content": "12 * 50 / 60?"},
        {"type": "function_call", "call_id": "c", "name": "calculator", "arguments": '{"expr": "12 * 50 / 60"}'},
        {"type": "function_call_output", "call_id": "c", "output": "10"},
    ]
    whole = [*first, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "$10"}]}]
    raw = {"responses_create_params": {"input": []}, "response": {"id": "r", "output": [first, whole]}, "reward": 1.0}
    record = get_converter("openai_responses").convert(raw)
    assert kinds(record) == [
        "text_observation:user",
        "api_action:calculator",
        "text_observation:tool",
        "message_action:None",
    ]
    raw["response"]["output"] = [whole, first]
    with pytest.raises(ValueError, match="not one growing transcript"):
        get_converter("openai_responses").convert(raw)


def test_a_toolbench_answer_without_train_messages_is_quarantined_with_why(tmp_path):
    answer = json.loads((SAMPLES / "toolbench_answers.json").read_text())[0]
    del answer["answer_generation"]["train_messages"]
    answer["answer_generation"]["valid_data"] = False
    path = tmp_path / "a.json"
    path.write_text(json.dumps([answer]))
    stats = convert_files("toolbench", [str(path)], tmp_path / "t.parquet")
    assert stats.quarantined == 1
    assert "answer_generation has no train_messages (finish_type 'give_answer', valid_data False)" in next(
        iter(stats.first_errors.values())
    )
