"""An AgentRecord as chat messages with tools, and as tokens with an assistant-only loss mask.

The messages are what every trainer and exporter sees (OpenAI chat shape):

- the system message is E as the learner's rendering shows it (generators/rollouts/agent_prompt.py: E's
  policy with the tools through the chat template, or the compact summary with one line per tool and no
  template tools: the bytes the rollout agent is shown), followed by any system prompt τ opens with;
- a user turn is a user observation, an environment observation that answers
  no tool call (a shell's or a web page's output: the user turn of ADP-style
  data), or a web page's text (its accessibility tree, else its HTML);
- an assistant turn is a MessageAction, and the ApiActions that follow it
  without an observation in between become that turn's ``tool_calls`` (the
  action's reasoning is the turn's text); a CodeAction is a fenced code block;
- a tool result is a ``tool`` message carrying the ``tool_call_id`` of the call
  it answers (results without ids answer the oldest open call, as in verifiers/).

A failed call -- to a tool E lacks, or with arguments that fail its schema, answered by an error
(verifiers/structure.py ``refused_bad_call``; a rollout goes on after one, as in τ-bench) -- is
rendered with its error, and its assistant turn carries ``"weight": 0`` (OpenAI fine-tuning's
per-message "no loss"): ``tokenize_chat`` gives its tokens no loss, so the recovery is learned and
the mistake is not. A turn that holds a failed call among good ones is not trained on as a whole.

Assistant text is stripped of surrounding whitespace, so a turn tokenizes the
same way in the whole conversation as after a generation prompt (no
retokenization drift between SFT, RL and evaluation).

A record that cannot be rendered raises RenderError with a stable reason code:
``tool_without_spec`` (a call to a tool E does not declare, not answered by an error), ``tool_result_without_call``,
``unsupported_step`` (images), ``no_assistant_turn`` (nothing to learn from), ``turn_mask_unaligned``
(the template's loss spans do not map one-to-one onto the assistant turns, so a failed call's turn
cannot be masked).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from generators.rollouts.agent_prompt import Rendering, agent_prompt
from schemas.record import AgentRecord
from schemas.steps import ApiAction, CodeAction, ImageObservation, MessageAction, TextObservation, WebObservation
from verifiers.structure import refused_bad_call
from verifiers.trajectory_view import pair_calls


class RenderError(ValueError):
    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


@dataclass
class Chat:
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None  # OpenAI function-tool dicts for the template; None: E has none, or compact


@dataclass
class RenderStats:
    """Counts add up: records = rendered + sum(skipped.values())."""

    records: int = 0
    rendered: int = 0
    skipped: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        return {"records": self.records, "rendered": self.rendered, "skipped": dict(self.skipped.most_common())}


def record_to_chat(record: AgentRecord, rendering: Rendering = "full") -> Chat:
    """The record's conversation as chat messages with tools (see the module docstring)."""
    prompt = agent_prompt(record.environment, rendering)
    known = {tool.name for tool in record.environment.tools}
    pairs, orphans = pair_calls(record.trajectory)
    call_ids = {pair.step: pair.call.tool_call_id or f"call_{pair.step}" for pair in pairs}
    by_name = {tool.name: tool for tool in record.environment.tools}
    failed = {pair.step for pair in pairs if refused_bad_call(pair, by_name)}
    answers = {pair.result_step: pair.step for pair in pairs if pair.result_step is not None}
    system = [prompt.system] if prompt.system else []
    messages: list[dict[str, Any]] = []
    after_action = False  # an action with no observation since: a following ApiAction joins its turn
    last_action: Any = None
    for index, step in enumerate(record.trajectory):
        if isinstance(step, ApiAction):
            if step.function not in known and index not in failed:
                raise RenderError(
                    "tool_without_spec", f"step {index} calls {step.function!r}, which E does not declare"
                )
            call = {
                "id": call_ids[index],
                "type": "function",
                "function": {"name": step.function, "arguments": step.kwargs},
            }
            if after_action and messages[-1]["role"] == "assistant":
                turn = messages[-1]
                turn["content"] = _join(turn["content"], step.reasoning)
            else:
                turn = {"role": "assistant", "content": _join(step.reasoning)}
                messages.append(turn)
            turn.setdefault("tool_calls", []).append(call)
            if index in failed:
                turn["weight"] = 0
        elif isinstance(step, (MessageAction, CodeAction)):
            messages.append({"role": "assistant", "content": _action_text(step)})
        elif isinstance(step, TextObservation) and step.source == "system" and not messages:
            system.append(step.content)
        elif isinstance(step, TextObservation) and index in answers:
            call = record.trajectory[answers[index]]
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call_ids[answers[index]],
                    "name": call.function,
                    "content": step.content,
                }
            )
        elif index in orphans and not isinstance(last_action, CodeAction):
            raise RenderError("tool_result_without_call", f"step {index} answers no tool call")
        else:
            messages.append(_observation_message(index, step))
        after_action = isinstance(step, (ApiAction, MessageAction))
        if isinstance(step, (ApiAction, MessageAction, CodeAction)):
            last_action = step
    if not any(message["role"] == "assistant" for message in messages):
        raise RenderError("no_assistant_turn", "τ has no agent action to learn from")
    head = [{"role": "system", "content": "\n\n".join(system)}] if system else []
    return Chat(messages=head + messages, tools=prompt.tools)


def _join(*parts: str | None) -> str:
    return "\n\n".join(part.strip() for part in parts if part and part.strip())


def _action_text(step: MessageAction | CodeAction) -> str:
    if isinstance(step, MessageAction):
        return _join(step.reasoning, step.content)
    return _join(step.reasoning, f"```{step.language}\n{step.content.strip()}\n```")


def _observation_message(index: int, step: Any) -> dict[str, Any]:
    """A user-side turn: user, environment or shell output, a later system prompt, a web page's text."""
    if isinstance(step, TextObservation):
        role = {"system": "system", "agent": "assistant"}.get(step.source, "user")
        return {"role": role, "content": step.content}
    if isinstance(step, WebObservation) and (step.axtree or step.html):
        return {"role": "user", "content": step.axtree or step.html}
    kind = "image_observation" if isinstance(step, ImageObservation) else step.class_
    raise RenderError("unsupported_step", f"step {index} is a {kind} with no text to render")


def tokenize_chat(tokenizer: Any, chat: Chat, template: str) -> dict[str, list[int]]:
    """``input_ids`` of the whole conversation and ``assistant_masks`` (1 on tokens that carry loss)."""
    out = tokenizer.apply_chat_template(
        chat.messages,
        tools=chat.tools,
        chat_template=template,
        tokenize=True,
        return_dict=True,
        return_assistant_tokens_mask=True,
    )
    mask = list(out["assistant_masks"])
    _unmask_untrained_turns(mask, chat.messages)
    return {"input_ids": list(out["input_ids"]), "assistant_masks": mask}


def _unmask_untrained_turns(mask: list[int], messages: list[dict[str, Any]]) -> None:
    """No loss on the tokens of assistant turns with ``"weight": 0`` (in place). The template marks each assistant
    turn as one run of loss tokens (its {% generation %} block), so the k-th run is the k-th assistant turn."""
    untrained = [message.get("weight") == 0 for message in messages if message["role"] == "assistant"]
    if not any(untrained):
        return
    runs = [i for i in range(len(mask)) if mask[i] and (i == 0 or not mask[i - 1])]
    if len(runs) != len(untrained):
        raise RenderError("turn_mask_unaligned", f"{len(runs)} loss spans for {len(untrained)} assistant turns")
    for start, skip in zip(runs, untrained):
        end = start
        while end < len(mask) and mask[end]:
            end += 1
        if skip:
            mask[start:end] = [0] * (end - start)


def prompt_ids(tokenizer: Any, messages: list[dict[str, Any]], tools: list[dict] | None, template: str) -> list[int]:
    """Token ids of ``messages`` followed by the generation prompt: what the model sees before its next turn."""
    text = tokenizer.apply_chat_template(
        messages, tools=tools, chat_template=template, tokenize=False, add_generation_prompt=True
    )
    return tokenizer.encode(text, add_special_tokens=False)


def render_records(
    records: Iterable[AgentRecord],
    stats: RenderStats,
    convert: Callable[[AgentRecord, Chat], Any] | None = None,
    rendering: Rendering = "full",
) -> Iterator[tuple[AgentRecord, Any]]:
    """Each renderable record with its chat in ``rendering`` (or ``convert(record, chat)``, which may raise
    RenderError too); the others are counted in ``stats.skipped`` by reason."""
    for record in records:
        stats.records += 1
        try:
            chat = record_to_chat(record, rendering)
            item = convert(record, chat) if convert else chat
        except RenderError as exc:
            stats.skipped[exc.reason] += 1
            continue
        stats.rendered += 1
        yield record, item
