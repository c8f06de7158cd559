"""tau2_tasks: τ² task definitions of v1.0.1 (airline, retail, telecom, mock) and v0.2.0."""

from __future__ import annotations

import pytest

from data_catalog.sources import get_converter
from data_catalog.sources.base import ConvertOptions
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


def test_mock_tasks_need_the_domain_option(tmp_path):
    tasks = load(DOMAINS / "v1.0.1/domains/mock/tasks.json")
    stats, _, quarantine = convert_lines("tau2_tasks", tasks, tmp_path)
    assert stats.converted == 0 and stats.quarantined == 10
    assert quarantine[0]["error"] == "task 'create_task_1' names no domain; give the domain option"
    records = _convert(DOMAINS / "v1.0.1/domains/mock/tasks.json", domain="mock")
    assert records[0].task.instruction.startswith("You are a team member who needs to create a task")
    assert records[0].task.user_scenario["persona"].startswith("Professional and direct")
    assert records[0].verifier.spec["actions"][0]["name"] == "create_task"


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
