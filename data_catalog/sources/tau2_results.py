"""τ² run results: one JSON object ``{timestamp, info, tasks, simulations}``; one record per simulation.

- E: a ``tool_world`` named by ``info.environment_info.domain_name`` with its policy.
- q: the simulation's task (joined by ``task_id`` from ``tasks``, see tau_common.tau2_task).
- τ: ``messages`` (assistant / user / tool; the agent's greeting comes before any user turn).
- v: kind ``tau2_criteria``: the task's ``evaluation_criteria`` as spec; the result is
  ``reward_info``: ``passed`` when the reward is 1, its checks (db_check, action_checks,
  nl_assertions, env_assertions, communicate_checks, reward_breakdown) as evidence, and a
  reason per failed check of a part that counts (``reward_basis``; τ²'s default is DB + COMMUNICATE).
- lineage: the agent and user-simulator models, the simulation's seed, costs and agent tokens.

τ² saves results in two layouts, both read: one JSON file with every simulation
(``save(format="json")``), or a directory (``format="dir"``) holding ``results.json``
(info, tasks and a simulation index) and ``simulations/<id>.json``, one simulation
each. Such a ``results.json`` brings in its ``simulations/``; a single simulation
file gets its task and run info from the ``results.json`` beside its folder when
there is one. A bare simulation without one (or a JSONL file of them) converts
without its task. Dual-control runs (telecom: the user calls tools too) are read
as tau_common says.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from data_catalog.sources.base import ConversionError, Converter, ConvertOptions, Detected, register, require
from data_catalog.sources.step_dicts import SHELL_OPTIONS, take_shell_options
from data_catalog.sources.tau_common import conversation_steps, tau2_task
from schemas.agent_identity import TAU2, agent_identity
from schemas.record import AgentRecord, Environment, Lineage, Source, Task, Verifier, VerifierResult

_DEFAULT_BASIS = ("DB", "COMMUNICATE")
_EVIDENCE_KEYS = (
    "db_check",
    "action_checks",
    "nl_assertions",
    "env_assertions",
    "communicate_checks",
    "reward_basis",
    "reward_breakdown",
    "info",
)


def _failed_checks(part: str, reward_info: dict[str, Any]) -> list[str]:
    """Reason codes for the failed checks of one reward part."""
    if part == "DB":
        check = reward_info.get("db_check") or {}
        return [] if check.get("db_match", True) else ["db_mismatch: the final database differs from the expected one"]
    if part == "ACTION":
        return [
            f"action_not_matched: {(c.get('action') or {}).get('action_id')} {(c.get('action') or {}).get('name')}"
            for c in reward_info.get("action_checks") or []
            if not c.get("action_match")
        ]
    if part == "NL_ASSERTION":
        return [
            f"nl_assertion_not_met: {c.get('nl_assertion')}"
            for c in reward_info.get("nl_assertions") or []
            if not c.get("met")
        ]
    if part == "ENV_ASSERTION":
        return [
            f"env_assertion_not_met: {(c.get('env_assertion') or {}).get('func_name')}"
            for c in reward_info.get("env_assertions") or []
            if not c.get("met")
        ]
    if part == "COMMUNICATE":
        return [
            f"communicate_info_missing: {c.get('info')}"
            for c in reward_info.get("communicate_checks") or []
            if not c.get("met")
        ]
    return []


def verifier_result(reward_info: Any) -> VerifierResult | None:
    if reward_info is None:
        return None
    if not isinstance(reward_info, dict):
        raise ConversionError(f"reward_info is {type(reward_info).__name__}, expected an object")
    reward = require(reward_info, "reward", (int, float))
    breakdown = reward_info.get("reward_breakdown") or {}
    reasons: list[str] = []
    for part in reward_info.get("reward_basis") or _DEFAULT_BASIS:
        if breakdown.get(part, 0.0) >= 1.0:
            continue
        failed = _failed_checks(part, reward_info)
        reasons.extend(failed or ([f"{part.lower()}: reward {breakdown[part]}"] if part in breakdown else []))
    evidence = {k: reward_info[k] for k in _EVIDENCE_KEYS if reward_info.get(k) is not None}
    # τ² counts a run as a success when its reward is 1 (up to float noise).
    return VerifierResult(
        passed=reward >= 1.0 - 1e-6, score=float(reward), reasons=reasons, evidence=evidence, verifier="tau2-bench"
    )


def _usage(sim: dict[str, Any]) -> dict[str, Any]:
    usage = {k: sim[k] for k in ("agent_cost", "user_cost", "duration") if sim.get(k) is not None}
    prompt = completion = 0
    for msg in sim["messages"]:
        tokens = msg.get("usage") if isinstance(msg, dict) and msg.get("role") == "assistant" else None
        if isinstance(tokens, dict):
            prompt += tokens.get("prompt_tokens") or 0
            completion += tokens.get("completion_tokens") or 0
    if prompt or completion:
        usage.update(agent_prompt_tokens=prompt, agent_completion_tokens=completion)
    return usage


def _generator(info: dict[str, Any], sim: dict[str, Any]) -> dict[str, Any] | None:
    generator = {k: info[k] for k in ("agent_info", "user_info", "git_commit") if info.get(k) is not None}
    if sim.get("seed") is not None:
        generator["seed"] = sim["seed"]
    return generator or None


def _by_id(tasks: Any) -> dict[str, dict[str, Any]]:
    return {str(t["id"]): t for t in tasks or [] if isinstance(t, dict) and "id" in t}


def _joined(
    run: dict[str, Any], simulations: Iterable[Any], given: dict[str, dict[str, Any]] | None = None
) -> Iterator[dict[str, Any]]:
    """Each simulation with its task (joined by task_id: from the run's tasks, else from ``given``, the
    tasks of option ``tasks``) and the run's info."""
    tasks = {**(given or {}), **_by_id(run.get("tasks"))}
    info = run.get("info") if isinstance(run.get("info"), dict) else {}
    for sim in simulations:
        task = tasks.get(str(sim.get("task_id"))) if isinstance(sim, dict) else None
        yield {"simulation": sim, "task": task, "info": info}


def _is_run_file(document: dict[str, Any]) -> bool:
    """A directory layout's results.json: info and tasks, the simulations in its folder (τ²'s own
    loader needs only that folder; ``simulation_index`` is not always written)."""
    return "simulation_index" in document or ("tasks" in document and "info" in document)


def _is_simulation(document: Any) -> bool:
    return isinstance(document, dict) and "task_id" in document and ("messages" in document or "ticks" in document)


@register
class Tau2ResultsConverter(Converter):
    name = "tau2_results"
    description = "τ² run results ({info, tasks, simulations}): one record per simulation, its task joined in, reward_info as verifier result."
    options = {
        "domain": "the tool world's domain; default: info.environment_info.domain_name, else the task's",
        "tasks": "a τ² tasks JSON file (a list of tasks, or {tasks: [...]}) to join simulations whose task the "
        "results do not embed; without it such a simulation converts with its task unknown",
    }
    layouts = (
        "one results file: {timestamp, info, tasks, simulations: [{id, task_id, messages, reward_info, ...}]}",
        "a results directory (given as the folder, or its results.json): results.json (info, tasks) "
        "+ simulations/<id>.json",
        "one simulation file (its task joined from ../results.json when there), or JSONL of simulations",
    )

    def __init__(self, options: ConvertOptions | None = None):
        super().__init__(options)
        self._run_files: dict[Path, dict[str, Any] | None] = {}  # results.json beside simulation files, by path
        self._given_tasks: dict[str, dict[str, Any]] | None = None  # option tasks, read on first use

    def _given(self) -> dict[str, dict[str, Any]]:
        if self._given_tasks is None:
            path = self.opts.extra.get("tasks")
            document = orjson.loads(Path(path).read_bytes()) if path else []
            self._given_tasks = _by_id(document.get("tasks") if isinstance(document, dict) else document)
        return self._given_tasks

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if not isinstance(value, dict):
            return None
        if isinstance(value.get("simulations"), list) and "info" in value:
            return 3, "τ² results file"
        if _is_run_file(value) and isinstance(value.get("tasks"), list):
            return 3, "τ² results directory's results.json"
        if _is_simulation(value):
            return 3, "τ² simulation"
        return None

    def items(self, document: Any, source: str = "-") -> Iterable[Any]:
        if not isinstance(document, dict):
            return super().items(document, source)
        if isinstance(document.get("simulations"), list):
            return _joined(document, document["simulations"], self._given())
        if _is_run_file(document) and source != "-":  # a results directory's results.json
            folder = Path(source).parent / "simulations"
            if not folder.is_dir():
                return [{"missing_simulations": str(folder)}]
            sims = (orjson.loads(p.read_bytes()) for p in sorted(folder.glob("*.json")))
            return _joined(document, sims, self._given())
        if _is_simulation(document) and source != "-":  # a simulations/<id>.json
            run = self._run_file(Path(source).parent.parent / "results.json")
            if run is not None:
                return _joined(run, [document], self._given())
        if _is_simulation(document) and self.opts.extra.get("tasks"):
            return _joined({}, [document], self._given())
        return [document]

    @classmethod
    def folder_inputs(cls, folder: Path) -> list[Path]:
        return [folder / "results.json"] if (folder / "results.json").is_file() else []

    def _run_file(self, path: Path) -> dict[str, Any] | None:
        if path not in self._run_files:
            self._run_files[path] = orjson.loads(path.read_bytes()) if path.is_file() else None
        return self._run_files[path]

    def convert(self, raw: Any) -> AgentRecord:
        if isinstance(raw, dict) and "simulation" in raw:
            sim, task, info = require(raw, "simulation", dict), raw["task"], raw["info"]
        elif isinstance(raw, dict) and "missing_simulations" in raw:
            raise ConversionError(f"a τ² results.json without simulations: no folder {raw['missing_simulations']}")
        elif _is_simulation(raw):
            sim, task, info = raw, None, {}
        else:
            raise ConversionError(
                "not a τ² results file: expected an object with info, tasks and simulations (or one simulation)"
            )
        if "messages" not in sim and "ticks" in sim:
            raise ConversionError(
                f"simulation {sim.get('id')!r} is a τ² voice simulation (ticks, no messages): "
                "voice runs are not supported, only text ones"
            )
        sim_id = require(sim, "id", str)
        task_id = require(sim, "task_id", (str, int))
        steps = conversation_steps(require(sim, "messages", list), "messages")
        q, criteria, task_domain = (
            tau2_task(task) if task is not None else (Task(metadata={"task_id": str(task_id)}), {}, None)
        )
        env_info = info.get("environment_info") or {}
        domain = self.opts.extra.get("domain") or env_info.get("domain_name") or task_domain
        details = {
            k: sim[k] for k in ("trial", "termination_reason", "start_time", "end_time") if sim.get(k) is not None
        }
        if task is None:  # q is the task id alone; the verdict still stands (τ² computed it)
            details["task_unknown"] = f"task_id {str(task_id)!r} is in no tasks read (give --option tasks=FILE)"
        if shell_options := take_shell_options(steps):
            details[SHELL_OPTIONS] = shell_options
        agent_info = info.get("agent_info")
        return AgentRecord(
            id=self.record_id(sim_id, raw),
            environment=Environment(kind="tool_world", name=domain, policy=env_info.get("policy") or sim.get("policy")),
            task=q,
            trajectory=steps,
            verifier=Verifier(kind="tau2_criteria", spec=criteria, result=verifier_result(sim.get("reward_info"))),
            source=Source(
                dataset=self.dataset,
                format=self.name,
                original_id=sim_id,
                license=self.opts.license,
                agent=agent_identity(TAU2, agent_info.get("llm") if isinstance(agent_info, dict) else None),
            ),
            lineage=Lineage(generator=_generator(info, sim), usage=_usage(sim)),
            details=details,
        )
