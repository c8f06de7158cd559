"""verl's side of an aceforge RL export: the reward function, the tools and the simulated user.

verl runs the episodes; aceforge judges them. The export (exporters/verl.py)
writes a small module beside the Parquet that imports these three, and the YAML
configs that name them:

- ``compute_score(data_source, solution_str, ground_truth, extra_info)``: verl's
  custom reward function. The episode text is read back into a trajectory (the
  assistant's turns with their Hermes ``<tool_call>`` blocks, the user's turns),
  the calls are replayed in a fresh copy of the task's world, and aceforge's
  verifier chain gives V(τ, C): the reward is the graded reward of that verdict (verifiers/reward.py), the
  one GRPO and the RL set's selection use.
- ``AceforgeTool``: one class for every tool of a task's environment; a tool
  instance holds a fresh world in the task's initial state and runs the model's
  calls in it. (verl gives each tool its own instance, so a read through one
  tool does not see a write made through another; the reward replays every call
  in one world, in order, so the verdict does not depend on that.)
- ``AceforgeUser``: the interaction that plays the user: aceforge's scripted
  user simulator on the task's user scenario (it answers the agent's questions
  slot by slot and confirms; it ends the episode when the agent stops asking).

Everything a task needs travels in its row: the constraints and expected outputs
in ``ground_truth``, the scenario and the environment (E as JSON, once) in
``interaction_kwargs``. verl gives a tool nothing but its own ``create_kwargs``,
so those hold only the environment's sha256: ``AceforgeUser`` registers the JSON
under that digest when the episode starts (in the process that runs the episode's
tools) and drops it when the last episode using it ends. verl itself is imported
only by the tool and interaction classes, and only where verl runs.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from typing import Any

from schemas.record import AgentRecord, Environment, Source, Task, Verifier
from schemas.steps import ApiAction, MessageAction, TextObservation
from verifiers.reward import rollout_reward

_TURN = re.compile(r"<\|im_start\|>(\w+)\n")
_END = "<|im_end|>"
TOOL_RESPONSE = "<tool_response>"


# environment sha256 -> E's JSON, and how many running episodes use it: filled by AceforgeUser, read by AceforgeTool
_WORLDS: dict[str, str] = {}
_WORLD_USERS: Counter[str] = Counter()


def environment_sha256(environment_json: str) -> str:
    """The reference a row's tools hold to the row's one copy of the environment."""
    return hashlib.sha256(environment_json.encode()).hexdigest()


def row_environment(extra_info: dict[str, Any]) -> str:
    """E's JSON of a verl row: in interaction_kwargs (rows exported before it moved there keep it in extra_info)."""
    return extra_info.get("environment") or (extra_info.get("interaction_kwargs") or {})["environment"]


def task_record(ground_truth: str | dict[str, Any], extra_info: dict[str, Any]) -> AgentRecord:
    """The task of a verl row, rebuilt from its ground truth and extra_info."""
    truth = json.loads(ground_truth) if isinstance(ground_truth, str) else ground_truth
    interaction = extra_info.get("interaction_kwargs") or {}
    scenario = interaction.get("user_scenario")
    return AgentRecord(
        id=extra_info["task_id"],
        environment=Environment.model_validate_json(row_environment(extra_info)),
        task=Task(
            constraints=truth.get("constraints") or [],
            expected_outputs=truth.get("expected_outputs") or {},
            user_scenario=json.loads(scenario) if isinstance(scenario, str) else scenario,
        ),
        verifier=Verifier(kind="constraints"),
        source=Source(dataset="verl", format="verl_episode", original_id=extra_info["task_id"]),
    )


def episode_turns(solution_str: str) -> list[tuple[str, str]]:
    """(role, text) of each ChatML turn; text before the first marker is the assistant's (the prompt opened it)."""
    turns = []
    pieces = _TURN.split(solution_str)
    head, rest = pieces[0], pieces[1:]
    if head.strip():
        turns.append(("assistant", head))
    for role, text in zip(rest[::2], rest[1::2]):
        turns.append((role, text))
    return [(role, text.split(_END, 1)[0].strip()) for role, text in turns]


def episode_steps(solution_str: str, environment: Any) -> list:
    """The episode as steps: assistant text and calls (replayed in ``environment`` for their results), user turns."""
    from generators.llm.tool_calls import parse_tool_calls

    steps: list = []
    for role, text in episode_turns(solution_str):
        if role == "assistant":
            reply = parse_tool_calls(text)
            if reply.content and not reply.tool_calls:
                steps.append(MessageAction(content=reply.content))
            for index, call in enumerate(reply.tool_calls):
                reasoning = reply.content if index == 0 and reply.content else None
                steps.append(
                    ApiAction(function=call.name, kwargs=call.arguments, tool_call_id=call.id, reasoning=reasoning)
                )
                result = environment.call(call.name, call.arguments).as_text()
                steps.append(TextObservation(content=result, source="tool", tool_call_id=call.id))
        elif role == "user" and TOOL_RESPONSE not in text:
            steps.append(TextObservation(content=text, source="user"))
    return steps


def verdict(solution_str: str, ground_truth: str | dict[str, Any], extra_info: dict[str, Any]) -> Any:
    """aceforge's VerifierResult for one verl episode of the row's task."""
    from environments.from_record import build_environment
    from verifiers.base import default_env_factory
    from verifiers.runner import verify_record

    task = task_record(ground_truth, extra_info)
    opening = [TextObservation(content=extra_info["opening"], source="user")] if extra_info.get("opening") else []
    steps = opening + episode_steps(solution_str, build_environment(task.environment, default_env_factory))
    return verify_record(task.model_copy(update={"trajectory": steps}))


def compute_score(
    data_source: str, solution_str: str, ground_truth: str, extra_info: dict[str, Any] | None = None
) -> float:
    """verl's reward function: the graded reward of the episode's verdict (0 when it cannot be judged)."""
    return rollout_reward(verdict(solution_str, ground_truth, extra_info or {}))


class AceforgeTool:
    """verl tool (``verl.tools.base_tool.BaseTool`` protocol) running one tool of a task's world."""

    def __init__(self, config: dict[str, Any], tool_schema: Any):
        self.config, self.tool_schema = config, tool_schema
        function = tool_schema["function"] if isinstance(tool_schema, dict) else tool_schema.function
        self.name = function["name"] if isinstance(function, dict) else function.name
        self.worlds: dict[str, Any] = {}

    def get_openai_tool_schema(self) -> Any:
        return self.tool_schema

    async def create(
        self, instance_id: str | None = None, create_kwargs: dict[str, Any] | None = None, **kwargs: Any
    ) -> str:
        """A fresh world for the row's environment. verl's agent loop passes the row's kwargs as ``create_kwargs``,
        its older SGLang rollout spreads them: both are read."""
        from uuid import uuid4

        from environments.from_record import build_environment
        from verifiers.base import default_env_factory

        kwargs = {**kwargs, **(create_kwargs or {})}
        environment = kwargs.get("environment") or _WORLDS.get(kwargs.get("environment_sha256", ""))
        if environment is None:
            raise KeyError(
                f"{self.name}: no environment {kwargs.get('environment_sha256')!r} for task {kwargs.get('task_id')!r}: "
                "the aceforge_user interaction (interaction_config.yaml) brings it when the episode starts"
            )
        instance_id = instance_id or str(uuid4())
        self.worlds[instance_id] = build_environment(Environment.model_validate_json(environment), default_env_factory)
        return instance_id

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        result = self.worlds[instance_id].call(self.name, parameters)
        return result.as_text(), 0.0, {"ok": result.ok}

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        return 0.0  # the episode's reward is compute_score's, on the whole trajectory

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        self.worlds.pop(instance_id, None)


class AceforgeUser:
    """verl interaction (``verl.interactions.base.BaseInteraction`` protocol): the scripted user of the task."""

    def __init__(self, config: dict[str, Any]):
        self.config = config
        self.name = config.get("name", "aceforge_user")
        self.scenarios: dict[str, dict[str, Any]] = {}
        self.states: dict[str, dict[str, Any]] = {}
        self.worlds: dict[str, str] = {}  # instance -> the environment digest it registered

    async def start_interaction(
        self, instance_id: str | None = None, user_scenario: str = "{}", environment: str = "", **kwargs: Any
    ) -> str:
        """Opens the user's side of an episode and registers the row's environment for its tools."""
        from uuid import uuid4

        instance_id = instance_id or str(uuid4())
        self.scenarios[instance_id] = json.loads(user_scenario) if isinstance(user_scenario, str) else user_scenario
        self.states[instance_id] = {"opened": True}  # the opening turn is the row's prompt
        if environment:
            digest = environment_sha256(environment)
            _WORLDS[digest] = environment
            _WORLD_USERS[digest] += 1
            self.worlds[instance_id] = digest
        return instance_id

    async def generate_response(
        self, instance_id: str, messages: list[dict[str, Any]], **kwargs: Any
    ) -> tuple[bool, str, float, dict]:
        """(end the episode?, the user's reply, 0.0, {}): the scripted user's answer to the last agent message."""
        from generators.rollouts.scripted_user import ScriptedUser

        turn = ScriptedUser(None).act(_Exchange(self.scenarios[instance_id], self.states[instance_id], messages), None)
        return turn.stop is not None, turn.text or "", 0.0, {}

    async def calculate_score(self, instance_id: str, **kwargs: Any) -> float:
        return 0.0

    async def finalize_interaction(self, instance_id: str, **kwargs: Any) -> None:
        self.scenarios.pop(instance_id, None)
        self.states.pop(instance_id, None)
        digest = self.worlds.pop(instance_id, None)
        if digest is not None:
            _WORLD_USERS[digest] -= 1
            if _WORLD_USERS[digest] <= 0:
                del _WORLD_USERS[digest], _WORLDS[digest]


class _Exchange:
    """What the scripted user reads of a conversation, from verl's chat messages."""

    def __init__(self, scenario: dict[str, Any], state: dict[str, Any], messages: list[dict[str, Any]]):
        self.context = type("Context", (), {"scenario": scenario})()
        self.user_state = state
        self.messages = messages

    def last_agent_message(self) -> str | None:
        return next((m.get("content") for m in reversed(self.messages) if m.get("role") == "assistant"), None)

    def called(self, name: str) -> bool:
        return any(
            (call.get("function") or {}).get("name") == name
            for m in self.messages
            if m.get("role") == "assistant"
            for call in m.get("tool_calls") or []
        )
