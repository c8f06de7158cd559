"""The oracle agent: follows the task's gold actions, then says what the read goals need, and ends.

It behaves like a careful support agent, so its rollouts are usable as teacher
data: before a call whose argument values nobody has said yet (the user's
email, name, the reason for a cancellation) it asks the user for them, and
asks again for the rest as long as each answer brings some of them (a user who
gives one detail at a time); before a write whose tool asks for the user's
confirmation it describes the call and the money it moves (tried in a scratch
copy of the world) and waits for a yes, asking again when the user turns it
down (a user who changed their mind: the gold already follows the final
request), up to MAX_CONFIRMATIONS times; before the call that carries an
option the user chooses (a ``choose_option`` behaviour) it lists the options
and lets the user pick; it makes one call per turn. Its last
message is the task's ``gold_reply`` when the synthesizer wrote one, else one
built from q's ``message_contains`` constraints, with the transfer notice when
the gold actions hand the user over. A task that refuses something leaves the
user room to push back: the oracle then says the refusal once more, politely,
and ends. Values it has not seen still go into the calls: the oracle knows the
answer, which is the point of it.
"""

from __future__ import annotations

from typing import Any

from environments.base import ToolEnvironment
from environments.from_record import InitialStateError, build_environment
from generators.rollouts.actors import AgentPolicy
from generators.rollouts.conversation import AgentTurn, Conversation
from generators.rollouts.scenario import behaviour_of
from schemas.generation import GenerationResult
from schemas.record import Tool
from schemas.steps import ApiAction, TextObservation
from verifiers.base import default_env_factory
from verifiers.consent import user_decision
from verifiers.final_state import gold_actions as gold_actions_of
from verifiers.money import amounts_of_last_call

TRANSFER_TOOL = "transfer_to_human_agents"
TRANSFER_NOTICE = "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."
MAX_CONFIRMATIONS = 3
CHECKED_AGAIN = "I have checked again, and I am sorry:"
CLOSINGS = {
    "write": "Your request is done.",
    "read": "Here is what you asked for.",
    "refusal": "I am sorry, but our policy does not allow that, so I cannot do it.",
}


def gold_actions(conv: Conversation) -> list[dict[str, Any]] | None:
    """The task's gold actions as (name, arguments) dicts; None when q has none or they are malformed."""
    return gold_actions_of(conv.context.task)


def needs_confirmation(tool: Tool | None) -> bool:
    """Every write: the policies ask for the user's explicit yes before any change (verifiers/policy.py)."""
    return tool is not None and tool.access == "write"


def humanize(name: str) -> str:
    return name.replace("_", " ")


def describe_call(name: str, arguments: dict[str, Any]) -> str:
    details = ", ".join(f"{humanize(key)} {value}" for key, value in arguments.items())
    return f"{humanize(name)} ({details})" if details else humanize(name)


def unseen_arguments(conv: Conversation, arguments: dict[str, Any]) -> list[str]:
    """Names of arguments with a text value that no user turn or tool result has mentioned."""
    heard = " ".join(
        step.content for step in conv.steps if isinstance(step, TextObservation) and step.source in ("user", "tool")
    ).lower()
    missing = []
    for key, value in arguments.items():
        texts = [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
        if texts and any(text.lower() not in heard for text in texts):
            missing.append(key)
    return missing


def confirmation(name: str, arguments: dict[str, Any], amounts: list[float]) -> str:
    """What a careful agent asks before a write: the call with every argument, and the money it moves."""
    money = f", which moves {' and '.join(f'${a:,.2f}' for a in amounts)}" if amounts else ""
    return f"I will {describe_call(name, arguments)}{money}. Do you confirm that I should proceed (yes/no)?"


def options_message(options: list[str]) -> str:
    """What a careful agent says to a user who chooses: the options found, and the question."""
    return f"These are available: {'; '.join(f'the {option}' for option in options)}. Which one would you like?"


def carries(arguments: dict[str, Any], value: Any) -> bool:
    """Whether one of the call's arguments is ``value`` or a list holding it."""
    return any(v == value or (isinstance(v, list) and value in v) for v in arguments.values())


def scratch_copy(conv: Conversation) -> ToolEnvironment | None:
    """A fresh environment brought to the conversation's current state by replaying its calls."""
    try:
        env = build_environment(conv.context.task.environment, default_env_factory)
    except InitialStateError:
        return None
    for step in conv.steps:
        if isinstance(step, ApiAction):
            env.call(step.function, step.kwargs)
    return env


def dry_run_amounts(conv: Conversation, name: str, arguments: dict[str, Any]) -> list[float]:
    """The money the call would move now (tried in a scratch copy; nothing when it cannot be built)."""
    scratch = scratch_copy(conv)
    if scratch is None or not scratch.call(name, arguments).ok:
        return []
    return amounts_of_last_call(scratch)


def final_reply(conv: Conversation, actions: list[dict[str, Any]]) -> str:
    expected = conv.context.task.task.expected_outputs or {}
    reply = expected.get("gold_reply")
    if not isinstance(reply, str) or not reply.strip():
        facts = []
        for c in conv.context.task.task.constraints:
            if c.get("check") == "message_contains":
                facts.append(f"{float(c['number']):.2f}" if "number" in c else str(c.get("text", "")))
        closing = CLOSINGS.get(expected.get("outcome"), CLOSINGS["write"])
        reply = " ".join([closing, *(f"{fact}." for fact in facts if fact)])
    if any(action["name"] == TRANSFER_TOOL for action in actions):
        reply = f"{reply} {TRANSFER_NOTICE}".strip()
    return reply


class OracleAgent(AgentPolicy):
    name = "oracle"
    version = "2"

    def start(self, conv: Conversation) -> None:
        conv.agent_state.update(actions=gold_actions(conv), next=0, asked={}, confirmed={}, closed=False)

    def act(self, conv: Conversation, result: GenerationResult | None) -> AgentTurn:
        state = conv.agent_state
        actions = state["actions"]
        if actions is None:
            return AgentTurn(error="no_gold_actions")
        index = state["next"]
        if index >= len(actions):
            return self._close(conv, actions)
        action = actions[index]
        missing = unseen_arguments(conv, action["arguments"])
        if missing and len(missing) < state["asked"].get(index, len(missing) + 1):
            state["asked"][index] = len(missing)
            return AgentTurn(message=f"Could you please tell me your {', '.join(map(humanize, missing))}?")
        choice = behaviour_of(conv.context.scenario, "choose_option")
        if choice and not state.get("listed") and carries(action["arguments"], choice.get("value")):
            state["listed"] = True
            return AgentTurn(message=options_message(choice["options"]))
        asked = state["confirmed"].get(index, 0)
        if needs_confirmation(conv.context.by_name.get(action["name"])) and (
            asked == 0 or (asked < MAX_CONFIRMATIONS and last_turn_refused(conv))
        ):
            state["confirmed"][index] = asked + 1
            amounts = dry_run_amounts(conv, action["name"], action["arguments"])
            return AgentTurn(message=confirmation(action["name"], action["arguments"], amounts))
        state["next"] = index + 1
        return AgentTurn(calls=[(action["name"], action["arguments"])])

    @staticmethod
    def _close(conv: Conversation, actions: list[dict[str, Any]]) -> AgentTurn:
        """The final reply; a task that refuses something waits for the user's answer (they may push back), and
        an answer that does not end the conversation gets the refusal once more."""
        refused = refusal_replies(conv)
        if conv.agent_state["closed"] and refused:
            return AgentTurn(message=f"{CHECKED_AGAIN} {' '.join(refused)}", done=True)
        conv.agent_state["closed"] = True
        return AgentTurn(message=final_reply(conv, actions), done=not refused)


def last_turn_refused(conv: Conversation) -> bool:
    """Whether the user's latest turn turns down what the agent asked (recorded beside it, else by its words)."""
    step = next(
        (s for s in reversed(conv.steps) if isinstance(s, TextObservation) and s.source == "user"),
        None,
    )
    return step is not None and user_decision(step)[0] == "refusal"


def refusal_replies(conv: Conversation) -> list[str]:
    """What the task's refusal goals say (q.metadata's goals), or the generic refusal for a refusal task without."""
    task = conv.context.task.task
    goals = (task.metadata or {}).get("goals")
    replies = [
        g["reply"] for g in goals or [] if isinstance(g, dict) and g.get("outcome") == "refusal" and g.get("reply")
    ]
    if not replies and (task.expected_outputs or {}).get("outcome") == "refusal":
        replies = [CLOSINGS["refusal"]]
    return replies
