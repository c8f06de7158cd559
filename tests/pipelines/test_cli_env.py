"""`aceforge env list | show | make-db`."""

from __future__ import annotations

import json

from environments.db_files import load_db
from environments.retail.env import RetailWorld
from tests.pipelines.cli_helpers import invoke


def test_list_names_the_tool_worlds():
    result = invoke("env", "list", "--json")
    assert result.exit_code == 0, result.output
    listed = {row["name"]: row for row in json.loads(result.stdout)}
    assert listed["retail"]["tools"] == 15 and listed["airline"]["tools"] == 15
    assert listed["code"]["tools"] == 2  # run_python, submit_solution
    assert listed["retail"]["doc"].startswith("Online store support")


def test_show_prints_tools_with_access_and_the_policy():
    result = invoke("env", "show", "retail")
    assert result.exit_code == 0, result.output
    assert "cancel_pending_order" in result.stdout and "write" in result.stdout
    assert "# Retail store: rules for the support agent" in result.stdout
    shown = json.loads(invoke("env", "show", "airline", "--json").stdout)
    tools = {t["name"]: t for t in shown["tools"]}
    assert tools["book_reservation"]["access"] == "write"
    assert tools["search_direct_flight"]["parameters"]["required"] == ["origin", "destination", "date"]
    assert shown["policy"].startswith("# Airline")


def test_make_db_writes_the_seeded_database(tmp_path):
    result = invoke("env", "make-db", "retail", "--users", 20, "--seed", 7, "-o", tmp_path / "db.json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    db = load_db(tmp_path / "db.json")
    assert summary["tables"] == {"products": 30, "users": 20, "orders": len(db["orders"])}
    assert summary["state_hash"] == RetailWorld(users=20, seed=7).state_hash() == RetailWorld(state=db).state_hash()


def test_unknown_environment_is_a_usage_error(tmp_path):
    result = invoke("env", "make-db", "bank", "-o", tmp_path / "db.json")
    assert result.exit_code == 2
    assert "unknown environment 'bank'" in result.output
    assert invoke("env", "show", "bank").exit_code == 2
