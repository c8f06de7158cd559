"""Readers of agent benchmark runs, agent files and task sets (AgentBench, Letta, BFCL, Aider) on small
excerpts (samples/<name>/PROVENANCE.md): a fidelity test per reader that reads the expected content
straight from the file. Their auto detection is tested with the others in test_agent_logs.py."""

from __future__ import annotations

import json
import re

from tests.data_catalog.sources.fidelity import SAMPLES, Item, assert_faithful, convert, identity, lines, step_texts


def convert_as(fmt: str, path, tmp_path) -> list:
    from data_catalog.convert import convert_files
    from schemas.io import read_records

    stats = convert_files(fmt, [str(path)], tmp_path / "out.parquet")
    assert stats.quarantined == 0, stats.first_errors
    return list(read_records(tmp_path / "out.parquet"))


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
    assert identity(record) == ("agentbench", None, None, [])  # the run output names neither model nor version
    assert record.lineage.generator is None
    assert record.task.instruction.startswith("There's a program that writes 'succeed' into /root/log")
    assert (record.verifier.kind, record.verifier.result.passed, record.verifier.result.verifier) == (
        "reward",
        True,
        "agentbench",
    )
    assert record.details["status"] == "completed" and record.details["result"] == {"result": True}


def _letta_items(messages: list[dict]) -> list[Item]:
    """What each Letta message holds: Letta's own events as system turns, the user's message unwrapped,
    reasoning parts as thinking, an assistant's text (its inner monologue when it calls), each call, each result."""
    items = []
    for msg in messages:
        texts = "\n".join(p["text"] for p in msg["content"] if p["type"] == "text")
        if msg["role"] == "system":
            items.append(Item("system", texts))
        elif msg["role"] == "user":
            event = json.loads(texts) if texts.startswith("{") else {}
            if event.get("type") == "user_message":
                items.append(Item("user", event["message"]))
            else:
                items.append(Item("system" if event else "user", texts))
        elif msg["role"] == "tool":
            items.append(Item("result", texts, call_id=msg["tool_call_id"]))
        else:
            items += [Item("thinking", p["reasoning"]) for p in msg["content"] if p["type"] == "reasoning"]
            if texts.strip():
                items.append(Item("text", texts))
            for call in msg["tool_calls"] or []:
                function = call["function"]
                items.append(Item("call", function["name"], json.loads(function["arguments"]), call["id"]))
    return items


def test_letta_agent_file_of_letta_0_6(tmp_path):
    (record,) = convert("letta/composio_github_star_agent.af", tmp_path)
    agent = json.loads((SAMPLES / "letta/composio_github_star_agent.af").read_text())
    assert_faithful(record, _letta_items(agent["messages"]))
    assert record.task.instruction == "please star this repo https://github.com/letta-ai/letta"
    star = record.trajectory[5]
    assert (star.function, star.reasoning) == (
        "github_star_a_repository_for_the_authenticated_user",
        "User requested to star a specific repository. Proceeding with the action now.",
    )  # MemGPT's inner monologue is the call's reasoning, not a message to the user
    assert [s.source for s in record.trajectory if s.class_ == "text_observation"].count("system") == 3
    assert [t.name for t in record.environment.tools] == [t["name"] for t in agent["tools"]]
    assert record.environment.tools[2].parameters == agent["tools"][2]["json_schema"]["parameters"]
    assert identity(record) == ("letta", "gpt-4o-mini", "0.6.47", [])
    assert record.lineage.generator == {
        "agent_type": "memgpt_agent",
        "agent_name": "composio_github_star_agent",
    }
    assert record.details["memory_blocks"] == ["persona", "human"]


def test_letta_agent_file_every_agent_is_a_record(tmp_path):
    records = convert("letta/lettabot_builder.af", tmp_path)
    document = json.loads((SAMPLES / "letta/lettabot_builder.af").read_text())
    assert [r.source.original_id for r in records] == [a["name"] for a in document["agents"]]
    for record, agent in zip(records, document["agents"]):
        assert_faithful(record, _letta_items(agent["messages"]))
        tools = {t["id"]: t["name"] for t in document["tools"]}
        assert [t.name for t in record.environment.tools] == [tools[i] for i in agent["tool_ids"] if i in tools]
        thinking = [p["reasoning"] for m in agent["messages"] for p in m["content"] if p["type"] == "reasoning"]
        assert thinking and all(t not in step_texts(record) for t in thinking)  # reasoning, never text
    main, sleeptime = records
    assert main.trajectory[-1].class_ == "message_action" and main.trajectory[-1].content.startswith(
        "Here's what I know about you, Cameron:"
    )
    assert identity(sleeptime) == ("letta", "claude-sonnet-4-5-20250929", None, [])  # this file says no version
    assert sleeptime.lineage.generator == {
        "schema_revision": "3e54e2fa2f7e",
        "agent_type": "sleeptime_agent",
        "agent_name": "Nameless Agent-sleeptime",
    }
    assert sleeptime.trajectory[4].function == "memory_replace"


BFCL = SAMPLES / "bfcl_multi_turn"


def _bfcl_functions(classes: list[str]) -> list[dict]:
    files = {"GorillaFileSystem": "gorilla_file_system.json", "TwitterAPI": "posting_api.json"}
    return [json.loads(line) for cls in classes for line in (BFCL / "multi_turn_func_doc" / files[cls]).open()]


def test_bfcl_multi_turn_entries_are_tasks(tmp_path):
    records = convert("bfcl_multi_turn/BFCL_v4_multi_turn_base.json", tmp_path)
    entries = lines("bfcl_multi_turn/BFCL_v4_multi_turn_base.json")
    answers = lines("bfcl_multi_turn/possible_answer/BFCL_v4_multi_turn_base.json")
    for record, entry, answer in zip(records, entries, answers, strict=True):
        assert record.trajectory == [] and record.source.original_id == entry["id"] == answer["id"]
        assert record.source.agent is None  # task data: no agent ran
        assert record.task.instruction == entry["question"][0][0]["content"]
        assert record.task.metadata["turns"] == entry["question"]  # every user turn, in order
        assert record.task.metadata["initial_config"] == entry["initial_config"]
        functions = _bfcl_functions(entry["involved_classes"])
        assert [t.name for t in record.environment.tools] == [f["name"] for f in functions]
        assert [t.description for t in record.environment.tools] == [f["description"] for f in functions]
        gold = record.task.expected_outputs["actions"]
        assert [[c["function"] for c in turn] for turn in gold] == [
            [call.split("(")[0] for call in turn] for turn in answer["ground_truth"]
        ]  # every ground truth call, per turn, in order
        assert record.verifier.kind == "bfcl_multi_turn"
        assert record.verifier.spec == {"ground_truth": answer["ground_truth"]}
    first = records[0]
    assert first.environment.name == "TwitterAPI+GorillaFileSystem" and first.environment.kind == "tool_world"
    assert first.task.expected_outputs["actions"][2] == [
        {"function": "sort", "args": ["final_report.pdf"], "kwargs": {}}
    ]
    assert first.task.expected_outputs["actions"][3][3] == {
        "function": "diff",
        "kwargs": {"file_name1": "final_report.pdf", "file_name2": "previous_report.pdf"},
    }
    mv = next(t for t in first.environment.tools if t.name == "mv")
    assert mv.parameters["type"] == "object"  # BFCL writes "dict"
    types = re.findall(r'"type": ?"(\w+)"', json.dumps([t.parameters for t in first.environment.tools]))
    assert set(types) <= {"object", "string", "integer", "boolean", "array", "number"}  # JSON Schema's names


def test_bfcl_held_out_function_is_not_a_tool_until_its_turn(tmp_path):
    (record,) = convert("bfcl_multi_turn/BFCL_v4_multi_turn_miss_func.json", tmp_path)
    (entry,) = lines("bfcl_multi_turn/BFCL_v4_multi_turn_miss_func.json")
    assert entry["missed_function"] == {"3": ["sort"]} and entry["question"][3] == []
    names = [t.name for t in record.environment.tools]
    assert "sort" not in names and len(names) == len(_bfcl_functions(entry["involved_classes"])) - 1
    assert [t["name"] for t in record.details["held_out_tools"]] == ["sort"]
    assert record.task.metadata["missed_function"] == {"3": ["sort"]}
    assert record.task.expected_outputs["actions"][2] == []  # the turn that asks for it: nothing can be called


def _aider_items(text: str) -> list[Item]:
    """The session's turns read from the markdown: '#### ...  ' user lines, '> ...  ' aider lines (one block
    while consecutive), and the model's text between them, its <think> block as thinking."""
    items: list[Item] = []
    answer: list[str] = []

    def flush() -> None:
        body = "\n".join(answer).strip()
        if body.startswith("<think>"):
            thought, body = body.removeprefix("<think>").split("</think>")
            items.append(Item("thinking", thought.strip()))
        if body.strip():
            items.append(Item("text", body.strip()))
        answer.clear()

    for line in text.split("\n")[3:]:  # after the session's header
        marked = re.fullmatch(r"(####|>) (.*)  ", line)
        if marked is None:
            answer.append(line)
            continue
        flush()
        kind = "user" if marked[1] == "####" else "environment"
        if items and kind == "environment" == items[-1].kind:
            items[-1] = Item(kind, f"{items[-1].text}\n{marked[2]}")
        else:
            items.append(Item(kind, marked[2]))
    flush()
    return items


# Written for this test (the public history that showed these was unlicensed): a model's <think> block and its own
# "#### " heading (no two trailing spaces: not a user line), aider's output, a command.
BREAK = "  "  # aider ends its user and output lines with two spaces (a markdown line break)
THINKING_HISTORY = "\n".join(
    [
        "",
        "# aider chat started at 2025-05-04 17:02:36",
        "",
        "> Aider v0.82.2" + BREAK,
        "> Main model: openai/qwen3:32b with whole edit format" + BREAK,
        "",
        "#### the build says Module not found: 'styled-components'" + BREAK,
        "",
        "<think>",
        "Okay, the user is getting an error about a missing package.",
        "</think>",
        "The package is not installed.",
        "",
        "#### If you're using **npm**:",
        "```bash",
        "npm install styled-components",
        "```",
        "",
        "> Applied edit to package.json" + BREAK,
        "",
        "#### /reset" + BREAK,
        "",
    ]
)


def test_aider_chat_history(tmp_path):
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(THINKING_HISTORY)
    (record,) = convert_as("aider", path, tmp_path)
    items = _aider_items(THINKING_HISTORY)
    assert [i.kind for i in items].count("user") == 2 and [i.kind for i in items].count("thinking") == 1
    assert_faithful(record, items)
    answer = next(s for s in record.trajectory if s.class_ == "message_action")
    assert answer.reasoning.startswith("Okay, the user is getting an error") and "<think>" not in answer.content
    assert "#### If you're using **npm**:" in answer.content  # the answer's own heading, not a user turn
    assert record.source.original_id == "2025-05-04 17:02:36"
    assert identity(record) == ("aider", "openai/qwen3:32b", "0.82.2", [])  # from the banner: Aider v0.82.2
    assert record.lineage.generator == {"edit_format": "whole"}


def test_aider_each_session_is_a_record(tmp_path):
    from data_catalog.convert import convert_files
    from data_catalog.formats import detect
    from schemas.io import read_records

    path = SAMPLES / "aider/sessions.aider.chat.history.md"
    text = path.read_text()
    assert detect(str(path)).fmt == "aider"
    stats = convert_files("aider", [str(path)], tmp_path / "out.parquet")
    started = re.findall(r"^# aider chat started at (.*)$", text, re.M)
    assert stats.read == len(started) == 4
    # Two sessions hold only aider's start-up output: quarantined, saying why; the other two are records.
    assert (stats.converted, stats.quarantined) == (2, 2)
    assert stats.top_errors(1)[0][1] == 2 and "no user input" in stats.top_errors(1)[0][0]
    first, second = read_records(tmp_path / "out.parquet")
    assert (first.source.original_id, second.source.original_id) == (started[1], started[3])
    users = [s.content for s in second.trajectory if getattr(s, "source", None) == "user"]
    typed = [line for line in text.split(started[3])[1].split("\n") if line.startswith("####")]
    assert len(users) == 7 and sum(u.count("\n") + 1 for u in users) == len(typed)  # every line typed, once
    assert users[0].split("\n")[1] == "  /home/dragonfsky/git/github/zen-mcp-server/utils/token_utils.py"
    assert first.trajectory[-1].content == "\n\n^C again to exit\n\n\n^C KeyboardInterrupt"  # '>  ' lines are empty
    assert identity(second) == ("aider", "gemini/gemini-2.5-pro-preview-06-05", "0.86.1", [])
    assert second.lineage.generator == {
        "edit_format": "diff-fenced",
        "weak_model": "gemini/gemini-2.5-flash-preview-04-17",
    }


def test_aider_reads_text_and_json_errors_stay_json_errors(tmp_path):
    from data_catalog.convert import convert_files

    broken = tmp_path / "broken.json"
    broken.write_text('{"messages": [')
    stats = convert_files("aider", [str(broken)], tmp_path / "broken.parquet")
    assert stats.quarantined == 1 and stats.top_errors(1)[0][0].startswith("invalid JSON document")


def test_letta_agent_file_written_as_a_json_string(tmp_path):
    from data_catalog.formats import detect

    agent = {
        "name": "support",
        "agent_type": "letta_v1_agent",
        "llm_config": {"model": "gpt-4.1"},
        "tool_ids": [],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Where is my order?"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "It ships today."}]},
        ],
    }
    path = tmp_path / "support.af"
    path.write_text(json.dumps(json.dumps({"agents": [agent], "tools": [], "metadata": {}})))
    assert detect(str(path)).fmt == "letta"
    (record,) = convert_as("letta", path, tmp_path)
    assert [(s.class_, s.content) for s in record.trajectory] == [
        ("text_observation", "Where is my order?"),
        ("message_action", "It ships today."),
    ]
