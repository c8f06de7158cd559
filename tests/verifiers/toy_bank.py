"""A tiny ToolEnvironment for verifier tests: accounts with balances, a transfer, a note.

It implements the bare protocol (not ToolWorld), so the verifiers' generic
paths (full-state diff, state() reads) are exercised too.
"""

from __future__ import annotations

import copy
from typing import Any

from environments.base import ToolEnvironment, ToolResult
from schemas.record import AgentRecord, Environment, Source, Task, Tool, Verifier
from schemas.steps import ApiAction, MessageAction, TextObservation

INITIAL = {
    "accounts": {
        "a1": {"owner": "ana", "balance": 100.0, "note": ""},
        "a2": {"owner": "bo", "balance": 20.0, "note": ""},
        "a3": {"owner": "cy", "balance": 5.0, "note": ""},
    },
}
TOOLS = [
    Tool(
        name="get_balance",
        parameters={
            "type": "object",
            "properties": {"account_id": {"type": "string"}},
            "required": ["account_id"],
            "additionalProperties": False,
        },
        access="read",
    ),
    Tool(
        name="transfer",
        parameters={
            "type": "object",
            "properties": {
                "source": {"type": "string"},
                "target": {"type": "string"},
                "amount": {"type": "number", "exclusiveMinimum": 0},
            },
            "required": ["source", "target", "amount"],
            "additionalProperties": False,
        },
        access="write",
    ),
    Tool(
        name="set_note",
        parameters={
            "type": "object",
            "properties": {"account_id": {"type": "string"}, "note": {"type": "string"}},
            "required": ["account_id", "note"],
            "additionalProperties": False,
        },
        access="write",
    ),
]


class ToyBank(ToolEnvironment):
    name = "bank"

    def __init__(self, seed: int = 0, state: dict | None = None):
        self.reset(seed=seed, state=state)

    def reset(self, seed: int | None = None, state: dict[str, Any] | None = None) -> None:
        self._state = copy.deepcopy(state if state is not None else INITIAL)
        if seed:  # the seed moves a1's balance, so seeded states differ
            self._state["accounts"]["a1"]["balance"] += seed

    def tools(self) -> list[Tool]:
        return TOOLS

    def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        accounts = self._state["accounts"]
        if name == "get_balance":
            account = accounts.get(arguments.get("account_id"))
            return (
                ToolResult(ok=True, content={"balance": account["balance"]})
                if account
                else ToolResult(ok=False, error="no such account")
            )
        if name == "transfer":
            source, target = accounts.get(arguments.get("source")), accounts.get(arguments.get("target"))
            if source is None or target is None:
                return ToolResult(ok=False, error="no such account")
            if source["balance"] < arguments["amount"]:
                return ToolResult(ok=False, error="insufficient funds")
            source["balance"] -= arguments["amount"]
            target["balance"] += arguments["amount"]
            return ToolResult(ok=True, content="done")
        if name == "set_note":
            account = accounts.get(arguments.get("account_id"))
            if account is None:
                return ToolResult(ok=False, error="no such account")
            account["note"] = arguments["note"]
            return ToolResult(ok=True, content="noted")
        return ToolResult(ok=False, error=f"unknown tool '{name}'")

    def state(self) -> dict[str, Any]:
        return copy.deepcopy(self._state)


def bank_factory(name: str, **kwargs: Any) -> ToolEnvironment:
    if name != "bank":
        raise KeyError(f"unknown environment {name!r}")
    return ToyBank(**kwargs)


def call(fn: str, cid: str, **kwargs: Any) -> ApiAction:
    return ApiAction(function=fn, kwargs=kwargs, tool_call_id=cid)


def result(cid: str, content: str) -> TextObservation:
    return TextObservation(content=content, source="tool", tool_call_id=cid)


def user(text: str) -> TextObservation:
    return TextObservation(content=text, source="user")


def say(text: str) -> MessageAction:
    return MessageAction(content=text)


def bank_record(
    trajectory: list,
    constraints: list[dict] | None = None,
    kind: str = "constraints",
    spec: dict | None = None,
    **env: Any,
) -> AgentRecord:
    """A record in the bank environment (seed 0 unless ``env`` says otherwise)."""
    return AgentRecord(
        id="bank-test",
        environment=Environment(kind="tool_world", name="bank", tools=TOOLS, **env),
        task=Task(
            instruction="Move 30 from a1 to a2 and tell me the new balance of a2.", constraints=constraints or []
        ),
        trajectory=trajectory,
        verifier=Verifier(kind=kind, spec=spec or {}),
        source=Source(dataset="unit", format="literal"),
    )


def good_trajectory() -> list:
    return [
        user("Please move 30 from a1 to a2."),
        call("transfer", "c1", source="a1", target="a2", amount=30),
        result("c1", "done"),
        call("get_balance", "c2", account_id="a2"),
        result("c2", '{"balance":50.0}'),
        say("Done: a2 now holds $50.00."),
    ]


GOAL = [
    {"id": "a2_balance", "check": "state_equals", "path": "accounts.a2.balance", "value": 50.0},
    {"id": "a1_paid", "check": "state_delta", "path": "accounts.a1.balance", "delta": -30, "tolerance": 0.01},
    {"id": "told", "check": "message_contains", "number": 50, "tolerance": 0.01},
]
