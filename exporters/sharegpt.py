"""Export records in LLaMA-Factory's ShareGPT format with tools, and the dataset_info.json entry that reads it.

One row per record (a JSON array in a ``.json`` file, one JSON line each in a ``.jsonl`` one)::

    {"id": ..., "system": "<policy>", "tools": "<JSON list of function specs>",
     "conversations": [{"from": "human"|"gpt"|"function_call"|"observation", "value": str}, ...]}

LLaMA-Factory wants user-side turns (human, observation) at odd positions and
assistant-side turns (gpt, function_call) at even ones, so:

- a ``function_call`` value is the call as JSON ``{"name", "arguments"}``, or a
  list of them for parallel calls; the results of one assistant turn become one
  ``observation`` (the single result's text, or a JSON list of the texts);
- consecutive turns of one side are joined with a blank line;
- a conversation the agent opens (a greeting) starts with an empty ``human`` turn;
- text an assistant turn says alongside its calls has no place in a
  ``function_call`` turn: it is left out and counted (``call_text_dropped``);
- the format has no per-turn loss mask, so a failed call's turn (``"weight": 0``, training.render)
  and its error are left out, so as not to train on the mistake, and counted (``failed_call_turns_dropped``);
- in the compact rendering (generators/rollouts/agent_prompt.py) ``system`` holds the tool lines and
  ``tools`` is ``[]``: the tools are shown once, as the learner sees them in its rollouts.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from generators.rollouts.agent_prompt import Rendering
from schemas.io import atomic_output, write_jsonl_rows
from schemas.record import AgentRecord
from training.inputs import read_training_input
from training.render import Chat, RenderStats, render_records

USER_SIDE = ("human", "observation")


def _calls_value(tool_calls: list[dict[str, Any]]) -> str:
    calls = [{"name": c["function"]["name"], "arguments": c["function"]["arguments"]} for c in tool_calls]
    return json.dumps(calls[0] if len(calls) == 1 else calls, ensure_ascii=False)


def _turns(messages: list[dict[str, Any]], notes: Counter) -> list[dict[str, str]]:
    turns: list[dict[str, Any]] = []
    dropped: set[str] = set()  # ids of the calls of untrained turns: their results go too
    for message in messages:
        role = message["role"]
        if message.get("weight") == 0:
            notes["failed_call_turns_dropped"] += 1
            dropped.update(call["id"] for call in message.get("tool_calls", []))
        elif role == "tool" and message["tool_call_id"] in dropped:
            continue
        elif role == "assistant" and message.get("tool_calls"):
            notes["call_text_dropped"] += bool(message["content"])
            turns.append({"from": "function_call", "value": _calls_value(message["tool_calls"])})
        elif role == "tool":
            if turns and turns[-1]["from"] == "observation":
                turns[-1]["results"].append(message["content"])
            else:
                turns.append({"from": "observation", "results": [message["content"]]})
        else:
            side = "gpt" if role == "assistant" else "human"
            if turns and turns[-1]["from"] == side:
                turns[-1]["value"] += "\n\n" + message["content"]
            else:
                turns.append({"from": side, "value": message["content"]})
    for turn in turns:
        if "results" in turn:
            results = turn.pop("results")
            turn["value"] = results[0] if len(results) == 1 else json.dumps(results, ensure_ascii=False)
    if turns and turns[0]["from"] not in USER_SIDE:
        turns.insert(0, {"from": "human", "value": ""})
    return turns


def sharegpt_row(record: AgentRecord, chat: Chat, notes: Counter) -> dict[str, Any]:
    messages = chat.messages
    system = ""
    if messages and messages[0]["role"] == "system":
        system, messages = messages[0]["content"], messages[1:]
    functions = [tool["function"] for tool in chat.tools or []]
    return {
        "id": record.id,
        "system": system,
        "tools": json.dumps(functions, ensure_ascii=False),
        "conversations": _turns(messages, notes),
    }


def dataset_info(file_name: str) -> dict[str, Any]:
    """The dataset_info.json entry LLaMA-Factory needs to read the file."""
    return {
        "file_name": file_name,
        "formatting": "sharegpt",
        "columns": {"messages": "conversations", "system": "system", "tools": "tools"},
    }


def export_sharegpt(records: Iterable[AgentRecord], output: Path, rendering: Rendering = "full") -> dict[str, Any]:
    """Write the file (a JSON array when it ends in .json, else JSON Lines) and ``dataset_info.json`` beside it;
    returns the counts."""
    stats, notes = RenderStats(), Counter()
    rows = (sharegpt_row(r, chat, notes) for r, chat in render_records(records, stats, rendering=rendering))
    if output.suffix == ".json":
        listed = list(rows)
        with atomic_output(output) as tmp:
            tmp.write_text(json.dumps(listed, ensure_ascii=False, indent=1) + "\n")
        written = len(listed)
    else:
        written = write_jsonl_rows(rows, output)
    info_path = output.with_name("dataset_info.json")
    # A LLaMA-Factory data folder lists every dataset in one dataset_info.json: add this one, keep the others.
    entries = json.loads(info_path.read_text()) if info_path.is_file() else {}
    entries[output.stem] = dataset_info(output.name)
    info_path.write_text(json.dumps(entries, indent=2) + "\n")
    return {
        "format": "sharegpt",
        "output": str(output),
        "dataset_info": str(info_path),
        "written": written,
        **stats.as_dict(),
        "call_text_dropped": notes["call_text_dropped"],
        "failed_call_turns_dropped": notes["failed_call_turns_dropped"],
    }


def export(source: Path, output: Path, *, allow_empty: bool = False, rendering: Rendering = "full") -> dict[str, Any]:
    """The registry's entry (exporters/registry.py): the records or chats of ``source`` into ``output``."""
    return export_sharegpt(read_training_input(source, allow_empty), output, rendering)
