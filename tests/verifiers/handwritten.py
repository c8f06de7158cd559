"""Hand-written trajectories in the seed-0 worlds, recorded the way an agent run records them.

A script is a list of steps (a user TextObservation, a MessageAction) and
``(tool, arguments)`` tuples; each tuple becomes an ApiAction followed by the
tool result the live world answers, so the verifier chain sees real results.
"""

from __future__ import annotations

from environments.registry import get_environment
from environments.to_record import to_record_environment
from schemas.record import AgentRecord, Source, Task, Verifier
from schemas.steps import ApiAction, TextObservation


def rollout(env_name: str, script: list) -> list:
    """Run the script's calls in a fresh seed-0 world of 500 users; each call id is ``call_<position>``."""
    env = get_environment(env_name, users=500)
    steps = []
    for index, action in enumerate(script):
        if isinstance(action, tuple):
            name, args = action
            cid = f"call_{index}"
            steps.append(ApiAction(function=name, kwargs=args, tool_call_id=cid))
            steps.append(TextObservation(content=env.call(name, args).as_text(), source="tool", tool_call_id=cid))
        else:
            steps.append(action)
    return steps


def handwritten_record(
    env_name: str, steps: list, instruction: str, constraints: list[dict], record_id: str
) -> AgentRecord:
    """A record of ``steps`` whose E rebuilds the seed-0, 500-user world (snapshot "<name>-seed0-users500")."""
    environment = to_record_environment(get_environment(env_name, users=500))
    return AgentRecord(
        id=record_id,
        environment=environment,
        task=Task(instruction=instruction, constraints=constraints),
        trajectory=steps,
        verifier=Verifier(kind="constraints"),
        source=Source(dataset="unit", format="literal"),
    )
