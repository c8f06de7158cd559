"""Export an RL set of tasks as verl's RL Parquet, for GRPO/PPO at cluster scale with verl's multi-turn rollouts.

One row per task, in the columns verl's RLHFDataset reads:

- ``data_source``: ``aceforge/<environment>`` (verl picks the reward function by it);
- ``prompt``: the chat that opens the episode: E's policy as system message, then
  the user's opening turn as aceforge's scripted user says it (from q's user
  scenario: what the user wants, not the outcome q's instruction summarizes;
  without a scenario, q's instruction, else τ's first user turn);
- ``ability``: ``tool_use``;
- ``reward_model``: ``{"style": "rule", "ground_truth": <JSON of q's constraints and expected outputs>}``;
- ``extra_info``: ``split``, ``index``, ``task_id``, ``complexity``, ``need_tools_kwargs``,
  ``interaction_kwargs`` (``name`` of the user-simulator interaction, ``task_id``, ``user_scenario`` as JSON and
  ``environment``: E as JSON, what rebuilds the task's world, the row's one copy of it) and ``tools_kwargs``
  ({tool: {"create_kwargs": {"task_id", "environment_sha256"}}}: a reference to that copy). verl hands a tool
  only its own create_kwargs and the interaction only interaction_kwargs, so the copy sits where the episode
  starts: the interaction registers the world's JSON under its digest and every tool builds from it (before,
  each of a task's tools carried the whole JSON: 16 copies, ~173 KB a row on the retail tasks).

Beside it, what verl needs to run and judge the episodes (training/verl_reward.py):

- ``reward.py``: verl's ``custom_reward_function.path`` (``name: compute_score``):
  the verifier's score of each episode;
- ``tool_config.yaml``: ``actor_rollout_ref.rollout.multi_turn.tool_config_path``:
  every tool of the tasks' environments as an ``AceforgeTool``;
- ``interaction_config.yaml``: ``...multi_turn.interaction_config_path``: the
  scripted user as the ``aceforge_user`` interaction;
- ``tools.json``: the OpenAI function schemas of each environment's tools.

The prompt is always the full rendering: verl's tool agent loop gives the chat template every tool's schema
from tool_config.yaml itself, so a compact system prompt (generators/rollouts/agent_prompt.py) would list the
tools twice. aceforge must be installed where verl runs. A task with no request to open with
is skipped with the reason ``no_prompt``; counts add up.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from generators.llm.tool_calls import normalize_tools
from generators.rollouts.scenario import scenario_problem
from generators.rollouts.scripted_user import opening
from schemas.io import atomic_output
from schemas.record import AgentRecord
from schemas.steps import TextObservation
from training.inputs import EmptyInput, read_training_input
from training.verl_reward import environment_sha256

ABILITY = "tool_use"
INTERACTION = "aceforge_user"
TOOL_CLASS = "training.verl_reward.AceforgeTool"
USER_CLASS = "training.verl_reward.AceforgeUser"


def opening_request(record: AgentRecord) -> str | None:
    """What the user says first: the scripted user's opening from q's scenario, else q's instruction, else τ's
    first user turn."""
    scenario = record.task.user_scenario
    if scenario_problem(scenario) is None:
        return opening(scenario)
    if record.task.instruction.strip():
        return record.task.instruction
    for step in record.trajectory:
        if isinstance(step, TextObservation) and step.source == "user":
            return step.content
    return None


def verl_row(record: AgentRecord, index: int, split: str, request: str) -> dict[str, Any]:
    env = record.environment
    world = env.model_dump_json()
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
            # the prompt's user turn, which verl leaves out of solution_str: the reward reads it back (what the
            # user said counts as shown to the agent)
            "opening": prompt[-1]["content"],
            "need_tools_kwargs": True,
            "tools_kwargs": {
                tool.name: {"create_kwargs": {"task_id": record.id, "environment_sha256": environment_sha256(world)}}
                for tool in env.tools
            },
            "interaction_kwargs": {
                "name": INTERACTION,
                "task_id": record.id,
                "user_scenario": json.dumps(record.task.user_scenario, ensure_ascii=False),
                "environment": world,
            },
        },
    }


REWARD_MODULE = '''"""verl reward function for this aceforge export: custom_reward_function.path = this file, name = compute_score."""

from training.verl_reward import compute_score  # noqa: F401  (aceforge must be installed where verl runs)
'''


def write_verl_configs(out_dir: Path, tools: dict[str, list[dict[str, Any]]]) -> None:
    """reward.py, tool_config.yaml and interaction_config.yaml (see the module docstring)."""
    import yaml

    schemas = {}
    for env_tools in tools.values():
        for tool in env_tools:
            schemas.setdefault(tool["function"]["name"], tool)
    tool_config = {
        "tools": [
            {"class_name": f"{TOOL_CLASS}", "config": {"type": "native"}, "tool_schema": schema}
            for schema in schemas.values()
        ]
    }
    interaction = {"interaction": [{"name": INTERACTION, "class_name": USER_CLASS, "config": {}}]}
    (out_dir / "reward.py").write_text(REWARD_MODULE)
    (out_dir / "tool_config.yaml").write_text(yaml.safe_dump(tool_config, sort_keys=False, allow_unicode=True))
    (out_dir / "interaction_config.yaml").write_text(yaml.safe_dump(interaction, sort_keys=False))


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
    write_verl_configs(out_dir, tools)
    return {
        "format": "verl",
        "output": str(output),
        "written": len(rows),
        "records": len(rows) + sum(skipped.values()),
        "skipped": dict(skipped),
    }


class NoTasks(EmptyInput):
    """Records, but no task an episode can start from (trajectories, say): as empty as an empty file, for RL."""


def export(source: Path, output: Path, *, split: str = "train", allow_empty: bool = False) -> dict[str, Any]:
    """The registry's entry (exporters/registry.py): the tasks of ``source`` into the folder ``output``.

    Only the records ``train rl`` would start episodes from are tasks; the others are counted as skipped by
    reason, and a source with records but no task raises NoTasks, as ``train rl`` refuses it.
    """
    from training.rl import no_task_message, usable_tasks  # the trainer's modules: only when exporting

    records = read_training_input(source, allow_empty)
    tasks, skipped = usable_tasks(records)
    if records and not tasks:
        raise NoTasks(no_task_message(source, skipped))
    summary = export_verl(tasks, output, split)
    summary["records"] += sum(skipped.values())
    summary["skipped"] = {**summary["skipped"], **skipped}
    return summary
