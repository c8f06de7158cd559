"""Hand-built tasks in the contract's shape (task_record_contract.md) and a scripted stand-in for a model.

Seed-0, 500-user retail world: vera_kim_2362 has the pending order #R5683800,
paid 708.44 with gift card gift_card_4370522 (the cancellation of
tests/verifiers/retail_cancel.py); ivo_dvorak_0072 (zip 31412) has gift card
gift_card_1639125 with a balance of 54.00 and two pending orders.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from environments.registry import get_environment
from environments.to_record import to_record_environment
from generators.rollouts.config import RolloutConfig
from generators.rollouts.runner import RolloutSummary, run_rollouts
from schemas.generation import Capabilities, ChatRequest, Completion, GenerationResult, SamplingParams
from schemas.record import AgentRecord, Source, Task, Verifier
from tests.verifiers.retail_cancel import CONSTRAINTS, ORDER

IVO, IVO_CARD = "ivo_dvorak_0072", "gift_card_1639125"
RULES = [
    "Reveal information only when the agent asks for it, one detail at a time.",
    "When the agent describes exactly the change you asked for and asks to confirm, say yes.",
]


def task_record(
    key: str, instruction: str, scenario: Any, constraints: list[dict], gold: list, outcome: str
) -> AgentRecord:
    env = get_environment("retail", users=500)
    return AgentRecord(
        id=f"task-{key}",
        environment=to_record_environment(env),
        task=Task(
            instruction=instruction,
            user_scenario=scenario,
            constraints=constraints,
            expected_outputs={
                "gold_actions": [{"name": name, "arguments": arguments} for name, arguments in gold],
                "gold_label": "programmatic",
                "outcome": outcome,
            },
            metadata={"task_kind": key, "complexity": len(constraints), "synthesizer": "hand", "seed": 0},
        ),
        verifier=Verifier(kind="constraints"),
        source=Source(dataset="unit", format="synth_tasks", original_id=key),
    )


def cancel_task(scenario: Any = None) -> AgentRecord:
    """Cancel Vera's pending order, ordered by mistake (5 constraints: state, refund, message, scope)."""
    default = {
        "persona": "Vera Kim, polite and patient.",
        "reason": "You contact retail customer support because you ordered something by mistake and want it cancelled.",
        "known_info": {"email": "vera.kim2362@inbox.test", "order_id": ORDER, "cancel_reason": "ordered by mistake"},
        "unknown_info": ["the refund amount"],
        "instructions": RULES,
    }
    gold = [
        ("find_user_id_by_email", {"email": "vera.kim2362@inbox.test"}),
        ("get_order_details", {"order_id": ORDER}),
        ("cancel_pending_order", {"order_id": ORDER, "reason": "ordered by mistake"}),
    ]
    return task_record(
        "cancel", "Cancel order #R5683800 (ordered by mistake).", scenario or default, CONSTRAINTS, gold, "write"
    )


def balance_task() -> AgentRecord:
    """Tell Ivo his gift card balance (a read goal) and change nothing."""
    scenario = {
        "persona": "Ivo Dvorak, in a hurry.",
        "reason": "You contact retail customer support because you want to know the balance of your gift card.",
        "known_info": {"first_name": "Ivo", "last_name": "Dvorak", "zip": "31412"},
        "unknown_info": ["the balance"],
        "instructions": RULES,
    }
    constraints = [
        {"id": "balance", "check": "message_contains", "number": 54.0, "tolerance": 0.01},
        {"id": "no_writes", "check": "no_write_outside", "scope": []},
    ]
    gold = [
        ("find_user_id_by_name_zip", {"first_name": "Ivo", "last_name": "Dvorak", "zip": "31412"}),
        ("get_user_details", {"user_id": IVO}),
    ]
    return task_record("balance", "Gift card balance of Ivo Dvorak.", scenario, constraints, gold, "read")


class ScriptedGenerator:
    """A stand-in for a generator: ``reply(request)`` gives each request's text (or a whole GenerationResult).

    It remembers the size of every batch it was handed, and every request, so scheduling can be asserted.
    """

    model_id = {"model": "scripted", "hash": "0"}
    capabilities = Capabilities(supports_tools=True, supports_json_schema=True)

    def __init__(self, reply: Callable[[ChatRequest], str | GenerationResult], tokens_out: int = 5):
        self.reply, self.tokens_out = reply, tokens_out
        self.batches: list[int] = []
        self.requests: list[ChatRequest] = []

    def generate(self, requests: list[ChatRequest], params: SamplingParams, on_result=None) -> list[GenerationResult]:
        self.batches.append(len(requests))
        self.requests.extend(requests)
        results = []
        for request in requests:
            answer = self.reply(request)
            if not isinstance(answer, GenerationResult):
                answer = GenerationResult(completions=[Completion(text=answer)], tokens_out=self.tokens_out)
            results.append(answer)
        return results


def hermes_call(name: str, arguments: dict) -> str:
    """A tool call as a ChatML model writes it (the Hermes block the chat template renders for a call)."""
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": arguments}) + "\n</tool_call>"


def native_balance_agent(request: ChatRequest) -> str:
    """A model behind the llm agent in native mode on balance_task: asks who the user is, looks Ivo up, reads his
    profile, tells the balance (with the scripted user: a passing rollout of four agent turns)."""
    tool_results = [m for m in request.messages if m["role"] == "tool"]
    if len(request.messages) == 2:
        return "May I have your first name, last name and zip code?"
    if not tool_results:
        return hermes_call("find_user_id_by_name_zip", {"first_name": "Ivo", "last_name": "Dvorak", "zip": "31412"})
    if len(tool_results) == 1:
        return hermes_call("get_user_details", {"user_id": tool_results[0]["content"]})
    return "Your gift card balance is $54.00."


def is_agent(request: ChatRequest) -> bool:
    """Agent requests carry E's tools; the user simulator's carry none."""
    return bool(request.tools)


def roll(
    tasks: list[AgentRecord], generator=None, capacity: int | None = None, **options
) -> tuple[list[AgentRecord], RolloutSummary]:
    """Run rollouts in memory; returns the records (in input order) and the summary."""
    summary = RolloutSummary()
    records = list(run_rollouts(tasks, RolloutConfig(**options), generator, "unit", summary, capacity=capacity))
    return records, summary
