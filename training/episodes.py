"""Multi-turn episodes of the policy being trained, in each task's environment: GRPO's rollout function.

An episode is a rollout of the synthesis stage's loop (generators/rollouts):
the same Conversation (budgets, end reasons), the same ``llm`` agent reading of
a reply (tool calls or a message), the same scripted user simulator, the same
record and verifier chain. What differs is who generates: the trainer's own
model, through transformers, every live episode's turn in one batch.

Tokens: GRPO trains on one sequence per episode, the prompt (policy, tools,
the user's opening) then the completion: each turn's generated tokens exactly
as sampled (loss on them), followed by what came back (tool results, the
user's reply, the next generation prompt) tokenized from the chat template's
rendering of the new messages (``env_mask`` 0: no loss). The model conditions
on that same sequence at its next turn, so what it saw and what it is trained
on are one thing. The chat template must be prefix-preserving (tested in
tests/training/test_render.py). The prompt shows E as ``EpisodeSettings.rendering`` says
(generators/rollouts/agent_prompt.py: the same bytes as the learner's rollouts and SFT data); calls are
read out of each reply against E's tools whatever the template was shown.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from environments.from_record import build_environment
from generators.llm.tool_calls import completion_from_text, normalize_tools
from generators.rollouts.actors import USER_SIMULATORS
from generators.rollouts.agent_prompt import Rendering, agent_prompt
from generators.rollouts.config import RolloutBudget
from generators.rollouts.conversation import Budget, Conversation, TaskContext
from generators.rollouts.llm_agent import LlmAgent
from generators.rollouts.records import rollout_record
from generators.rollouts.scenario import scenario_problem
from schemas.generation import GenerationResult, SamplingParams
from schemas.record import AgentRecord
from schemas.steps import ApiAction, MessageAction, TextObservation
from training.render import prompt_ids
from verifiers.base import default_env_factory
from verifiers.reward import rollout_reward

DATASET = "rl_episodes"
COMPONENTS_MODEL = {"backend": "trainer"}


@dataclass
class Episode:
    conv: Conversation
    messages: list[dict[str, Any]]  # the chat as the policy sees it (its turns as it wrote them)
    tools: list[dict[str, Any]] | None  # what the chat template renders (None in the compact rendering)
    prompt_ids: list[int]
    offered: list[dict[str, Any]] | None = None  # E's tools: the calls a reply may make
    completion_ids: list[int] = field(default_factory=list)
    env_mask: list[int] = field(default_factory=list)

    def extend(self, ids: list[int], trained: bool) -> None:
        self.completion_ids += ids
        self.env_mask += [int(trained)] * len(ids)


@dataclass
class EpisodeSettings:
    max_turn_tokens: int
    max_length: int
    temperature: float
    top_p: float
    budget: RolloutBudget
    user: str = "scripted"
    reward: str = "graded"
    rendering: Rendering = "full"


class EpisodeRunner:
    def __init__(self, tokenizer: Any, template: str, settings: EpisodeSettings):
        self.tokenizer, self.template, self.settings = tokenizer, template, settings
        self.agent = LlmAgent(None)  # native tool calls: the chat template's own markup
        self.user = USER_SIMULATORS.get(settings.user)(None)
        self.budget = Budget(**settings.budget.model_dump())
        self.end_reasons: Counter = Counter()
        self.episodes = 0
        self.passed = 0

    def start(self, task: AgentRecord, index: int) -> Episode:
        context = TaskContext(task, task.environment.tools, scenario_problem(task.task.user_scenario))
        env = build_environment(task.environment, default_env_factory)
        conv = Conversation(context, index, 0, env, self.budget, SamplingParams())
        self._user_turns(conv)
        prompt = agent_prompt(task.environment, self.settings.rendering)
        system = [{"role": "system", "content": prompt.system}] if prompt.system else []
        messages = system + _messages_of(conv.steps)
        ids = prompt_ids(self.tokenizer, messages, prompt.tools, self.template)
        return Episode(conv, messages, prompt.tools, ids, offered=normalize_tools(task.environment.tools))

    def prompt_length(self, task: AgentRecord) -> int:
        """Tokens of the task's prompt (policy, tools, the user's opening), before the policy's first turn."""
        return len(self.start(task, 0).prompt_ids)

    def _user_turns(self, conv: Conversation) -> None:
        while conv.waiting == "user":
            conv.apply_user(self.user.act(conv, None))

    def run(self, model: Any, tasks: list[AgentRecord]) -> list[Episode]:
        """One episode per task (a task repeated k times gets k episodes), all advanced together."""
        episodes = [self.start(task, index) for index, task in enumerate(tasks)]
        while live := [e for e in episodes if e.conv.waiting == "agent"]:
            generated = self._generate(model, [e.prompt_ids + e.completion_ids for e in live])
            for episode, ids in zip(live, generated):
                self._agent_turn(episode, ids)
        for episode in episodes:
            self.end_reasons[episode.conv.end_reason] += 1
        self.episodes += len(episodes)
        return episodes

    def _agent_turn(self, episode: Episode, ids: list[int]) -> None:
        conv, eos = episode.conv, self.tokenizer.eos_token_id
        ended = eos in ids
        ids = ids[: ids.index(eos) + 1] if ended else ids
        episode.extend(ids, trained=True)
        # A turn cut at max_turn_tokens is read like any reply, as the rollout stage reads a backend's "length".
        text = self.tokenizer.decode(ids, skip_special_tokens=True)
        completion = completion_from_text(text, "stop" if ended else "length", episode.offered)
        turn = self.agent.act(conv, GenerationResult(completions=[completion], tokens_out=len(ids)))
        before = len(conv.steps)
        conv.apply_agent(turn)
        self._user_turns(conv)
        if conv.waiting != "agent":
            return
        said = {"role": "assistant", "content": "" if completion.tool_calls else completion.text}
        calls = [s for s in conv.steps[before:] if isinstance(s, ApiAction)]
        if calls:
            said["tool_calls"] = [_call(step) for step in calls]
        came_back = _messages_of(conv.steps[before:])
        delta = self._rendered_after(episode.messages + [said], came_back, episode.tools)
        episode.messages += [said, *came_back]
        room = self.settings.max_length - len(episode.prompt_ids) - len(episode.completion_ids) - len(delta)
        if room < self.settings.max_turn_tokens + (not ended):
            conv.end("max_length")
            return
        # A cut-off turn is closed by its end token, which the policy did not write: no loss on it.
        episode.extend(([] if ended else [eos]) + delta, trained=False)

    def _rendered_after(self, before: list[dict], new: list[dict], tools: list[dict] | None) -> list[int]:
        """Tokens of ``new`` messages and the next generation prompt, as they follow the policy's end token."""
        render = self.tokenizer.apply_chat_template
        head = render(before, tools=tools, chat_template=self.template, tokenize=False)
        whole = render(
            before + new, tools=tools, chat_template=self.template, tokenize=False, add_generation_prompt=True
        )
        if not whole.startswith(head):
            raise ValueError("the chat template is not prefix-preserving: episodes cannot be extended turn by turn")
        # What the template writes after the end-of-turn token (a newline in ChatML) is not generated: it comes back.
        end = self.tokenizer.eos_token
        tail = head[head.rindex(end) + len(end) :] if end in head else ""
        return self.tokenizer.encode(tail + whole[len(head) :], add_special_tokens=False)

    def _generate(self, model: Any, sequences: list[list[int]]) -> list[list[int]]:
        """Sampled continuations of each sequence (left-padded into one batch)."""
        import torch

        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else self.tokenizer.eos_token_id
        width = max(map(len, sequences))
        input_ids = torch.full((len(sequences), width), pad, dtype=torch.long)
        mask = torch.zeros_like(input_ids)
        for row, ids in enumerate(sequences):
            input_ids[row, width - len(ids) :] = torch.tensor(ids)
            mask[row, width - len(ids) :] = 1
        was_training = model.training
        model.eval()
        with torch.no_grad():
            out = model.generate(
                input_ids=input_ids.to(model.device),
                attention_mask=mask.to(model.device),
                do_sample=True,
                temperature=self.settings.temperature,
                top_p=self.settings.top_p,
                top_k=0,
                max_new_tokens=self.settings.max_turn_tokens,
                pad_token_id=pad,
                eos_token_id=self.tokenizer.eos_token_id,
            )
        model.train(was_training)
        return out[:, width:].tolist()

    def reward(self, episode: Episode) -> float:
        """The episode's reward from its verdict: graded (verifiers/reward.py) or 1/0 for passed."""
        components = {"agent": self.agent.describe(), "user": self.user.describe(), "model": COMPONENTS_MODEL}
        result = rollout_record(episode.conv, DATASET, components, config_hash="").verifier.result
        self.passed += bool(result and result.passed)
        if self.settings.reward == "passed":
            return 1.0 if result and result.passed else 0.0
        return rollout_reward(result)

    def stats(self) -> dict[str, Any]:
        return {"episodes": self.episodes, "passed": self.passed, "end_reasons": dict(self.end_reasons.most_common())}


def _call(step: ApiAction) -> dict[str, Any]:
    return {"id": step.tool_call_id, "type": "function", "function": {"name": step.function, "arguments": step.kwargs}}


def _messages_of(steps: list) -> list[dict[str, Any]]:
    """The user-side messages among new steps: tool results and user turns (the agent's own turn is written apart)."""
    messages = []
    for step in steps:
        if isinstance(step, TextObservation) and step.source == "tool":
            messages.append(
                {"role": "tool", "tool_call_id": step.tool_call_id, "name": step.name, "content": step.content}
            )
        elif isinstance(step, TextObservation):
            messages.append({"role": "user", "content": step.content})
        elif not isinstance(step, (ApiAction, MessageAction)):
            raise TypeError(f"unexpected step in an episode: {step.class_}")
    return messages
