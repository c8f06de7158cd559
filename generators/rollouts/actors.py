"""Agent policies and user simulators: named, versioned components, registered by name.

An actor takes one turn of a conversation at a time. A scripted actor
(``uses_model = False``) answers from ``act(conv, None)`` at once; a model
actor first builds a ``request(conv)``, which the scheduler serves together
with every other waiting conversation's request in one backend batch, then
reads the result in ``act(conv, result)``. Actors keep per-rollout state in
``conv.agent_state`` / ``conv.user_state``, never on themselves, so one actor
object serves every live conversation.

Registries (runtime/plugins.py): ``AGENT_POLICIES`` (oracle, perturbed, llm) and
``USER_SIMULATORS`` (scripted, llm); an installed package adds more through the
``aceforge.agent_policies`` / ``aceforge.user_simulators`` entry points.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from generators.rollouts.conversation import AgentTurn, Conversation, UserTurn
from runtime.plugins import Registry, named_subclass
from schemas.generation import ChatRequest, GenerationResult


class Actor(ABC):
    name: ClassVar[str] = ""
    version: ClassVar[str] = "1"
    uses_model: ClassVar[bool] = False

    def __init__(self, settings: Any = None):
        """``settings``: the run's RolloutConfig (actors read the options that concern them)."""
        self.settings = settings

    def describe(self) -> dict[str, Any]:
        """What lineage records about this actor."""
        return {"name": self.name, "version": self.version}

    def request(self, conv: Conversation) -> ChatRequest:
        """The model request for this conversation's next turn (model actors only)."""
        raise NotImplementedError(f"{self.name} does not call a model")

    @abstractmethod
    def act(self, conv: Conversation, result: GenerationResult | None) -> AgentTurn | UserTurn:
        """This actor's turn: from ``result`` (the answer to ``request``) for a model actor, else from ``conv``."""


class AgentPolicy(Actor):
    def start(self, conv: Conversation) -> None:  # noqa: B027  most policies keep no per-rollout plan
        """Called once before the rollout's first turn."""

    @abstractmethod
    def act(self, conv: Conversation, result: GenerationResult | None) -> AgentTurn: ...


class UserSimulator(Actor):
    @abstractmethod
    def act(self, conv: Conversation, result: GenerationResult | None) -> UserTurn: ...


AGENT_POLICIES: Registry[type[AgentPolicy]] = Registry(
    "agent_policies",
    "agent policy",
    {
        "oracle": "generators.rollouts.oracle:OracleAgent",
        "perturbed": "generators.rollouts.perturbed:PerturbedAgent",
        "llm": "generators.rollouts.llm_agent:LlmAgent",
    },
    check=named_subclass(AgentPolicy),
)
USER_SIMULATORS: Registry[type[UserSimulator]] = Registry(
    "user_simulators",
    "user simulator",
    {
        "scripted": "generators.rollouts.scripted_user:ScriptedUser",
        "llm": "generators.rollouts.llm_user:LlmUser",
    },
    check=named_subclass(UserSimulator),
)


def model_turn_error(result: GenerationResult) -> str | None:
    """The reason code of a result that carries no usable completion (None when it does)."""
    if result.error:
        return "context_overflow" if result.error.startswith("prompt too long") else "backend_error"
    if not result.completions:
        return "backend_error"
    return None
