"""Agents that do nothing useful, and the rule that a task they pass is not a task.

A synthesized task must tell work from no work: after its gold run passes, three trivial agents try it
through the same verifier chain, and a task any of them passes is rejected (``trivial_pass:<agent>``):

- ``empty``: says nothing;
- ``refuse``: "Sorry, I cannot help with that.", no tool call;
- ``read_only``: makes the gold's read calls (identity lookups included), then refuses as above.

The agents never write, so a task whose gold run changes rows is one they all fail at final_state (the
rows the gold changes stay as they were): the gate runs them only on tasks whose gold changes nothing (a
lookup and an answer), where what they say is all that is judged.

``synth tasks`` prints how many gold-solved drafts a trivial agent passed (the trivial-pass rate; the
target is 0 once these rejections are made, so a rate above 0 says the verifier lets work go unchecked).
"""

from __future__ import annotations

from collections.abc import Callable

from environments.tool_world import ToolWorld
from generators.synthesis.drafts import TaskDraft
from generators.synthesis.goals import Rejected
from generators.synthesis.gold_solver import verify_trajectory
from schemas.record import Environment, VerifierResult
from schemas.steps import ApiAction, MessageAction, Step, TextObservation

REFUSAL = "Sorry, I cannot help with that."


def _reads(env: ToolWorld, draft: TaskDraft) -> list[Step]:
    steps: list[Step] = []
    for index, action in enumerate(draft.gold_actions()):
        spec = env.tool_spec(action["name"])
        if spec is None or spec.access == "write":
            continue
        result = env.call(action["name"], action["arguments"])
        call_id = f"read_{index}"
        steps.append(ApiAction(function=action["name"], kwargs=action["arguments"], tool_call_id=call_id))
        steps.append(TextObservation(content=result.as_text(), source="tool", tool_call_id=call_id))
    return steps


TRIVIAL_AGENTS: dict[str, Callable[[ToolWorld, TaskDraft], list[Step]]] = {
    "empty": lambda env, draft: [MessageAction(content="")],
    "refuse": lambda env, draft: [MessageAction(content=REFUSAL)],
    "read_only": lambda env, draft: [*_reads(env, draft), MessageAction(content=REFUSAL)],
}


def reject_if_trivial(
    env: ToolWorld,
    reset: Callable[[], None],
    environment: Environment,
    draft: TaskDraft,
    env_factory: Callable,
    gold: VerifierResult,
) -> None:
    """Raise ``Rejected("trivial_pass:<agent>")`` when a trivial agent passes the draft whose gold run got
    the verdict ``gold``."""
    if (gold.evidence.get("final_state") or {}).get("gold_rows"):
        return  # the gold changes rows no trivial agent touches: final_state fails each of them
    for name, agent in TRIVIAL_AGENTS.items():
        reset()
        steps = [TextObservation(content=draft.opening(), source="user"), *agent(env, draft)]
        # Only whether it passes matters: the chain stops at the first failed stage.
        if verify_trajectory(environment, draft.task(), steps, env_factory, first_failure=True).passed:
            raise Rejected(f"trivial_pass:{name}", f"the {name} agent passes this task")
