"""The compact rendering of E for small learners: one-line signatures, the domain's policy summary, calls still read.

The identity of the prompt across rollouts, SFT, RL episodes and exports, and the token counts with SmolLM2's own
tokenizer, are in tests/training/test_compact_rendering.py.
"""

from __future__ import annotations

from generators.llm.tool_calls import normalize_tools
from generators.rollouts.agent_prompt import agent_prompt, compact_policy, tool_signature
from generators.rollouts.config import PolicyConfig, RolloutConfig
from generators.rollouts.conversation import TaskContext
from generators.rollouts.llm_agent import SCHEMA_INSTRUCTION, LlmAgent, action_schema
from pipelines.pipeline_config import SMOLLM2_LEARNER, PipelineConfig
from schemas.record import Tool
from schemas.steps import ApiAction
from tests.generators.rollouts.helpers import IVO, ScriptedGenerator, balance_task, native_balance_agent, roll

RETAIL_SUMMARY_START = "You are a retail store support agent."


def test_signatures_are_one_line_with_types_only_where_not_a_string():
    cancel = Tool(
        name="cancel_pending_order",
        parameters={
            "type": "object",
            "properties": {
                "order_id": {"type": "string", "description": "e.g. '#R1234567'"},
                "reason": {"type": "string", "enum": ["no longer needed", "ordered by mistake"]},
            },
            "required": ["order_id", "reason"],
        },
    )
    assert tool_signature(cancel) == 'cancel_pending_order(order_id, reason: "no longer needed"|"ordered by mistake")'
    book = Tool(
        name="book",
        parameters={
            "type": "object",
            "properties": {
                "cabin": {"type": "string", "enum": ["basic_economy", "business"]},
                "flights": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"flight_number": {"type": "string"}, "date": {"type": "string"}},
                        "required": ["flight_number", "date"],
                    },
                },
                "item_ids": {"type": "array", "items": {"type": "string"}},
                "bags": {"type": "integer"},
                "amount": {"type": "number"},
                "insurance": {"type": "boolean"},
                "note": {"type": "string"},
            },
            "required": ["cabin", "flights", "item_ids", "bags", "amount", "insurance"],
        },
    )
    assert tool_signature(book) == (
        "book(cabin: basic_economy|business, flights: list[{flight_number, date}], item_ids: list[str], bags: int, "
        "amount: float, insurance: bool, note?)"
    )
    assert tool_signature(Tool(name="list_all_airports")) == "list_all_airports()"


def test_compact_shows_the_domain_summary_and_each_tool_once_with_no_schema_for_the_template():
    environment = balance_task().environment
    full = agent_prompt(environment, "full")
    assert full.system == environment.policy and full.tools == normalize_tools(environment.tools)

    compact = agent_prompt(environment, "compact")
    assert compact.tools is None
    lines = compact.system.split("\n")
    assert lines[0] == RETAIL_SUMMARY_START
    assert "find_user_id_by_name_zip(first_name, last_name, zip)" in lines
    assert 'cancel_pending_order(order_id, reason: "no longer needed"|"ordered by mistake")' in lines
    assert lines[-1] == 'Call a tool by replying <tool_call>{"name": ..., "arguments": {...}}</tool_call>'
    for tool in environment.tools:
        assert compact.system.count(f"\n{tool.name}(") == 1
    assert '"properties"' not in compact.system and "## Orders" not in compact.system


def test_the_summary_stands_in_only_for_the_policy_it_summarizes():
    environment = balance_task().environment
    assert compact_policy(environment).startswith(RETAIL_SUMMARY_START)
    # The summary keeps the rules the verifier enforces: identity, consent, one call a turn, one customer.
    summary = compact_policy(environment)
    assert 'explicit "yes"' in summary and "Serve only that customer" in summary and "One tool call" in summary
    older = environment.model_copy(update={"policy": "Be brief and never cancel anything."})
    assert compact_policy(older) is None
    assert agent_prompt(older, "compact").system.startswith("Be brief and never cancel anything.\n\nTools:\n")


def test_the_rendering_is_part_of_the_policy_id_and_the_main_learner_is_compact():
    assert PolicyConfig().rendering == "full"
    assert PolicyConfig(rendering="compact").policy_id() != PolicyConfig().policy_id()
    assert SMOLLM2_LEARNER.rendering == "compact" and PipelineConfig().learner.rendering == "compact"


def test_a_compact_agent_gets_no_template_tools_and_its_calls_are_read_from_the_reply_text():
    model = ScriptedGenerator(native_balance_agent)
    records, summary = roll([balance_task()], model, k=1, agent="llm", rendering="compact", backend="vllm")
    record = records[0]
    calls = [(s.function, s.kwargs) for s in record.trajectory if isinstance(s, ApiAction)]
    assert calls == [
        ("find_user_id_by_name_zip", {"first_name": "Ivo", "last_name": "Dvorak", "zip": "31412"}),
        ("get_user_details", {"user_id": IVO}),
    ]
    assert record.verifier.result.passed is True, record.verifier.result.reasons
    agent = {"name": "llm", "version": "1", "tool_calls": "native", "rendering": "compact"}
    assert record.lineage.generator["agent"] == agent and summary.end_reasons == {"done": 1}
    for request in model.requests:
        assert request.tools is None
        assert request.messages[0]["content"] == agent_prompt(balance_task().environment, "compact").system


def test_a_compact_agent_in_schema_mode_is_told_the_json_shape_instead_of_the_tool_call_markup():
    task = balance_task()
    config = RolloutConfig(agent="llm", tool_calls="schema", rendering="compact", backend="vllm")
    request = LlmAgent(config)._base_request(TaskContext(task, task.environment.tools))
    system = request.messages[0]["content"]
    assert system.startswith(RETAIL_SUMMARY_START) and system.endswith(SCHEMA_INSTRUCTION)
    assert "<tool_call>" not in system and request.tools is None
    assert request.json_schema == action_schema(task.environment.tools)
