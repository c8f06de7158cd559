"""tau_bench: τ-bench v1 historical trajectories (gpt-4o, airline excerpt)."""

from __future__ import annotations

import copy
import re

import pytest

from data_catalog.sources import get_converter
from data_catalog.sources.base import ConvertOptions
from schemas.steps import ApiAction, MessageAction, TextObservation
from tests.conftest import TAU_FIXTURES
from tests.data_catalog.sources.conversion_helpers import convert_lines, load

FIXTURE = TAU_FIXTURES / "tau-bench/historical_trajectories/gpt-4o-airline.excerpt.json"


@pytest.fixture(scope="module")
def raws():
    return load(FIXTURE)


@pytest.fixture(scope="module")
def records(raws):
    converter = get_converter("tau_bench")
    return [converter.convert(r) for r in raws]


def test_each_trial_is_its_own_record_with_a_stable_id(raws, records):
    assert [r.source.original_id for r in records] == ["0/0", "2/0", "4/0", "6/0", "44/0", "0/1", "0/2", "0/3"]
    assert len({r.id for r in records}) == 8
    again = [get_converter("tau_bench").convert(r).id for r in raws]
    assert again == [r.id for r in records]
    assert [r.details["trial"] for r in records if r.task.metadata["task_id"] == 0] == [0, 1, 2, 3]


def test_environment_policy_and_system_step(records):
    first = records[0]
    assert first.environment.kind == "tool_world" and first.environment.name == "airline"
    assert first.environment.policy.startswith("# Airline Agent Policy")
    # The agent saw the policy as its system prompt: it stays the first step too.
    assert first.trajectory[0] == TextObservation(content=first.environment.policy, source="system")
    assert (
        get_converter("tau_bench", ConvertOptions(extra={"domain": "retail"}))
        .convert(load(FIXTURE)[0])
        .environment.name
        == "retail"
    )


def test_steps_link_calls_to_results(records):
    steps = records[0].trajectory
    assert len(steps) == 32
    assert steps[1] == TextObservation(
        content="Hi! I'm looking to book a flight from New York to Seattle on May 20th.", source="user"
    )
    assert isinstance(steps[2], MessageAction)
    call = next(s for s in steps if isinstance(s, ApiAction))
    assert (call.function, call.kwargs, call.tool_call_id) == (
        "get_user_details",
        {"user_id": "mia_li_3668"},
        "call_oIHazX6yQrB8hUwl4cRilFKj",
    )
    result = steps[steps.index(call) + 1]
    assert (result.source, result.name, result.tool_call_id) == ("tool", "get_user_details", call.tool_call_id)
    booked = [s for s in steps if isinstance(s, ApiAction) and s.function == "book_reservation"]
    assert booked[-1].kwargs["flights"][0] == {"flight_number": "HAT136", "date": "2024-05-20"}
    # Text sent with a tool call is the call's reasoning.


def test_text_sent_with_a_tool_call_is_its_reasoning(records):
    leads = [s.reasoning for r in records for s in r.trajectory if isinstance(s, ApiAction) and s.reasoning]
    assert len(leads) == 2 and leads[0].startswith(
        "Thank you for the information. Here are the details I have for your booking"
    )


def test_task_holds_instruction_and_expected_actions(records):
    task = records[0].task
    assert task.instruction.startswith("You are mia_li_3668. You want to fly from New York to Seattle")
    assert task.user_scenario["user_id"] == "mia_li_3668"
    assert task.expected_outputs["actions"][0]["name"] == "book_reservation"
    assert records[1].task.expected_outputs["outputs"] == ["23553"]


def test_rewards_become_verifier_results(records):
    results = [r.verifier.result for r in records]
    assert [r.passed for r in results] == [False, False, False, True, True, False, False, False]
    assert [r.score for r in results] == [0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert all(r.verifier.kind == "reward" for r in records)
    assert results[0].evidence == {
        "r_actions": 0.0,
        "gt_data_hash": "ea1402bc4f27311c55d06e318cef7d22ed1f33431a33ada16db71c4177283103",
    }
    assert results[0].reasons[0].startswith("r_actions:")
    assert results[1].evidence == {"r_outputs": 0.0, "outputs": {"23553": False}}
    assert results[1].reasons == ["r_outputs: expected outputs not given to the user: 23553"]
    assert results[4].evidence == {"r_outputs": 1.0, "outputs": {"4": True}} and results[4].reasons == []
    # Task 4 ended with a transfer to a human agent, not with the user's ###STOP###.
    assert records[2].details["ended_by"] == "transfer_to_human_agents"


def test_bad_records_are_quarantined_with_reasons(raws, tmp_path):
    orphan = copy.deepcopy(raws[0])
    orphan["traj"][5:5] = [{"role": "tool", "tool_call_id": "call_nobody", "name": "x", "content": "{}"}]
    unknown_role = copy.deepcopy(raws[0])
    unknown_role["traj"][1]["role"] = "narrator"
    bad_args = copy.deepcopy(raws[0])
    next(m for m in bad_args["traj"] if m.get("tool_calls"))["tool_calls"][0]["function"]["arguments"] = "{not json"
    string_call = copy.deepcopy(raws[0])
    next(m for m in string_call["traj"] if m.get("tool_calls"))["tool_calls"].append("get_user_details()")
    no_reward = {k: v for k, v in raws[3].items() if k != "reward"}
    text_reward = {**raws[3], "reward": "1.0"}
    lines = [
        raws[3],
        orphan,
        unknown_role,
        bad_args,
        string_call,
        no_reward,
        text_reward,
        '{"task_id": 1, "trial"',
        raws[4],
    ]
    stats, records, quarantine = convert_lines("tau_bench", lines, tmp_path)
    assert (stats.read, stats.converted, stats.quarantined) == (9, 2, 7)
    errors = [row["error"] for row in quarantine]
    assert "tool result for call id 'call_nobody' answers no earlier call" in errors[0]
    assert "unknown role 'narrator'" in errors[1]
    assert "arguments are not valid JSON" in errors[2]
    assert re.fullmatch(r"traj\[\d+\] tool_calls\[1\] is str, expected an object", errors[3])
    assert errors[4] == "missing field 'reward'"
    assert errors[5] == "field 'reward' is str, expected int/float"
    assert errors[6].startswith("invalid JSON line")
    assert [r.source.original_id for r in records] == ["6/0", "44/0"]
