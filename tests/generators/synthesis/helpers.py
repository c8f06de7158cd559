"""What the synthesis tests share: replaying a task's gold actions the way a rollout records them; a generator
that answers fixed texts."""

from __future__ import annotations

from environments.from_record import build_environment
from environments.registry import get_environment
from generators.llm.interface import Capabilities, Completion, GenerationResult
from generators.rollouts.oracle import confirmation
from generators.rollouts.scripted_user import YES
from generators.synthesis.drafts import TaskDraft
from schemas.record import AgentRecord
from schemas.steps import ApiAction, MessageAction, TextObservation
from verifiers.money import amounts_of_last_call
from verifiers.runner import verify_record


def rollout_of(task: AgentRecord, actions: list[dict] | None = None, reply: str | None = None) -> AgentRecord:
    """The task with τ as a careful agent records it: the user's opening (the request and what they know),
    ``actions`` (default: the gold actions) with the results a fresh world answers, each write confirmed
    (the call and the money it moves, then the user's yes), and ``reply`` (default: the gold reply)."""
    env = build_environment(task.environment, get_environment)
    draft = TaskDraft.from_metadata(task.environment.name, task.task.metadata)
    steps: list = [TextObservation(content=draft.opening(), source="user")]
    gold = task.task.expected_outputs
    for index, action in enumerate(gold["gold_actions"] if actions is None else actions):
        call_id = f"call_{index}"
        result = env.call(action["name"], action["arguments"])
        if env.tool_spec(action["name"]).access == "write":
            amounts = amounts_of_last_call(env) if result.ok else []
            steps.append(MessageAction(content=confirmation(action["name"], action["arguments"], amounts)))
            steps.append(TextObservation(content=YES, source="user"))
        steps.append(ApiAction(function=action["name"], kwargs=action["arguments"], tool_call_id=call_id))
        steps.append(TextObservation(content=result.as_text(), source="tool", tool_call_id=call_id))
    steps.append(MessageAction(content=gold["gold_reply"] if reply is None else reply))
    return task.model_copy(update={"trajectory": steps})


def gold_verdict(task: AgentRecord):
    return verify_record(rollout_of(task))


def references(task: AgentRecord) -> list[dict]:
    meta = task.task.metadata
    return [*meta["identity"]["references"], *(ref for goal in meta["goals"] for ref in goal["references"])]


class ScriptedGenerator:
    """Answers with fixed texts, in order across batches (a stand-in for prompt/parse logic only; the real model
    runs in the slow test)."""

    capabilities = Capabilities(supports_json_schema=False)

    def __init__(self, texts: list[str]):
        self.texts = texts
        self.requests = []

    def generate(self, requests, params):
        self.requests += requests
        texts, self.texts = self.texts[: len(requests)], self.texts[len(requests) :]
        return [GenerationResult(completions=[Completion(text=t)]) for t in texts]
