"""Prompt and parse logic of the llm agent and the llm user simulator, with a scripted stand-in for the model.

The real model (SmolLM2 through vLLM, --tool-calls schema) runs in test_smollm2_vllm.py.
"""

import json

import jsonschema

from generators.rollouts.llm_agent import action_schema, parse_schema_reply
from tests.generators.rollouts.helpers import ScriptedGenerator, balance_task, cancel_task, is_agent, roll

IVO_LOOKUP = {
    "name": "find_user_id_by_name_zip",
    "arguments": {"first_name": "Ivo", "last_name": "Dvorak", "zip": "31412"},
}


def test_the_action_schema_admits_one_call_of_a_tool_of_e_or_one_message():
    tools = balance_task().environment.tools
    validator = jsonschema.Draft202012Validator(action_schema(tools))
    assert validator.is_valid(IVO_LOOKUP)
    assert validator.is_valid({"message": "Hello!"})
    assert not validator.is_valid({"name": "drop_tables", "arguments": {}})
    assert not validator.is_valid({"name": "get_user_details", "arguments": {"id": "x"}})
    assert not validator.is_valid({"message": "hi", "name": "get_user_details"})


def test_schema_replies_parse_into_a_call_or_a_message():
    assert parse_schema_reply(json.dumps(IVO_LOOKUP)).calls == [(IVO_LOOKUP["name"], IVO_LOOKUP["arguments"])]
    assert parse_schema_reply('{"message": " Hi there "}').message == "Hi there"
    assert parse_schema_reply('{"message": "  "}').error == "empty_reply"
    assert parse_schema_reply('{"name": "get_user_details", "arguments": {"user_id": "iv').error == "malformed_output"
    assert parse_schema_reply("[1, 2]").error == "malformed_output"


def scripted_agent(request):
    """A model that looks Ivo up, reads his profile, then tells the balance; the user simulator stops at once."""
    if not is_agent(request):
        return (
            "###STOP###"
            if len(request.messages) > 3
            else "Hi, what is the balance of my gift card? I'm Ivo Dvorak, 31412."
        )
    done = [m for m in request.messages if m["role"] == "tool"]
    if not done:
        return json.dumps(IVO_LOOKUP)
    if len(done) == 1:
        return json.dumps({"name": "get_user_details", "arguments": {"user_id": done[0]["content"]}})
    return json.dumps({"message": "Your gift card balance is $54.00."})


def test_an_llm_agent_in_schema_mode_with_an_llm_user_is_recorded_and_verified():
    model = ScriptedGenerator(scripted_agent)
    records, summary = roll([balance_task()], model, k=2, agent="llm", user="llm", tool_calls="schema", backend="vllm")
    for record in records:
        assert record.verifier.result.passed is True, record.verifier.result.reasons
        assert record.details["end_reason"] == "done"
        assert record.lineage.generator["agent"] == {"name": "llm", "version": "1", "tool_calls": "schema"}
        assert record.lineage.generator["backend"] == {"backend": "vllm", "model": "scripted", "hash": "0"}
        assert record.lineage.usage["calls"] == 5  # opening, lookup, details, message, stop
    agent_requests = [r for r in model.requests if is_agent(r)]
    first = agent_requests[0]
    assert first.messages[0]["role"] == "system" and first.messages[0]["content"].startswith("# Retail store")
    assert first.messages[0]["content"].endswith('or {"message": <text>} to write to the customer.')
    assert first.json_schema == action_schema(balance_task().environment.tools)
    assert {t.name for t in first.tools} >= {"find_user_id_by_name_zip", "cancel_pending_order"}
    # the agent's own turns come back as the JSON it wrote, tool results as tool messages
    last = agent_requests[-1].messages
    assert json.loads(last[2]["content"]) == IVO_LOOKUP and last[3]["role"] == "tool"
    # one seed per rollout, in every request of that rollout
    seeds = {r.sampling.seed for r in model.requests}
    assert len(seeds) == 2 and {r.lineage.generator["seed"] for r in records} == seeds
    assert summary.end_reasons == {"done": 2}


def test_the_llm_user_sees_the_scenario_and_the_agent_messages_only():
    model = ScriptedGenerator(lambda r: "Hello ###STOP###" if not is_agent(r) else '{"message": "?"}')
    roll([cancel_task()], model, k=1, user="llm", backend="vllm")
    user_request = model.requests[0]
    system = user_request.messages[0]["content"]
    assert "Vera Kim, polite and patient." in system and "- email: vera.kim2362@inbox.test" in system
    assert "- the refund amount" in system and "###STOP###" in system and "###TRANSFER###" in system
    assert user_request.messages[1] == {"role": "user", "content": "Hi! How can I help you today?"}
    assert user_request.tools is None


def test_the_llm_user_is_told_how_its_persona_talks():
    model = ScriptedGenerator(lambda r: "Hello ###STOP###" if not is_agent(r) else '{"message": "?"}')
    scenario = {
        **cancel_task().task.user_scenario,
        "persona": "Vera Kim, a retired teacher.",  # a scenario writer's persona, which names no trait
        "traits": {"patience": "irritable", "register": "formal", "details": "one_at_a_time"},
    }
    roll([cancel_task(scenario)], model, k=1, user="llm", backend="vllm")
    assert (
        "How you talk: easily irritated, formal in tone and giving one detail per message, even when asked for "
        "several; keep every id, name and detail you give exactly as listed."
        in model.requests[0].messages[0]["content"]
    )


def test_stop_markers_are_cut_and_end_the_rollout_with_their_reason():
    for reply, reason in [("Thanks! ###TRANSFER###", "transfer"), ("###OUT-OF-SCOPE###", "out_of_scope")]:
        model = ScriptedGenerator(lambda r, reply=reply: reply)
        record = roll([cancel_task()], model, k=1, user="llm", backend="vllm")[0][0]
        assert record.details["end_reason"] == reason
        assert [s.content for s in record.trajectory] == (
            [reply.split(" ###")[0]] if reply.startswith("Thanks") else []
        )


def test_a_user_that_states_everything_unasked_is_flagged():
    dump = "I'm vera.kim2362@inbox.test, please cancel #R5683800, I ordered by mistake. ###STOP###"
    record = roll([cancel_task()], ScriptedGenerator(lambda r: dump), k=1, user="llm", backend="vllm")[0][0]
    assert record.details["leakage"] is True
    assert record.details["end_reason"] == "done" and [s.source for s in record.trajectory] == ["user"]
