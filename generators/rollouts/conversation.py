"""One rollout in progress: the task, its live environment, τ so far, whose turn it is, and the budgets.

The user opens; then the agent and the user take turns. An agent turn is one
model reply (or one scripted action): tool calls, which the environment
answers at once (the agent then acts again), or a message to the user (the
user then replies). A call to a tool E lacks, or with arguments that fail the tool's JSON schema, never reaches E: it
is answered at once with an error observation that says what was wrong (verifiers/structure.py
``call_error``), counts as a failed call, and the agent acts again, as in τ-bench; the verifier
records it as a recovered error. A rollout ends with one reason code (``end_reason``):

- the user ends it: ``done``, ``transfer``, ``out_of_scope`` (the simulator's stop marker);
- a budget: ``max_turns`` (agent turns), ``max_tool_errors`` (failed calls: refused by E, or bad as
  above), ``max_tokens`` (generated tokens, agent and simulated user together);
- something went wrong with this sample, and only this one: ``tool_schema_invalid`` (E declares a
  tool whose schema is not valid JSON Schema, so no call of it can be checked; the call and E's answer
  are recorded first), ``malformed_output`` (a reply that is neither a call nor a message),
  ``empty_reply``, ``context_overflow`` (the prompt outgrew the model), ``backend_error``,
  ``user_never_stopped`` (the agent finished and the simulated user went on), ``bad_scenario``
  (q.user_scenario is not in the contract's shape), ``no_gold_actions`` (the oracle has nothing to follow),
  ``request_error`` (the model request could not be built), ``agent_error:<Type>`` /
  ``user_error:<Type>`` (an actor raised: a bug, or task data it cannot read; the message is kept).

Whatever the reason, the rollout is recorded and verified like any other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from jsonschema.exceptions import SchemaError

from environments.base import ToolEnvironment
from generators.rollouts.scenario import leaks_everything
from schemas.generation import GenerationResult, SamplingParams
from schemas.record import AgentRecord, Tool
from schemas.steps import ApiAction, MessageAction, TextObservation
from verifiers.structure import call_error

Waiting = Literal["user", "agent"]
USER_STOPS = ("done", "transfer", "out_of_scope")


@dataclass(frozen=True)
class Budget:
    max_turns: int
    max_tool_errors: int
    max_tokens: int


@dataclass
class AgentTurn:
    """What the agent does in one turn: tool calls, or a message (``done``: it has nothing more to do)."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    message: str | None = None
    done: bool = False
    error: str | None = None  # a reason code: the turn could not be made
    tokens: int = 0


@dataclass
class UserTurn:
    text: str = ""
    stop: str | None = None  # one of USER_STOPS
    # What the user decided about the agent's last message (verifiers/decisions.py; a simulator may also record
    # insist and change_request: verifiers/consent.py RECORDED).
    decision: str | None = None
    error: str | None = None
    tokens: int = 0


@dataclass
class TaskContext:
    """What the k rollouts of one task share: the task, E's tools and whatever the actors derive from them once."""

    task: AgentRecord
    tools: list[Tool]
    scenario_problem: str | None = None  # why q.user_scenario is unusable, if it is
    derived: dict[str, Any] = field(default_factory=dict)  # per-actor caches (e.g. the action schema)

    def __post_init__(self) -> None:
        self.by_name = {tool.name: tool for tool in self.tools}

    @property
    def scenario(self) -> dict[str, Any]:
        return self.task.task.user_scenario or {}


class Conversation:
    def __init__(
        self,
        context: TaskContext,
        index: int,
        seed: int,
        env: ToolEnvironment | None,
        budget: Budget,
        sampling: SamplingParams,
        order: int = 0,
    ):
        self.context = context
        self.order = order  # position in the run's input order, so outputs can be written in that order
        self.index = index  # k: which of the task's rollouts this is
        self.seed = seed
        self.env = env
        self.budget = budget
        self.sampling = sampling.model_copy(update={"seed": seed})  # a distinct sample per rollout
        self.steps: list = []
        self.waiting: Waiting | None = "user"
        self.end_reason: str | None = None
        self.agent_turns = 0
        self.tool_errors = 0
        self.tokens = 0
        self.agent_done = False
        self.leakage = False
        self.results: list[GenerationResult] = []  # every model result of this rollout, for lineage.usage
        self.agent_state: dict[str, Any] = {}
        self.user_state: dict[str, Any] = {}
        self.faults: list[dict[str, Any]] = []  # injected by the perturbed agent
        self.error_detail: str | None = None

    @property
    def finished(self) -> bool:
        return self.end_reason is not None

    def end(self, reason: str) -> None:
        if self.end_reason is None:
            self.end_reason = reason
        self.waiting = None

    def fail(self, reason: str, detail: str) -> None:
        """End with ``reason`` and keep what went wrong (recorded in the rollout's details)."""
        self.error_detail = detail[:500]
        self.end(reason)

    def apply_agent(self, turn: AgentTurn) -> None:
        self.agent_turns += 1
        self.tokens += turn.tokens
        if turn.error:
            self.end(turn.error)
            return
        for name, arguments in turn.calls:
            self._call(name, arguments)
            if self.finished:
                return
        if turn.message is not None:
            self.steps.append(MessageAction(content=turn.message))
            self.waiting = "user"
        self.agent_done = turn.done
        self._check_budget()

    def apply_user(self, turn: UserTurn) -> None:
        self.tokens += turn.tokens
        if turn.error:
            self.end(turn.error)
            return
        if turn.text:
            question = self.last_agent_message()
            decision = None if turn.decision is None else {"kind": turn.decision, "about": self._last_message_step()}
            self.steps.append(TextObservation(content=turn.text, source="user", decision=decision))
            self.leakage = self.leakage or leaks_everything(turn.text, self.context.scenario, question)
        if turn.stop:
            self.end(turn.stop)
        elif self.agent_done:
            self.end("user_never_stopped")
        else:
            self.waiting = "agent"
            self._check_budget()

    def _call(self, name: str, arguments: dict[str, Any]) -> None:
        call_id = f"call_{len(self.steps)}"  # unique within τ, whatever ids the model invented
        self.steps.append(ApiAction(function=name, kwargs=arguments, tool_call_id=call_id))
        problem, broken = None, False
        try:
            problem = call_error(self.context.by_name, name, arguments)
        except SchemaError:  # E declares a broken schema: no call of it can be checked
            broken = True
        if problem is None:
            result = self.env.call(name, arguments)
            ok, text = result.ok, result.as_text()
        else:  # not run: an E that does not check its arguments would act on them
            ok, text = False, f"Error: {problem}"
        self.steps.append(TextObservation(content=text, source="tool", name=name, tool_call_id=call_id))
        if broken:
            self.end("tool_schema_invalid")
        elif not ok:
            self.tool_errors += 1
            if self.tool_errors >= self.budget.max_tool_errors:
                self.end("max_tool_errors")
        self.waiting = None if self.finished else "agent"

    def _check_budget(self) -> None:
        if self.finished:
            return
        if self.tokens >= self.budget.max_tokens:
            self.end("max_tokens")
        elif self.waiting == "agent" and self.agent_turns >= self.budget.max_turns:
            self.end("max_turns")

    def user_messages(self) -> list[str]:
        return [s.content for s in self.steps if isinstance(s, TextObservation) and s.source == "user"]

    def _last_message_step(self) -> int | None:
        return next((i for i in range(len(self.steps) - 1, -1, -1) if isinstance(self.steps[i], MessageAction)), None)

    def last_agent_message(self) -> str | None:
        for step in reversed(self.steps):
            if isinstance(step, MessageAction):
                return step.content
        return None

    def called(self, function: str) -> bool:
        """Whether τ has a successful call of ``function``."""
        for i, step in enumerate(self.steps):
            if isinstance(step, ApiAction) and step.function == function:
                answer = self.steps[i + 1] if i + 1 < len(self.steps) else None
                if isinstance(answer, TextObservation) and not answer.content.startswith("Error"):
                    return True
        return False
