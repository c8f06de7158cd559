"""τ-bench v1 run results: a list of ``{task_id, trial, reward, info, traj}``.

- E: a ``tool_world``; its policy is the system prompt, the domain comes from
  the ``domain`` option or else the policy's title ("# Airline Agent Policy").
  The system prompt also stays in τ as TextObservation(source="system"), since
  the agent saw it there.
- q: ``info.task``: the user simulator's instruction, ``user_id``, and the
  expected ``actions`` and ``outputs`` (as ``expected_outputs``).
- τ: ``traj`` (OpenAI chat messages, see tau_common).
- v: kind ``reward``; ``passed`` is reward == 1, ``score`` the reward, evidence
  ``info.reward_info.info`` (``r_actions`` + ``gt_data_hash``, or ``r_outputs``
  + which outputs were found), with a reason per failed part.
  ``reward_info.actions`` repeats ``info.task.actions`` and is not stored twice.

A record's id comes from (task_id, trial), so each trial of a task is its own record.
"""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import ConversionError, Converter, Detected, register, require
from data_catalog.sources.step_dicts import SHELL_OPTIONS, take_shell_options
from data_catalog.sources.tau_common import conversation_steps, policy_domain
from schemas.record import AgentRecord, Environment, Lineage, Source, Task, Verifier, VerifierResult

_NUMBER = (int, float)


def _reward(raw: dict[str, Any]) -> float:
    reward = require(raw, "reward", _NUMBER)
    if isinstance(reward, bool):
        raise ConversionError("field 'reward' is bool, expected a number")
    return float(reward)


def _reasons(breakdown: dict[str, Any]) -> list[str]:
    reasons = []
    if isinstance(breakdown.get("r_actions"), _NUMBER) and breakdown["r_actions"] < 1:
        reasons.append("r_actions: the final database differs from the one the expected actions produce")
    if isinstance(breakdown.get("r_outputs"), _NUMBER) and breakdown["r_outputs"] < 1:
        outputs = breakdown.get("outputs") if isinstance(breakdown.get("outputs"), dict) else {}
        missing = [k for k, found in outputs.items() if not found]
        reasons.append(f"r_outputs: expected outputs not given to the user: {', '.join(missing) or 'unknown'}")
    return reasons


def _task(info: dict[str, Any], task_id: int | str) -> Task:
    task = require(info, "task", dict)
    instruction = require(task, "instruction", str)
    actions = task.get("actions") or []
    outputs = task.get("outputs") or []
    if not isinstance(actions, list) or not isinstance(outputs, list):
        raise ConversionError("info.task.actions and info.task.outputs must be lists")
    return Task(
        instruction=instruction,
        user_scenario={"user_id": task.get("user_id"), "instruction": instruction},
        expected_outputs={"actions": actions, "outputs": outputs},
        metadata={"task_id": task_id},
    )


@register
class TauBenchConverter(Converter):
    name = "tau_bench"
    description = "τ-bench v1 run results ([{task_id, trial, reward, info, traj}]) with rewards as verifier results."
    options = {"domain": "the tool world's domain (airline, retail); default: read from the policy's title"}
    layouts = ("a run's results: a JSON array (or JSONL) of {task_id, trial, reward, info: {task, reward_info}, traj}",)

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if isinstance(value, dict) and isinstance(value.get("traj"), list) and "task_id" in value and "reward" in value:
            return 3, "τ-bench run result"
        return None

    def convert(self, raw: Any) -> AgentRecord:
        task_id = require(raw, "task_id", (int, str))
        trial = require(raw, "trial", int)
        reward = _reward(raw)
        info = require(raw, "info", dict)
        steps = conversation_steps(require(raw, "traj", list), "traj")
        if not steps:
            raise ConversionError("field 'traj' is empty")
        reward_info = info.get("reward_info") if isinstance(info.get("reward_info"), dict) else {}
        breakdown = reward_info.get("info") if isinstance(reward_info.get("info"), dict) else {}
        policy = next(
            (s["content"] for s in steps if s["class_"] == "text_observation" and s["source"] == "system"), None
        )
        original_id = f"{task_id}/{trial}"
        details = {"trial": trial, "ended_by": info.get("source")}
        if shell_options := take_shell_options(steps):
            details[SHELL_OPTIONS] = shell_options
        return AgentRecord(
            id=self.record_id(original_id, raw),
            environment=Environment(
                kind="tool_world", name=self.opts.extra.get("domain") or policy_domain(policy), policy=policy
            ),
            task=_task(info, task_id),
            trajectory=steps,
            verifier=Verifier(
                kind="reward",
                result=VerifierResult(
                    passed=reward >= 1.0,
                    score=reward,
                    reasons=_reasons(breakdown),
                    evidence=breakdown,
                    verifier="tau-bench",
                ),
            ),
            source=Source(dataset=self.dataset, format=self.name, original_id=original_id, license=self.opts.license),
            lineage=Lineage(usage={"user_cost": info["user_cost"]} if "user_cost" in info else {}),
            details=details,
        )
