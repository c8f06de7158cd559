"""tau2_tasks: τ² task definitions of v1.0.1 (airline, retail, telecom, mock) and v0.2.0."""

from __future__ import annotations

import json

import pytest

from data_catalog.convert import convert_files
from data_catalog.sources import get_converter
from data_catalog.sources.base import ConvertOptions
from schemas.io import read_records
from tests.conftest import TAU_FIXTURES
from tests.data_catalog.sources.conversion_helpers import convert_lines, load

DOMAINS = TAU_FIXTURES / "tau2-bench"


def _convert(path, **options):
    converter = get_converter("tau2_tasks", ConvertOptions(extra=options))
    return [converter.convert(t) for t in load(path)]


@pytest.mark.parametrize(
    "path, count",
    [
        ("v1.0.1/domains/airline/tasks.json", 50),
        ("v1.0.1/domains/retail/tasks.json", 114),
        ("v1.0.1/domains/telecom/tasks_small.json", 20),
        ("v0.2.0/domains/airline/tasks.json", 50),
        ("v0.2.0/domains/retail/tasks.json", 114),
    ],
)
def test_every_task_converts_with_its_domain_and_no_trajectory(path, count):
    records = _convert(DOMAINS / path)
    domain = path.split("/")[2]
    assert len(records) == count and len({r.id for r in records}) == count
    assert {r.environment.name for r in records} == {domain}
    assert all(r.trajectory == [] and r.verifier.kind == "tau2_criteria" and r.verifier.result is None for r in records)


def test_airline_task_scenario_and_criteria():
    record = _convert(DOMAINS / "v1.0.1/domains/airline/tasks.json")[0]
    assert record.source.original_id == "0"
    assert record.task.instruction.startswith("You want to cancel reservation EHGLP3.")
    assert set(record.task.user_scenario) == {"persona", "instructions"}
    assert {"known_info", "unknown_info", "task_instructions", "reason_for_call"} <= set(
        record.task.user_scenario["instructions"]
    )
    assert record.task.metadata["task_id"] == "0" and "purpose" in record.task.metadata["description"]
    assert set(record.verifier.spec) == {"actions", "communicate_info", "nl_assertions", "reward_basis"}


def test_telecom_keeps_initial_state_and_env_assertions():
    record = _convert(DOMAINS / "v1.0.1/domains/telecom/tasks_small.json")[0]
    assert record.source.original_id == "[mobile_data_issue]user_abroad_roaming_enabled_off[PERSONA:None]"
    actions = record.task.metadata["initial_state"]["initialization_actions"]
    assert [a["func_name"] for a in actions] == [
        "set_user_info",
        "set_user_location",
        "turn_roaming_off",
        "enable_roaming",
    ]
    assert record.task.metadata["ticket"].startswith("The user is experiencing issues with their mobile data.")
    assert record.verifier.spec["env_assertions"][1]["func_name"] == "assert_internet_speed"
    assert record.verifier.spec["reward_basis"] == ["ENV_ASSERTION"]


def test_same_task_id_in_two_domains_gets_two_ids():
    airline = _convert(DOMAINS / "v1.0.1/domains/airline/tasks.json")[0]
    retail = _convert(DOMAINS / "v1.0.1/domains/retail/tasks.json")[0]
    assert airline.source.original_id == retail.source.original_id == "0"
    assert airline.id != retail.id


def test_mock_tasks_need_no_domain_option_in_their_own_folder(tmp_path):
    """The mock domain's tasks name no domain: τ²'s layout (domains/mock/tasks.json) says it."""
    path = DOMAINS / "v1.0.1/domains/mock/tasks.json"
    stats = convert_files("tau2_tasks", [str(path)], tmp_path / "mock.parquet")
    records = list(read_records(tmp_path / "mock.parquet"))
    assert (stats.converted, stats.quarantined) == (10, 0) and {r.environment.name for r in records} == {"mock"}
    assert records[0].task.instruction.startswith("You are a team member who needs to create a task")
    assert records[0].task.user_scenario["persona"].startswith("Professional and direct")
    assert records[0].verifier.spec["actions"][0]["name"] == "create_task"


def test_elsewhere_the_domain_comes_from_the_tools_the_task_calls(tmp_path):
    scenario = {"persona": None, "instructions": "Create a task called 'Standup' for user_1."}
    calls_mock_tool = {
        "id": "t1",
        "user_scenario": scenario,
        "evaluation_criteria": {"actions": [{"action_id": "a", "name": "create_task", "arguments": {}}]},
    }
    calls_nothing = {"id": "t2", "user_scenario": scenario, "evaluation_criteria": {"nl_assertions": ["polite"]}}
    stats, records, quarantine = convert_lines("tau2_tasks", [calls_mock_tool, calls_nothing], tmp_path)
    assert (stats.converted, stats.quarantined) == (1, 1) and records[0].environment.name == "mock"
    assert quarantine[0]["error"] == "task 't2' names no domain and calls no domain's tools; give the domain option"
    stats, records, _ = convert_lines("tau2_tasks", [calls_nothing], tmp_path, domain="mock")
    assert stats.converted == 1 and records[0].environment.name == "mock"


def test_bad_tasks_are_quarantined(tmp_path):
    tasks = load(DOMAINS / "v1.0.1/domains/airline/tasks.json")[:3]
    no_id = {k: v for k, v in tasks[1].items() if k != "id"}
    bad_scenario = {**tasks[2], "user_scenario": "call the airline"}
    bad_criteria = {**tasks[2], "evaluation_criteria": ["get_user_details"]}
    stats, records, quarantine = convert_lines(
        "tau2_tasks", [tasks[0], no_id, bad_scenario, bad_criteria, "[1, 2"], tmp_path
    )
    assert (stats.read, stats.converted, stats.quarantined) == (5, 1, 4)
    assert [row["error"] for row in quarantine][:3] == [
        "task has no id",
        "task '2': user_scenario is str, expected an object",
        "task '2': evaluation_criteria is list, expected an object",
    ]
    assert records[0].source.original_id == "0"


def test_a_domain_that_is_not_built_in_is_named_by_its_folder(tmp_path):
    """τ² lays tasks out as domains/<domain>/tasks.json for any domain (banking_knowledge is not built in)."""
    task = {
        "id": "bk_1",
        "user_scenario": {"instructions": "Ask what the overdraft fee is."},
        "evaluation_criteria": {"actions": [{"action_id": "a", "name": "lookup_fee", "arguments": {}}]},
    }
    folder = tmp_path / "domains" / "banking_knowledge"
    folder.mkdir(parents=True)
    (folder / "tasks.json").write_text(json.dumps([task]))
    stats = convert_files("tau2_tasks", [str(folder / "tasks.json")], tmp_path / "bk.parquet")
    (record,) = read_records(tmp_path / "bk.parquet")
    assert stats.converted == 1 and record.environment.name == "banking_knowledge"
