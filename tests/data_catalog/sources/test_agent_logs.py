"""Readers of the agent tools people run every day, on small real excerpts (samples/<name>/PROVENANCE.md):
auto detection, and a fidelity test per reader that reads the expected content straight from the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from data_catalog.convert import convert_files
from data_catalog.formats import detect
from schemas.io import read_records
from schemas.record import AgentRecord
from tests.data_catalog.sources.fidelity import Item, assert_faithful

SAMPLES = Path(__file__).parent / "samples"
EXPECTED = {  # sample -> (format, layout auto names, records)
    "claude_code/session.jsonl": ("claude_code", "Claude Code session event", 1),
}


def convert(name: str, tmp_path: Path) -> list[AgentRecord]:
    fmt, _, count = EXPECTED[name]
    stats = convert_files(fmt, [str(SAMPLES / name)], tmp_path / "out.parquet")
    assert (stats.converted, stats.quarantined) == (count, 0), stats.first_errors
    return list(read_records(tmp_path / "out.parquet"))


def lines(name: str) -> list[dict]:
    return [json.loads(line) for line in (SAMPLES / name).read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_auto_picks_each_sample_format(name):
    detection = detect(str(SAMPLES / name))
    assert (detection.fmt, detection.layout) == EXPECTED[name][:2]


def _anthropic_items(role: str, content) -> list[Item]:
    """What one Anthropic message holds, block by block."""
    if isinstance(content, str):
        return [Item("user" if role == "user" else "text", content)] if content.strip() else []
    items = []
    for block in content:
        kind = block["type"]
        if kind == "thinking":
            items.append(Item("thinking", block["thinking"]))
        elif kind == "text" and block["text"].strip():
            items.append(Item("user" if role == "user" else "text", block["text"]))
        elif kind == "tool_use":
            items.append(Item("call", block["name"], block["input"], block["id"]))
        elif kind == "tool_result":
            items.append(Item("result", block["content"], call_id=block["tool_use_id"]))
    return items


def test_claude_code_session(tmp_path):
    (record,) = convert("claude_code/session.jsonl", tmp_path)
    events = lines("claude_code/session.jsonl")
    messages = [e for e in events if e["type"] in ("user", "assistant") and not e.get("isSidechain")]
    items = [item for e in messages for item in _anthropic_items(e["message"]["role"], e["message"]["content"])]
    assert_faithful(record, items, shell={"Bash": "command"})
    assert sum(item.kind == "thinking" for item in items) == 2 and all(
        item.text not in [s.content for s in record.trajectory] for item in items if item.kind == "thinking"
    )  # thinking is reasoning, never text
    assert record.trajectory[-1].content == messages[-1]["message"]["content"][0]["text"]  # the last answer
    assert (record.source.format, record.source.original_id) == ("claude_code", events[5]["sessionId"])
    assert record.lineage.generator == {"agent": "claude-code", "version": "2.1.39", "model": "claude-opus-4-6"}
    assert record.task.instruction.startswith("Work on bead spotter-dov.")
    not_steps = {k: sum(e["type"] == k for e in events) for k in ("progress", "file-history-snapshot")}
    assert record.details["events_not_steps"] == not_steps
    first_call = record.trajectory[1]
    assert (first_call.class_, first_call.content) == ("code_action", "bd show spotter-dov")
    assert record.details["shell_call_options"]["1"] == {"description": "Show spotter-dov issue details"}
