"""Readers of agent benchmark runs, agent files and task sets (AgentBench, Letta, BFCL, Aider) on small
excerpts (samples/<name>/PROVENANCE.md): a fidelity test per reader that reads the expected content
straight from the file. Their auto detection is tested with the others in test_agent_logs.py."""

from __future__ import annotations

import re

from tests.data_catalog.sources.fidelity import Item, assert_faithful
from tests.data_catalog.sources.test_agent_logs import convert, lines

_THINK_ACT = re.compile(r"\AThink: (?P<think>.*?)\n\nAct: (?P<act>.*)\Z", re.S)
_BASH = re.compile(r"```bash\n(?P<command>.*?)\n```", re.S)
_OS_OUTPUT = "The output of the OS:\n"


def _agentbench_items(history: list[dict]) -> list[Item]:
    """The os_interaction turns: instructions and problems (user), Think/Act turns (thinking, then a bash
    call or the answer), the OS's replies (environment, their frame off)."""
    items = []
    for turn in history:
        text = turn["content"]
        if turn["role"] == "user":
            framed = text.startswith(_OS_OUTPUT)
            items.append(Item("environment", text[len(_OS_OUTPUT) :]) if framed else Item("user", text))
            continue
        turn_parts = _THINK_ACT.match(text)
        items.append(Item("thinking", turn_parts["think"]))
        act = turn_parts["act"]
        if act.startswith("bash"):
            items.append(Item("call", "bash", {"command": _BASH.search(act)["command"]}))
        else:
            items.append(Item("text", act.removeprefix("answer(").removesuffix(")")))
    return items


def test_agentbench_run_output(tmp_path):
    (record,) = convert("agentbench/runs.jsonl", tmp_path)
    (line,) = lines("agentbench/runs.jsonl")
    items = _agentbench_items(line["output"]["history"])
    assert_faithful(record, items, shell={"bash": "command"})
    assert [s.content for s in record.trajectory if s.class_ == "code_action"] == [
        "ls /etc",
        "ls -1 /etc | wc -l",
        "wc -c /root/log; sleep 3; wc -c /root/log",
    ]
    last = record.trajectory[-1]
    assert (last.class_, last.content) == ("message_action", "1")  # the final answer
    assert record.trajectory[-2].source == "environment"  # the OS's reply, not a user turn
    assert (record.source.format, record.source.original_id) == ("agentbench", "0")
    assert record.lineage.generator == {"agent": "agentbench"}
    assert (record.verifier.kind, record.verifier.result.passed, record.verifier.result.verifier) == (
        "reward",
        True,
        "agentbench",
    )
    assert record.details["status"] == "completed" and record.details["result"] == {"result": True}
