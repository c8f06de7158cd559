"""The tool-world machinery on a small bank world: validation, transactions, hashing, log, registry."""

from __future__ import annotations

import pytest

from environments import registry
from environments.base import canonical_hash
from environments.common_tools import CustomerServiceTools
from environments.registry import get_environment, list_environments, register_environment
from environments.state_store import Snapshot, as_snapshot
from environments.to_record import to_record_environment
from environments.tool_world import ToolError, ToolWorld, params, tool


class Bank(CustomerServiceTools, ToolWorld):
    name = "bank"
    policy = "Move money only between existing accounts."

    def generate_state(self, seed: int) -> dict:
        return {"accounts": {"a": {"balance": 10 + seed}, "b": {"balance": 5}}, "log": {}}

    @tool("Balance of an account.", params({"account": {"type": "string"}}))
    def balance(self, account: str) -> float:
        return self.row("accounts", account, "account")["balance"]

    @tool(
        "Move money; debits first, so a failed credit must roll back the debit.",
        params(
            {
                "source": {"type": "string"},
                "target": {"type": "string"},
                "amount": {"type": "number", "exclusiveMinimum": 0},
            }
        ),
        access="write",
    )
    def transfer(self, source: str, target: str, amount: float) -> str:
        self.edit("accounts", source, "account")["balance"] -= amount
        if self.find("accounts", source)["balance"] < 0:
            raise ToolError("insufficient funds")
        self.edit("accounts", target, "account")["balance"] += amount
        return "done"

    @tool("Open an account.", params({"account": {"type": "string"}}), access="write")
    def open_account(self, account: str) -> str:
        self.insert("accounts", account, {"balance": 0})
        return account

    @tool("A tool with a bug, to show that bugs become failed calls.", access="write")
    def broken(self) -> None:
        self.edit("accounts", "a", "account")["balance"] = 0
        raise RuntimeError("boom")


@pytest.fixture
def bank() -> Bank:
    return Bank(seed=0)


def test_tools_are_declared_once_with_access_and_schema(bank):
    tools = {t.name: t for t in bank.tools()}
    assert list(tools)[:4] == ["balance", "transfer", "open_account", "broken"]
    assert tools["transfer"].access == "write" and tools["balance"].access == "read"
    assert tools["transfer"].parameters["required"] == ["source", "target", "amount"]
    assert tools["transfer"].parameters["additionalProperties"] is False
    assert {"calculate", "transfer_to_human_agents"} <= set(tools)


@pytest.mark.parametrize(
    "name, arguments, error",
    [
        ("withdraw", {}, "unknown tool 'withdraw'"),
        ("balance", ["a"], "arguments of balance must be a JSON object"),
        ("balance", {}, "invalid arguments for balance: missing required argument 'account'"),
        ("balance", {"account": 1}, "invalid arguments for balance: argument 'account' must be of type string"),
        ("balance", {"account": "a", "pin": 1}, "invalid arguments for balance: unexpected argument 'pin'"),
        (
            "transfer",
            {"source": "a", "target": "b", "amount": -1},
            "invalid arguments for transfer: argument 'amount' is invalid: -1 is less than or equal to the minimum of 0",
        ),
        (
            "transfer",
            {"source": "a", "target": "b", "amount": True},
            "invalid arguments for transfer: argument 'amount' must be of type number",
        ),
        ("balance", {"account": "zz"}, "account 'zz' not found"),
        ("transfer", {"source": "a", "target": "b", "amount": 11}, "insufficient funds"),
        ("transfer", {"source": "a", "target": "nobody", "amount": 1}, "account 'nobody' not found"),
        ("open_account", {"account": "a"}, "accounts row 'a' already exists"),
        ("broken", {}, "internal error in broken: RuntimeError: boom"),
    ],
)
def test_failed_calls_report_stable_errors_and_leave_state_unchanged(bank, name, arguments, error):
    before_hash, before_state = bank.state_hash(), bank.state()
    result = bank.call(name, arguments)
    assert (result.ok, result.error) == (False, error)
    assert result.as_text() == f"Error: {error}"
    assert bank.state_hash() == before_hash and bank.state() == before_state
    assert bank.action_log[-1]["ok"] is False and bank.action_log[-1]["writes"] == []


def test_successful_write_commits_and_logs_touched_rows(bank):
    result = bank.call("transfer", {"source": "a", "target": "b", "amount": 4})
    assert result.ok and result.content == "done"
    assert bank.call("balance", {"account": "a"}).content == 6
    assert bank.call("balance", {"account": "b"}).content == 9
    assert bank.action_log[0]["rows"] == {
        ("accounts", "a"): ({"balance": 10}, {"balance": 6}),
        ("accounts", "b"): ({"balance": 5}, {"balance": 9}),
    }
    assert {k: v for k, v in bank.action_log[0].items() if k != "rows"} == {
        "tool": "transfer",
        "arguments": {"source": "a", "target": "b", "amount": 4},
        "access": "write",
        "ok": True,
        "error": None,
        "writes": [["accounts", "a"], ["accounts", "b"]],
    }


def test_incremental_hash_equals_hash_of_a_fresh_world_with_the_same_content(bank):
    initial = bank.state_hash()
    bank.call("transfer", {"source": "a", "target": "b", "amount": 4})
    bank.call("open_account", {"account": "c"})
    changed = bank.state_hash()
    assert changed != initial
    assert Bank(state=bank.state()).state_hash() == changed
    # Moving the money back restores the initial content and therefore the initial hash.
    bank.call("transfer", {"source": "b", "target": "a", "amount": 4})
    assert bank.state_hash() != initial  # account c still exists
    assert Bank(state=bank.state()).state_hash() == bank.state_hash()


def test_reset_from_a_state_never_mutates_it_and_reuses_its_snapshot(bank):
    state = bank.state()
    copy_before = canonical_hash(state)
    bank.reset(state=state)
    bank.call("transfer", {"source": "a", "target": "b", "amount": 1})
    assert canonical_hash(state) == copy_before
    assert as_snapshot(state) is as_snapshot(state)
    bank.reset(state=state)
    assert bank.session == {} and bank.action_log == [] and bank.call("balance", {"account": "a"}).content == 10


def test_seed_changes_the_generated_state():
    assert Bank(seed=1).state_hash() != Bank(seed=0).state_hash() == Bank(seed=0).state_hash()


def test_calculator_evaluates_arithmetic(bank):
    assert bank.call("calculate", {"expression": "(1 + 2) * 4 / 3 - -0.5"}).content == 4.5
    assert bank.call("calculate", {"expression": "10 / 3"}).content == 3.33


@pytest.mark.parametrize(
    "expression, error",
    [
        ("__import__('os').system('true')", "only numbers, + - * / and parentheses are allowed"),
        ("2 ** 3", "only numbers, + - * / and parentheses are allowed"),
        ("1 / 0", "division by zero"),
        ("1 +", "expression is not valid arithmetic"),
    ],
)
def test_calculator_refuses_anything_but_arithmetic(bank, expression, error):
    assert bank.call("calculate", {"expression": expression}).error == error


def test_transfer_to_human_marks_the_session(bank):
    assert bank.call("transfer_to_human_agents", {"summary": "wants a loan"}).content == "Transfer successful"
    assert bank.session["transferred"] is True


def test_snapshot_rejects_a_state_that_is_not_tables():
    with pytest.raises(ValueError, match="dict of tables"):
        Snapshot({"accounts": [1, 2]})


def test_registry_lists_builtins_and_registered_factories(request):
    assert {"retail", "airline", "code"} <= set(list_environments())
    register_environment("bank", Bank)
    request.addfinalizer(lambda: registry.ENVIRONMENTS.unregister("bank"))
    assert "bank" in list_environments()
    assert get_environment("bank", seed=2).call("balance", {"account": "a"}).content == 12
    with pytest.raises(KeyError, match="unknown environment 'nope'"):
        get_environment("nope")


def test_record_environment_carries_tools_policy_and_initial_hash(bank):
    env = to_record_environment(bank, snapshot_id="bank-seed0")
    assert env.kind == "tool_world" and env.name == "bank" and env.policy == Bank.policy
    assert [t.name for t in env.tools] == [t.name for t in bank.tools()]
    assert env.initial_state.snapshot_id == "bank-seed0"
    assert env.initial_state.content_hash == bank.state_hash()
    assert env.sandbox == {"env_params": {}, "seed": 0}


def test_record_environment_of_a_seeded_world_names_how_to_rebuild_it():
    env = to_record_environment(get_environment("retail", users=30, seed=4))
    assert env.initial_state.snapshot_id == "retail-seed4-users30"
    assert env.sandbox == {"env_params": {"users": 30}, "seed": 4}
    loaded = Bank(state=Bank(seed=0).state())
    with pytest.raises(ValueError, match="say where it is kept"):
        to_record_environment(loaded)
    assert to_record_environment(loaded, snapshot_id="file:bank.json").sandbox == {"env_params": {}}
