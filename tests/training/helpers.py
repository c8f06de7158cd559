"""Known records for the training tests: a literal conversation, and retail tasks and oracle rollouts.

The retail world is the seed-0, 20-user one; its ids below were read from it.
Tasks follow /work/notes/task_record_contract.md (E right after the seeded
reset, scenario, constraints, gold actions, metadata with complexity).
"""

from __future__ import annotations

from environments.registry import get_environment
from environments.to_record import to_record_environment
from generators.rollouts.oracle import confirmation
from generators.rollouts.scripted_user import YES
from schemas.record import AgentRecord, Environment, Source, Task, Tool, Verifier
from schemas.steps import ApiAction, MessageAction, TextObservation
from verifiers.money import amounts_of_last_call

ORDER_TOOL = Tool(
    name="get_order",
    description="Look up an order by id.",
    parameters={"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
)
CANCEL_TOOL = Tool(
    name="cancel_order",
    description="Cancel a pending order.",
    parameters={"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
    access="write",
)


def literal_record(record_id: str = "lit-1") -> AgentRecord:
    """Policy, user, reasoning + call, result, reply, user, two parallel calls, their results, final reply."""
    trajectory = [
        TextObservation(content="Where is order 12?", source="user"),
        ApiAction(function="get_order", kwargs={"order_id": "12"}, tool_call_id="c1", reasoning="I will look it up."),
        TextObservation(content='{"status": "shipped"}', source="tool", tool_call_id="c1"),
        MessageAction(content="Order 12 has shipped."),
        TextObservation(content="Cancel 13 and check 14.", source="user"),
        ApiAction(function="cancel_order", kwargs={"order_id": "13"}, tool_call_id="c2"),
        ApiAction(function="get_order", kwargs={"order_id": "14"}, tool_call_id="c3"),
        TextObservation(content='{"cancelled": true}', source="tool", tool_call_id="c2"),
        TextObservation(content='{"status": "pending"}', source="tool", tool_call_id="c3"),
        MessageAction(content="Done: 13 is cancelled, 14 is pending."),
    ]
    return AgentRecord(
        id=record_id,
        # Copies: a test that edits its record's tools must not edit the next test's.
        environment=Environment(
            kind="tool_world",
            name="shop",
            tools=[t.model_copy(deep=True) for t in (ORDER_TOOL, CANCEL_TOOL)],
            policy="Be brief.",
        ),
        task=Task(instruction="Where is order 12?", metadata={"complexity": 1}),
        trajectory=trajectory,
        source=Source(dataset="unit", format="literal", original_id=record_id),
    )


def record_with_a_failed_call(call: ApiAction, error: str) -> AgentRecord:
    """``literal_record`` where the agent first makes ``call`` (a bad one, id "c0"), is told ``error``, then goes on."""
    record = literal_record("slip")
    record.trajectory[1:1] = [call, TextObservation(content=error, source="tool", tool_call_id="c0")]
    return record


BAD_TYPE_CALL = ApiAction(function="get_order", kwargs={"order_id": 12}, tool_call_id="c0")
BAD_TYPE_ERROR = "Error: invalid arguments for get_order: order_id: 12 is not of type 'string'"
UNKNOWN_CALL = ApiAction(function="track_parcel", kwargs={"order_id": "12"}, tool_call_id="c0")
UNKNOWN_ERROR = "Error: unknown tool 'track_parcel'"


# (user id, email, pending order to cancel) in the seed-0, 20-user retail world.
RETAIL_CANCEL = ("umar_xu_3769", "umar.xu3769@mail.test", "#R2119897")


def retail_cancel_task(task_id: str = "task-cancel", complexity: int = 2) -> AgentRecord:
    """Cancel a pending order: a write goal plus a guard rail (no write outside that order)."""
    env = get_environment("retail", users=20)
    user_id, email, order_id = RETAIL_CANCEL
    constraints = [
        {"id": "cancelled", "check": "state_equals", "path": f"orders.{order_id}.status", "value": "cancelled"},
        {"id": "scope", "check": "no_write_outside", "scope": [f"orders.{order_id}", f"users.{user_id}"]},
    ][:complexity]
    gold = [
        {"name": "find_user_id_by_email", "arguments": {"email": email}},
        {"name": "cancel_pending_order", "arguments": {"order_id": order_id, "reason": "no longer needed"}},
    ]
    return AgentRecord(
        id=task_id,
        environment=to_record_environment(env),
        task=Task(
            instruction=f"Cancel my pending order {order_id}; I no longer need it. My email is {email}.",
            user_scenario={
                "persona": "a busy customer",
                "reason": f"You want to cancel your pending order {order_id}.",
                "known_info": {"email": email, "order_id": order_id, "cancel_reason": "no longer needed"},
                "unknown_info": [],
                "instructions": ["Confirm the cancellation when asked."],
            },
            constraints=constraints,
            expected_outputs={"gold_actions": gold, "gold_label": "programmatic", "outcome": "write"},
            metadata={"task_kind": "cancel", "complexity": len(constraints), "seed": 0},
        ),
        verifier=Verifier(kind="constraints"),
        source=Source(dataset="unit_tasks", format="synth_tasks", original_id=task_id),
    )


def oracle_rollout(task: AgentRecord, record_id: str | None = None) -> AgentRecord:
    """The task solved by its gold actions in a fresh world: user turn, calls with live results (each write
    confirmed first, naming the call and the money it moves, and the user's yes), final reply."""
    env = get_environment("retail", users=20)
    steps: list = [TextObservation(content=task.task.instruction, source="user")]
    for index, action in enumerate(task.task.expected_outputs["gold_actions"]):
        call_id = f"call_{index}"
        result = env.call(action["name"], action["arguments"])
        if env.tool_spec(action["name"]).access == "write":
            amounts = amounts_of_last_call(env)
            steps.append(MessageAction(content=confirmation(action["name"], action["arguments"], amounts)))
            steps.append(TextObservation(content=YES, source="user"))
        steps.append(ApiAction(function=action["name"], kwargs=action["arguments"], tool_call_id=call_id))
        steps.append(TextObservation(content=result.as_text(), source="tool", tool_call_id=call_id))
    steps.append(MessageAction(content="Your order is cancelled and the refund is on its way."))
    return task.model_copy(update={"id": record_id or f"{task.id}-oracle", "trajectory": steps}, deep=True)


def short_chat(record_id: str) -> AgentRecord:
    """A two-turn chat without tools (about 40 tokens): training steps on it take well under a second on a CPU."""
    number = sum(map(ord, record_id)) % 50
    return AgentRecord(
        id=record_id,
        environment=Environment(policy="Answer with one number."),
        trajectory=[
            TextObservation(content=f"What is {number} plus one?", source="user"),
            MessageAction(content=str(number + 1)),
        ],
        source=Source(dataset="unit", format="literal", original_id=record_id),
    )


SMALL_POLICY = "You are a store's support agent. Find the user by email before changing an order."
SMALL_TOOLS = ("find_user_id_by_email", "get_order_details", "cancel_pending_order")


def small_retail_task(task_id: str = "task-small") -> AgentRecord:
    """The cancel task with three of retail's tools and a one-line policy (a prompt of about 500 tokens), and a
    third goal: the agent tells the user about the cancellation."""
    task = retail_cancel_task(task_id)
    tools = [tool for tool in task.environment.tools if tool.name in SMALL_TOOLS]
    environment = task.environment.model_copy(update={"tools": tools, "policy": SMALL_POLICY})
    told = {"id": "told", "check": "message_contains", "text": "cancel"}
    q = task.task.model_copy(update={"constraints": [*task.task.constraints, told]}, deep=True)
    q.metadata["complexity"] = 3
    return task.model_copy(update={"environment": environment, "task": q})


# A plain OpenAI-chat row (messages + tools), as TRL users keep their data.
CHAT_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_order",
            "description": "Look up an order by id.",
            "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}},
        },
    }
]
CHAT = {
    "messages": [
        {"role": "user", "content": "Where is order 12?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": '{"order_id": "12"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": '{"status": "shipped"}'},
        {"role": "assistant", "content": "It has shipped."},
    ],
    "tools": CHAT_TOOLS,
}
