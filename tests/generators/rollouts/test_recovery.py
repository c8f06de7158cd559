"""A bad call (an unknown tool, arguments that fail the schema) is answered with an error and the agent goes on,
as in τ-bench; max_tool_errors still ends a rollout that keeps failing. The model is scripted; E, the scheduler and
the verifier chain are the real ones."""

import json

import pytest

from tests.generators.rollouts.helpers import IVO, ScriptedGenerator, balance_task, is_agent, roll

SCHEMA_AGENT = {"agent": "llm", "user": "llm", "tool_calls": "schema", "backend": "vllm"}
LOOKUP = {"name": "find_user_id_by_name_zip", "arguments": {"first_name": "Ivo", "last_name": "Dvorak", "zip": "31412"}}
DETAILS = {"name": "get_user_details", "arguments": {"user_id": IVO}}
BAD_TYPE = {"name": "get_user_details", "arguments": {"user_id": 7}}
UNKNOWN = {"name": "get_gift_card_balance", "arguments": {"user_id": IVO}}


def agent_with_one_slip(slip: dict, then: list[dict]):
    """Looks Ivo up, makes ``slip``, then does ``then`` one turn at a time; the simulated user stops once answered."""

    def reply(request):
        if not is_agent(request):
            return "###STOP###" if len(request.messages) > 3 else "Hi, my gift card balance? Ivo Dvorak, 31412."
        script = [LOOKUP, slip, *then]
        turn = len([m for m in request.messages if m["role"] == "tool"])
        return json.dumps(script[turn] if turn < len(script) else {"message": "Your gift card balance is $54.00."})

    return ScriptedGenerator(reply)


@pytest.mark.parametrize(
    ("slip", "error"),
    [
        (BAD_TYPE, "Error: invalid arguments for get_user_details: user_id: 7 is not of type 'string'"),
        (UNKNOWN, "Error: unknown tool 'get_gift_card_balance'"),
    ],
)
def test_a_bad_call_is_answered_with_an_error_and_the_next_right_call_goes_on_to_a_pass(slip, error):
    model = agent_with_one_slip(slip, [DETAILS])
    record = roll([balance_task()], model, k=1, **SCHEMA_AGENT)[0][0]
    call, answer = record.trajectory[3:5]
    assert (call.function, call.kwargs) == (slip["name"], slip["arguments"])
    assert (answer.source, answer.tool_call_id, answer.content) == ("tool", call.tool_call_id, error)
    # the agent saw the error and acted again: the right call, then the answer
    assert record.trajectory[5].function == "get_user_details" and record.trajectory[5].kwargs == {"user_id": IVO}
    assert record.details["end_reason"] == "done" and record.details["tool_errors"] == 1
    assert error in [m["content"] for m in model.requests[-2].messages if m["role"] == "tool"]
    verdict = record.verifier.result
    assert (verdict.passed, verdict.reasons) == (True, [])
    assert verdict.evidence["structure"]["recovered_errors"] == {"count": 1, "steps": [3]}


def test_a_bad_call_never_put_right_goes_on_and_fails_on_what_was_told():
    model = agent_with_one_slip(BAD_TYPE, [{"message": "Sorry, I cannot see your gift card."}])
    record = roll([balance_task()], model, k=1, **SCHEMA_AGENT)[0][0]
    assert record.details["end_reason"] == "done" and record.trajectory[4].content.startswith("Error: invalid")
    verdict = record.verifier.result
    assert verdict.passed is False and verdict.reasons == ["constraint_failed:balance"]
    assert verdict.evidence["structure"]["recovered_errors"] == {"count": 1, "steps": [3]}


def test_bad_calls_over_and_over_end_the_rollout_at_max_tool_errors():
    model = ScriptedGenerator(lambda request: json.dumps(UNKNOWN) if is_agent(request) else "My balance, please.")
    record = roll([balance_task()], model, k=1, budget={"max_tool_errors": 3}, **SCHEMA_AGENT)[0][0]
    assert record.details["end_reason"] == "max_tool_errors" and record.details["tool_errors"] == 3
    assert [step.content for step in record.trajectory[2::2]] == ["Error: unknown tool 'get_gift_card_balance'"] * 3
    assert record.verifier.result.reasons == ["unterminated"]  # τ stops on a tool result


def test_the_error_says_what_was_wrong_in_bounded_length():
    slip = {"name": "get_user_details", "arguments": {"user_id": ["ivo_dvorak_0072" * 100]}}
    record = roll([balance_task()], agent_with_one_slip(slip, [DETAILS]), k=1, **SCHEMA_AGENT)[0][0]
    error = record.trajectory[4].content
    assert error.startswith("Error: invalid arguments for get_user_details: user_id: ['ivo_dvorak_0072")
    assert len(error) == len("Error: ") + 300
    assert record.verifier.result.passed is True


def test_a_tool_whose_schema_is_broken_ends_the_rollout_with_that_reason():
    task = balance_task()
    broken = {"type": "object", "properties": {"zip": {"type": 7}}}
    task.environment.tools = [  # copies: E's Tool objects are shared with every other task of the world
        tool.model_copy(update={"parameters": broken}) if tool.name == LOOKUP["name"] else tool
        for tool in task.environment.tools
    ]
    record = roll([task], k=1)[0][0]  # the oracle (an llm agent cannot even build its request)
    assert record.details["end_reason"] == "tool_schema_invalid" and record.details["tool_errors"] == 0
    assert record.trajectory[-1].content == IVO  # E ran the call (it checks with its own schema) and answered
    assert record.verifier.result.reasons == ["tool_schema_invalid", "unterminated"]
