"""A readable rich rendering of one AgentRecord: E, q, τ and v, for ``aceforge show``.

Every text of the record goes through ``plain_text``: control characters written out, no markup read.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from pipelines.cli.common import clip, plain_text, shown
from schemas.record import AgentRecord
from schemas.steps import ApiAction, CodeAction, ImageObservation, MessageAction, TextObservation, WebObservation


def _fields(rows: list[tuple[str, Any]]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    for key, value in rows:
        if value not in (None, "", [], {}):
            table.add_row(key, value if isinstance(value, (Text, Table)) else plain_text(value, multiline=True))
    return table


def step_cells(step: Any, limit: int) -> tuple[str, str, Text]:
    """(kind, who/what, body) of one step."""
    if isinstance(step, ApiAction):
        body = f"{step.function}({clip(json.dumps(step.kwargs, ensure_ascii=False), limit)})"
        who, style = f"agent → tool {step.tool_call_id or ''}".strip(), "cyan"
    elif isinstance(step, CodeAction):
        body, style = clip(step.content, limit), "cyan"
        who = f"agent → {step.language} {step.tool_call_id or ''}".strip()
    elif isinstance(step, MessageAction):
        body, who, style = clip(step.content, limit), "agent", ""
    elif isinstance(step, TextObservation):
        body, style = clip(step.content, limit), "green" if step.source == "tool" else ""
        who = " ".join(p for p in (step.source, step.name, step.tool_call_id) if p)
    elif isinstance(step, WebObservation):
        body, style = clip(step.axtree or step.html or "", limit), ""
        who = f"{step.source} {step.url or ''}".strip()
    elif isinstance(step, ImageObservation):
        body, who, style = clip(step.content, limit), step.source, ""
    else:
        body, who, style = clip(str(step), limit), "", ""
    text = plain_text(body, style, multiline=True)
    reasoning = getattr(step, "reasoning", None)
    if reasoning:
        text = Text.assemble((f"thought: {shown(clip(reasoning, limit), multiline=True)}\n", "dim italic"), text)
    return step.class_, who, text


def trajectory_table(record: AgentRecord, limit: int) -> Table:
    table = Table("#", "step", "from / to", "content", show_lines=True, expand=True)
    for index, step in enumerate(record.trajectory):
        kind, who, body = step_cells(step, limit)
        table.add_row(str(index), plain_text(kind), plain_text(who), body)
    return table


def render_record(record: AgentRecord, limit: int = 400) -> RenderableType:
    env, task, verifier, src = record.environment, record.task, record.verifier, record.source
    tools = ", ".join(t.name for t in env.tools)
    source = " / ".join(str(p) for p in (src.dataset, src.format, src.original_id, src.license) if p)
    agent = src.agent  # an imported trajectory's agent, as its file says
    made_by = agent and " ".join(p for p in (agent.framework, agent.version, agent.model and f"on {agent.model}") if p)
    result = verifier.result
    verdict = None
    if result is not None:
        verdict = f"passed={result.passed} score={result.score} {' '.join(result.reasons)}".strip()
    parts: list[RenderableType] = [
        _fields([("id", record.id), ("source", source), ("agent", made_by), ("schema", record.schema_version)]),
        Panel(
            _fields([("kind", env.kind), ("name", env.name), ("tools", tools), ("policy", clip(env.policy, limit))]),
            title="E  environment",
            title_align="left",
        ),
        Panel(
            _fields(
                [
                    ("instruction", clip(task.instruction, limit)),
                    ("constraints", len(task.constraints) or None),
                    ("user scenario", clip(json.dumps(task.user_scenario), limit) if task.user_scenario else None),
                ]
            ),
            title="q  task",
            title_align="left",
        ),
        Panel(
            trajectory_table(record, limit), title=f"τ  trajectory ({len(record.trajectory)} steps)", title_align="left"
        ),
        Panel(
            _fields(
                [
                    ("kind", verifier.kind),
                    ("version", verifier.version),
                    ("result", verdict),
                    ("evidence", clip(json.dumps(result.evidence), limit) if result and result.evidence else None),
                ]
            ),
            title="v  verifier",
            title_align="left",
        ),
    ]
    return Group(*parts)
