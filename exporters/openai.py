"""Export records as OpenAI-style chat: one JSON line per record with ``messages`` and ``tools``.

This is the conversational format TRL's SFTTrainer reads (``messages`` +
``tools`` columns) and the shape of CoVe's released data. Tool-call arguments
are JSON objects, as chat templates expect them; ``arguments_as_strings``
writes them as JSON strings instead, as the OpenAI API and its fine-tuning
files want. Messages are exactly training.render's, so a trainer fed this file
sees what aceforge's own SFT stage trains on. A failed call's assistant turn keeps
training.render's ``"weight": 0``: OpenAI fine-tuning then puts no loss on it; TRL's
SFTTrainer does not read the key (its assistant-only loss trains on every assistant turn). In the compact
rendering (``rendering``: generators/rollouts/agent_prompt.py) the system message holds the tool lines and
``tools`` is empty, so a trainer renders the prompt the learner is rolled out with.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from generators.llm.prompting import wire_messages
from generators.rollouts.agent_prompt import Rendering
from schemas.io import write_jsonl_rows
from schemas.record import AgentRecord
from training.inputs import read_training_input
from training.render import Chat, RenderError, RenderStats, record_to_chat, render_records


def openai_row(record: AgentRecord, chat: Chat, arguments_as_strings: bool = False) -> dict[str, Any]:
    messages = wire_messages(chat.messages) if arguments_as_strings else chat.messages
    return {"id": record.id, "messages": messages, "tools": chat.tools or []}


def export_openai(
    records: Iterable[AgentRecord], output: Path, arguments_as_strings: bool = False, rendering: Rendering = "full"
) -> dict[str, Any]:
    """Write the JSONL file; returns the counts (records = written + skipped)."""
    stats = RenderStats()
    chats = render_records(records, stats, rendering=rendering)
    rows = (openai_row(record, chat, arguments_as_strings) for record, chat in chats)
    written = write_jsonl_rows(rows, output)
    return {"format": "openai", "output": str(output), "written": written, **stats.as_dict()}


def chat_row(record: AgentRecord) -> dict[str, Any] | None:
    """The record as ``{id, messages, tools}``, or None when it renders to no chat (the Hub's sft config)."""
    try:
        return openai_row(record, record_to_chat(record))
    except RenderError:
        return None


def export(
    source: Path,
    output: Path,
    *,
    allow_empty: bool = False,
    arguments_as_strings: bool = False,
    rendering: Rendering = "full",
) -> dict[str, Any]:
    """The registry's entry (exporters/registry.py): the records or chats of ``source`` into ``output``."""
    return export_openai(read_training_input(source, allow_empty), output, arguments_as_strings, rendering)
