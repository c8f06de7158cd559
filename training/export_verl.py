"""Export an RL set of tasks as verl's RL Parquet, for GRPO/PPO at cluster scale with verl's multi-turn rollouts.

One row per task, in the columns verl's RLHFDataset reads:

- ``data_source``: ``aceforge/<environment>`` (verl picks the reward function by it);
- ``prompt``: the chat that opens the episode: E's policy as system message, the
  user's request (q's instruction, else τ's first user turn);
- ``ability``: ``tool_use``;
- ``reward_model``: ``{"style": "rule", "ground_truth": <JSON of q's constraints and expected outputs>}``;
- ``extra_info``: ``split``, ``index``, ``task_id``, ``complexity``, ``environment``
  (E as JSON: what rebuilds the task's world), ``need_tools_kwargs``,
  ``tools_kwargs`` ({tool: {"create_kwargs": {"task_id"}}}: each tool instance
  knows its task) and ``interaction_kwargs`` (``name`` of the user-simulator
  interaction, ``task_id``, ``user_scenario`` as JSON).

``tools.json`` beside it holds the OpenAI function schemas of each environment's
tools, for verl's tool config. A task with no request to open with is skipped
with the reason ``no_prompt``; counts add up.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from generators.tool_calls import normalize_tools
from schemas.io import atomic_output
from schemas.record import AgentRecord
from schemas.steps import TextObservation

ABILITY = "tool_use"
INTERACTION = "aceforge_user"


def opening_request(record: AgentRecord) -> str | None:
    """What the user asks first: q's instruction, else τ's first user turn."""
    if record.task.instruction.strip():
        return record.task.instruction
    for step in record.trajectory:
        if isinstance(step, TextObservation) and step.source == "user":
            return step.content
    return None


def verl_row(record: AgentRecord, index: int, split: str, request: str) -> dict[str, Any]:
    env = record.environment
    prompt = ([{"role": "system", "content": env.policy}] if env.policy else []) + [
        {"role": "user", "content": request}
    ]
    ground_truth = {"constraints": record.task.constraints, "expected_outputs": record.task.expected_outputs}
    return {
        "data_source": f"aceforge/{env.name or env.kind}",
        "prompt": prompt,
        "ability": ABILITY,
        "reward_model": {"style": "rule", "ground_truth": json.dumps(ground_truth, ensure_ascii=False)},
        "extra_info": {
            "split": split,
            "index": index,
            "task_id": record.id,
            "complexity": record.task.metadata.get("complexity"),
            "environment": env.model_dump_json(),
            "need_tools_kwargs": True,
            "tools_kwargs": {tool.name: {"create_kwargs": {"task_id": record.id}} for tool in env.tools},
            "interaction_kwargs": {
                "name": INTERACTION,
                "task_id": record.id,
                "user_scenario": json.dumps(record.task.user_scenario, ensure_ascii=False),
            },
        },
    }


def export_verl(records: Iterable[AgentRecord], out_dir: Path, split: str = "train") -> dict[str, Any]:
    """Write ``<out_dir>/<split>.parquet`` and ``<out_dir>/tools.json``; returns the counts."""
    rows, skipped, tools = [], Counter(), {}
    for record in records:
        request = opening_request(record)
        if request is None:
            skipped["no_prompt"] += 1
            continue
        rows.append(verl_row(record, len(rows), split, request))
        env_name = record.environment.name or record.environment.kind
        tools.setdefault(env_name, normalize_tools(record.environment.tools) or [])
    out_dir.mkdir(parents=True, exist_ok=True)
    output = out_dir / f"{split}.parquet"
    with atomic_output(output) as tmp:
        pq.write_table(pa.Table.from_pylist(rows), tmp)
    (out_dir / "tools.json").write_text(json.dumps(tools, indent=2, ensure_ascii=False) + "\n")
    return {
        "format": "verl",
        "output": str(output),
        "written": len(rows),
        "records": len(rows) + sum(skipped.values()),
        "skipped": dict(skipped),
    }
