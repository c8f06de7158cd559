"""The programmatic gold solution of a draft: run its actions, record τ, and pass it through the verifier chain.

The gold trajectory is the user's request (with what the user knows: their
email or user id, ...), each gold call with the result the world answers
(``tool_call_id`` ``gold_<n>``; before a write, the agent's confirmation naming
the call and the money it moves, and the user's yes), and the agent's closing
reply, which states every fact the read goals ask for. It must pass the real
chain (structure → replay → final state → constraints → grounding → policy); a
call the world refuses or a failed verdict drops the sample with a reason code (``gold_call_failed:<tool>``,
``gold_unverified:<first reason>``): a task no one can solve is never kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from environments.tool_world import ToolWorld
from generators.rollouts.oracle import carries, confirmation, options_message
from generators.rollouts.persona import Voice
from generators.rollouts.scripted_user import YES
from generators.synthesis.drafts import TaskDraft
from generators.synthesis.goals import Rejected
from schemas.record import AgentRecord, Environment, Source, Task, Verifier, VerifierResult
from schemas.steps import ApiAction, MessageAction, Step, TextObservation
from verifiers.money import amounts_of_last_call
from verifiers.runner import verify_record

GOLD_LABEL = "programmatic"


@dataclass
class GoldRun:
    trajectory: list[Step]
    final_state_hash: str
    verdict: VerifierResult


def gold_trajectory(
    env: ToolWorld, opening: str, actions: list[dict], reply: str, choice: dict | None = None
) -> tuple[list[Step], str]:
    """Run ``actions`` in ``env`` (already reset) and record them as a careful agent would; returns τ and the
    final state hash. Before each write the agent names the call and the money it moves and the user says yes;
    before the call that carries the option a user chooses (``choice``: a choose_option behaviour) the agent
    lists the options and the user names theirs."""
    steps: list[Step] = [TextObservation(content=opening, source="user")]
    for index, action in enumerate(actions):
        if choice and carries(action["arguments"], choice["value"]):
            steps.append(MessageAction(content=options_message(choice["options"])))
            pick = Voice({}).choose(choice["choice"])
            steps.append(
                TextObservation(content=pick, source="user", decision={"kind": "choose", "about": len(steps) - 1})
            )
            choice = None
        result = env.call(action["name"], action["arguments"])
        if not result.ok:
            raise Rejected(f"gold_call_failed:{action['name']}", result.error or "")
        spec = env.tool_spec(action["name"])
        if spec is not None and spec.access == "write":
            amounts = amounts_of_last_call(env)
            steps.append(MessageAction(content=confirmation(action["name"], action["arguments"], amounts)))
            steps.append(
                TextObservation(content=YES, source="user", decision={"kind": "consent", "about": len(steps) - 1})
            )
        call_id = f"gold_{index}"
        steps.append(ApiAction(function=action["name"], kwargs=action["arguments"], tool_call_id=call_id))
        steps.append(TextObservation(content=result.as_text(), source="tool", tool_call_id=call_id))
    steps.append(MessageAction(content=reply))
    return steps, env.state_hash()


def verify_trajectory(
    environment: Environment, task: Task, steps: list[Step], env_factory: Callable, first_failure: bool = False
) -> VerifierResult:
    record = AgentRecord(
        id="gold",
        environment=environment,
        task=task,
        trajectory=steps,
        verifier=Verifier(kind="constraints"),
        source=Source(dataset="gold", format="gold"),
    )
    return verify_record(record, env_factory, first_failure=first_failure)


def solve(
    env: ToolWorld, environment: Environment, draft: TaskDraft, env_factory: Callable, reply: str | None = None
) -> GoldRun:
    """The verified gold run of one draft, or ``Rejected`` with the reason it cannot be one."""
    choice = next((b for b in draft.behaviours if b.get("kind") == "choose_option"), None)
    steps, final_hash = gold_trajectory(
        env, draft.opening(), draft.gold_actions(), draft.reply() if reply is None else reply, choice
    )
    verdict = verify_trajectory(environment, draft.task(), steps, env_factory)
    if not verdict.passed:
        raise Rejected(f"gold_unverified:{verdict.reasons[0] if verdict.reasons else 'unknown'}", str(verdict.evidence))
    return GoldRun(steps, final_hash, verdict)
