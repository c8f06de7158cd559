"""tau2_results: a real τ² results file (gpt-4.1 agent and user, airline, 20 simulations)."""

from __future__ import annotations

import copy
import json

import orjson
import pytest

from data_catalog.convert import convert_files
from data_catalog.sources import get_converter
from schemas.io import read_records
from schemas.steps import ApiAction, MessageAction, TextObservation
from tests.conftest import TAU_FIXTURES
from tests.data_catalog.sources.conversion_helpers import convert_lines, load
from tests.data_catalog.sources.fidelity import identity

FIXTURE = TAU_FIXTURES / "tau2-bench/feature-gym/results/gpt-4.1_airline_default_gpt-4.1_1trials.json"


@pytest.fixture(scope="module")
def document():
    return load(FIXTURE)


@pytest.fixture(scope="module")
def records(document):
    converter = get_converter("tau2_results")
    return {r.task.metadata["task_id"]: r for r in map(converter.convert, converter.items(document))}


def test_one_record_per_simulation(document, records, tmp_path):
    stats, converted, _ = convert_lines("tau2_results", [document], tmp_path)
    assert (stats.read, stats.converted, stats.quarantined) == (20, 20, 0)
    assert {r.source.original_id for r in converted} == {s["id"] for s in document["simulations"]}
    assert sorted(r.id for r in converted) == sorted(r.id for r in records.values())


def test_task_is_joined_into_q(records):
    task = records["2"].task
    assert task.instruction.startswith("First, try to book a flight from sf to ny.")
    assert task.user_scenario["instructions"]["known_info"] == "You are Noah Muller.\nYour user id is noah_muller_9847."
    assert task.metadata["description"]["purpose"].startswith("Testing capacity of agent to handle change of topic")
    spec = records["2"].verifier.spec
    assert records["2"].verifier.kind == "tau2_criteria"
    assert [a["name"] for a in spec["actions"]] == [
        "get_user_details",
        "get_reservation_details",
        "get_reservation_details",
        "send_certificate",
    ]
    assert spec["reward_basis"] == ["DB", "COMMUNICATE"]


def test_environment_and_lineage(records):
    record = records["13"]
    assert (record.environment.kind, record.environment.name) == ("tool_world", "airline")
    assert record.environment.policy.startswith("# Airline Agent Policy")
    assert record.lineage.generator["agent_info"]["llm"] == "gpt-4.1" and record.lineage.generator["seed"] == 626729
    assert identity(record) == ("tau2-bench", "gpt-4.1", None, [])
    assert record.lineage.usage["agent_cost"] == 0.02746
    assert record.details["termination_reason"] == "user_stop"


def test_messages_become_linked_steps(records):
    steps = records["13"].trajectory
    assert len(steps) == 18
    # The agent greets before the user says anything.
    assert steps[0] == MessageAction(content="Hi! How can I help you today?")
    assert steps[1].source == "user"
    call = steps[4]
    assert isinstance(call, ApiAction)
    assert (call.function, call.kwargs, call.tool_call_id) == (
        "get_user_details",
        {"user_id": "james_lee_6136"},
        "call_fLxcMYQFvKcOdQNYvY2sKVRr",
    )
    result = steps[5]
    assert isinstance(result, TextObservation) and (result.source, result.name, result.tool_call_id) == (
        "tool",
        "get_user_details",
        call.tool_call_id,
    )
    # Task 18 makes 12 parallel calls in one turn: every one is answered by its own result.
    steps18 = records["18"].trajectory
    call_ids = [s.tool_call_id for s in steps18 if isinstance(s, ApiAction)]
    result_ids = [s.tool_call_id for s in steps18 if isinstance(s, TextObservation) and s.source == "tool"]
    assert len(call_ids) == len(set(call_ids)) and sorted(call_ids) == sorted(result_ids)


def test_reward_info_becomes_the_result(records):
    passed = {k for k, r in records.items() if r.verifier.result.passed}
    assert passed == {"13", "6", "16", "8", "19", "18", "29", "30", "31", "45"}
    failed = records["2"].verifier.result
    assert failed.score == 0.0
    assert failed.reasons == ["db_mismatch: the final database differs from the expected one"]
    assert failed.evidence["reward_breakdown"] == {"DB": 0.0, "COMMUNICATE": 1.0}
    assert [c["action_match"] for c in failed.evidence["action_checks"]] == [True, True, True, False]
    assert failed.evidence["nl_assertions"][0]["met"] is False
    # Task 13 misses an expected action, but actions are not in its reward basis: it passes without reasons.
    ok = records["13"].verifier.result
    assert ok.passed and ok.score == 1.0 and ok.reasons == []
    assert ok.evidence["action_checks"][0]["action_match"] is False


def test_a_bare_simulation_converts_without_its_task(document, tmp_path):
    stats, converted, _ = convert_lines("tau2_results", document["simulations"][:3], tmp_path)
    assert stats.converted == 3
    assert converted[0].task.instruction == "" and converted[0].task.metadata == {"task_id": "13"}
    assert converted[0].verifier.spec == {} and converted[0].verifier.result.passed is True


def test_bad_simulations_are_quarantined(document, tmp_path):
    doc = copy.deepcopy(document)
    sims = doc["simulations"]
    sims[1]["task_id"] = "999"
    sims[2]["messages"][5]["id"] = "call_unknown"
    sims[3]["messages"][1]["role"] = "customer"
    del sims[4]["messages"]
    sims[5]["reward_info"]["reward"] = None
    sims[6]["messages"].insert(2, {"role": "tool", "id": "u9", "content": "ok", "requestor": "user"})
    stats, converted, quarantine = convert_lines("tau2_results", [doc, {"tasks": []}], tmp_path)
    assert (stats.read, stats.converted, stats.quarantined) == (21, 15, 6)
    errors = [row["error"] for row in quarantine]
    assert "tool result for call id 'call_unknown' answers no earlier call" in errors[0]
    assert "unknown role 'customer'" in errors[1]
    assert errors[2] == "missing field 'messages'"
    assert errors[3] == "field 'reward' is NoneType, expected int/float"
    assert "user-side tool result for call id 'u9' answers no earlier user call" in errors[4]
    assert errors[5].startswith("not a τ² results file")
    unknown = next(r for r in converted if r.source.original_id == sims[1]["id"])
    assert unknown.details["task_unknown"] == "task_id '999' is in no tasks read (give --option tasks=FILE)"


def test_results_without_embedded_tasks_convert_with_the_task_unknown_or_from_a_tasks_file(document, tmp_path):
    doc = {**document, "tasks": []}
    stats, converted, _ = convert_lines("tau2_results", [doc], tmp_path)
    assert (stats.converted, stats.quarantined) == (20, 0)
    assert all(r.task.instruction == "" and "task_unknown" in r.details for r in converted)
    assert all(r.verifier.result is not None for r in converted)  # τ²'s own verdict still stands
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps(document["tasks"]))
    stats, joined, _ = convert_lines("tau2_results", [doc], tmp_path, tasks=str(tasks))
    assert stats.converted == 20 and not any("task_unknown" in r.details for r in joined)
    two = next(r for r in joined if r.task.metadata["task_id"] == "2")
    assert two.task.instruction.startswith("First, try to book a flight from sf to ny.")


# A dual-control (telecom) simulation as τ² writes it: the user acts on its own phone.
TELECOM_SIM = {
    "id": "sim-telecom-1",
    "task_id": "[mobile_data_issue]airplane_mode_on",
    "trial": 0,
    "termination_reason": "user_stop",
    "reward_info": {"reward": 1.0, "reward_basis": ["ENV_ASSERTION"], "reward_breakdown": {"ENV_ASSERTION": 1.0}},
    "messages": [
        {"role": "assistant", "content": "Hi! How can I help you today?"},
        {"role": "user", "content": "My mobile data does not work."},
        {"role": "assistant", "content": "Please check your status bar."},
        {
            "role": "user",
            "content": None,
            "tool_calls": [{"id": "u1", "name": "check_status_bar", "arguments": {}, "requestor": "user"}],
        },
        {"role": "tool", "id": "u1", "content": "Airplane mode: ON", "requestor": "user", "error": False},
        {"role": "user", "content": "It says airplane mode is on."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "a1", "name": "get_customer_by_phone", "arguments": {"phone": "555-123-2002"}}],
        },
        {"role": "tool", "id": "a1", "content": '{"customer_id": "C1"}', "requestor": "assistant"},
        {
            "role": "user",
            "content": "Turning it off now.",
            "tool_calls": [
                {"id": "u2", "name": "toggle_airplane_mode", "arguments": {"enable": False}, "requestor": "user"}
            ],
        },
        {"role": "tool", "id": "u2", "content": "Airplane mode is now OFF.", "requestor": "user"},
    ],
}


def test_dual_control_user_calls_are_user_observations(tmp_path):
    stats, (record,), _ = convert_lines("tau2_results", [TELECOM_SIM], tmp_path)
    steps = record.trajectory
    assert len(steps) == 9  # the user's call and its result are one observation
    status, turned_off = steps[3], steps[8]
    assert (status.source, status.name, status.tool_call_id) == ("user", "check_status_bar", "u1")
    assert orjson.loads(status.content) == {
        "tool_call": {"name": "check_status_bar", "arguments": {}},
        "result": "Airplane mode: ON",
    }
    assert steps[7] == TextObservation(content="Turning it off now.", source="user")
    assert orjson.loads(turned_off.content)["tool_call"]["arguments"] == {"enable": False}
    assert orjson.loads(turned_off.content)["result"] == "Airplane mode is now OFF."
    # The agent's own call and result stay an ApiAction and a tool observation.
    assert [s.class_ for s in steps[4:7]] == ["text_observation", "api_action", "text_observation"]
    assert steps[6].source == "tool" and steps[6].tool_call_id == "a1"
    assert stats.converted == 1 and record.verifier.result.passed is True


def test_results_directory_and_a_single_simulation_file(document, tmp_path):
    """τ²'s directory layout: results.json (info, tasks, index) + simulations/<id>.json, one simulation each."""
    run = tmp_path / "run"
    (run / "simulations").mkdir(parents=True)
    meta = {k: v for k, v in document.items() if k != "simulations"}
    meta["simulation_index"] = [{"id": s["id"], "task_id": s["task_id"]} for s in document["simulations"][:3]]
    (run / "results.json").write_bytes(orjson.dumps(meta, option=orjson.OPT_INDENT_2))
    for sim in document["simulations"][:3]:
        (run / "simulations" / f"{sim['id']}.json").write_bytes(orjson.dumps(sim, option=orjson.OPT_INDENT_2))
    whole = convert_files("tau2_results", [str(run / "results.json")], tmp_path / "whole.parquet")
    assert (whole.read, whole.converted) == (3, 3)
    one_file = sorted((run / "simulations").glob("*.json"))[0]
    single = convert_files("tau2_results", [str(one_file)], tmp_path / "one.parquet")
    (record,) = read_records(tmp_path / "one.parquet")
    assert single.converted == 1 and record.task.instruction  # its task, joined from ../results.json
    assert record.environment.name == "airline" and record.verifier.spec
    assert record.source.original_id == one_file.stem


def test_a_results_json_without_its_simulations_folder_says_so(document, tmp_path):
    (tmp_path / "results.json").write_bytes(orjson.dumps({k: v for k, v in document.items() if k != "simulations"}))
    stats = convert_files("tau2_results", [str(tmp_path / "results.json")], tmp_path / "r.parquet")
    assert (stats.converted, stats.quarantined) == (0, 1)
    assert stats.first_errors.popitem()[1].startswith("a τ² results.json without simulations: no folder")


def test_a_voice_simulation_gets_a_clear_error(document, tmp_path):
    sim = {k: v for k, v in document["simulations"][0].items() if k != "messages"}
    sim["ticks"] = [{"tick": 0, "audio": "..."}]
    _, _, quarantined = convert_lines("tau2_results", [sim], tmp_path)
    assert "is a τ² voice simulation (ticks, no messages): voice runs are not supported" in quarantined[0]["error"]
