"""The perturbed agent: the oracle with one seeded fault, so that verified failures exist to learn from.

Faults (``RolloutConfig.faults`` lists the kinds to draw from; one per rollout,
drawn with the rollout's seed among those that apply to the task):

- ``wrong_argument``: one argument of one gold call changed (a write's when there is one; an enum
  argument first: another allowed value; ids and text get a wrong character; numbers move);
- ``skipped_read``: one read call of the gold actions left out;
- ``extra_write``: after the gold actions, one unrequested write whose arguments come from
  values seen in the conversation: a forbidden call of an ``action_not_called`` constraint
  first, then, in a seeded order, the first one that would change the state (tried in a scratch
  copy of the environment, so the fault is a real write rather than a refused call);
- ``early_end``: the rollout stops before its last write (or its last call) and claims success.

Each fault is recorded in ``conv.faults`` (and from there in lineage): its kind and what it
changed. A fault may happen not to change the verdict (a skipped read the agent did not need);
the verifier decides.
"""

from __future__ import annotations

import random
from typing import Any

import orjson

from environments.base import ToolEnvironment
from generators.rollouts.config import FAULTS
from generators.rollouts.conversation import AgentTurn, Conversation
from generators.rollouts.oracle import OracleAgent, scratch_copy
from schemas.generation import GenerationResult
from schemas.record import Tool
from schemas.steps import ApiAction, TextObservation

EXTRA_WRITE = "<extra write>"  # the plan's placeholder, resolved when the agent gets there
FILLS_PER_TOOL = 6  # argument draws per write tool for extra_write (seen values vary: several orders, ...)
_PROBE = random.Random(0)  # only asks whether a value can be changed at all


def mutate(value: Any, schema: dict[str, Any], rng: random.Random) -> Any:
    """A wrong value of the same type (None when there is nothing to change)."""
    options = [v for v in schema.get("enum", []) if v != value]
    if options:
        return rng.choice(options)
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str) and value:
        return value[:-1] + ("1" if value[-1] == "0" else "0")
    if isinstance(value, list) and value:
        first = mutate(value[0], schema.get("items", {}), rng)
        return None if first is None else [first, *value[1:]]
    return None


def singular(key: str) -> str:
    return key[:-1] if key.endswith("s") and not key.endswith("ss") else key


def observed_values(conv: Conversation) -> dict[str, list[Any]]:
    """Scalar values by field name in the calls and JSON tool results so far (list items under the singular)."""
    found: dict[str, list[Any]] = {}

    def record(key: str, value: Any) -> None:
        if isinstance(value, (str, int, float)) and not isinstance(value, bool) and value not in found.get(key, []):
            found.setdefault(key, []).append(value)

    def walk(value: Any, key: str | None) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, (dict, list)):
                    walk(item, key)
                elif key:  # "orders": ["#R1"] -> order, order_id
                    record(singular(key), item)
                    record(singular(key) + "_id", item)
        elif key:
            record(key, value)

    for step in conv.steps:
        if isinstance(step, ApiAction):
            walk(step.kwargs, None)
        elif isinstance(step, TextObservation) and step.source == "tool" and step.content[:1] in "{[":
            try:
                walk(orjson.loads(step.content), None)
            except orjson.JSONDecodeError:
                continue
    return found


def fill_arguments(tool: Tool, seen: dict[str, list[Any]], rng: random.Random) -> dict[str, Any] | None:
    """Required arguments of ``tool`` from seen values (enums: any allowed value); None when one is missing."""
    arguments: dict[str, Any] = {}
    properties = tool.parameters.get("properties", {})
    for name in tool.parameters.get("required", []):
        schema = properties.get(name, {})
        if schema.get("enum"):
            arguments[name] = rng.choice(schema["enum"])
        elif schema.get("type") == "array" and seen.get(singular(name)):
            arguments[name] = [rng.choice(seen[singular(name)])]
        elif schema.get("type") in ("string", "number", "integer") and seen.get(name):
            arguments[name] = rng.choice(seen[name])
        else:
            return None
    return arguments


class PerturbedAgent(OracleAgent):
    name = "perturbed"
    version = "1"

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "faults": list(self._kinds())}

    def _kinds(self) -> tuple[str, ...]:
        return tuple(getattr(self.settings, "faults", None) or FAULTS)

    def start(self, conv: Conversation) -> None:
        super().start(conv)
        actions = conv.agent_state["actions"]
        if actions is None:
            return
        rng = conv.agent_state["rng"] = random.Random(f"perturbed:{conv.seed}")
        appliers = {
            "wrong_argument": self._wrong_argument,
            "skipped_read": self._skipped_read,
            "extra_write": self._extra_write,
            "early_end": self._early_end,
        }
        for kind in rng.sample(self._kinds(), len(self._kinds())):  # applicable kinds, in a seeded order
            fault = appliers[kind](conv, actions, rng)
            if fault is not None:
                conv.faults.append({"kind": kind, **fault})
                return
        conv.faults.append({"kind": "none", "detail": "no fault applies to this task"})

    def _is_write(self, conv: Conversation, action: dict[str, Any]) -> bool:
        tool = conv.context.by_name.get(action["name"])
        return tool is not None and tool.access == "write"

    def _wrong_argument(self, conv: Conversation, actions: list[dict], rng: random.Random) -> dict | None:
        changeable = []
        for index, action in enumerate(actions):
            tool = conv.context.by_name.get(action["name"])
            properties = tool.parameters.get("properties", {}) if tool else {}
            for key, value in action["arguments"].items():
                schema = properties.get(key, {})
                if mutate(value, schema, _PROBE) is not None:
                    changeable.append((self._is_write(conv, action), bool(schema.get("enum")), index, key, schema))
        if not changeable:
            return None
        best = max(item[:2] for item in changeable)  # a write's enum argument first, then any write's, ...
        _, _, index, key, schema = rng.choice([item for item in changeable if item[:2] == best])
        old = actions[index]["arguments"][key]
        actions[index]["arguments"][key] = new = mutate(old, schema, rng)
        return {"action": index, "tool": actions[index]["name"], "argument": key, "from": old, "to": new}

    def _skipped_read(self, conv: Conversation, actions: list[dict], rng: random.Random) -> dict | None:
        reads = [i for i, action in enumerate(actions) if not self._is_write(conv, action)]
        if not reads:
            return None
        index = rng.choice(reads)
        return {"action": index, "tool": actions.pop(index)["name"]}

    def _extra_write(self, conv: Conversation, actions: list[dict], rng: random.Random) -> dict | None:
        if not any(tool.access == "write" for tool in conv.context.tools):
            return None
        actions.append({"name": EXTRA_WRITE, "arguments": {}})
        return {"action": len(actions) - 1}

    def _early_end(self, conv: Conversation, actions: list[dict], rng: random.Random) -> dict | None:
        if not actions:
            return None
        writes = [i for i, action in enumerate(actions) if self._is_write(conv, action)]
        cut = rng.randint(0, writes[-1] if writes else len(actions) - 1)
        dropped = [action["name"] for action in actions[cut:]]
        del actions[cut:]
        return {"after_actions": cut, "dropped": dropped}

    def act(self, conv: Conversation, result: GenerationResult | None) -> AgentTurn:
        actions, index = conv.agent_state["actions"], conv.agent_state["next"]
        if actions is not None and index < len(actions) and actions[index]["name"] == EXTRA_WRITE:
            conv.agent_state["next"] = index + 1
            call = self._choose_extra_write(conv)
            conv.faults[-1].update(call or {"detail": "no write could be filled from what was seen"})
            if call is not None:
                return AgentTurn(calls=[(call["tool"], call["arguments"])])
            return self.act(conv, result)
        return super().act(conv, result)

    def _choose_extra_write(self, conv: Conversation) -> dict[str, Any] | None:
        """A write filled from seen values; one that would change the state, tried in a scratch copy, first."""
        rng, seen = conv.agent_state["rng"], observed_values(conv)
        gold = [(a["name"], a["arguments"]) for a in conv.agent_state["actions"]]
        forbidden = {
            c.get("function") for c in conv.context.task.task.constraints if c.get("check") == "action_not_called"
        }
        candidates = []
        writes = sorted((tool for tool in conv.context.tools if tool.access == "write"), key=lambda t: t.name)
        for tool in writes:
            for _ in range(FILLS_PER_TOOL):
                arguments = fill_arguments(tool, seen, rng)
                candidate = (tool.name in forbidden, tool.name, arguments)
                if arguments is not None and (tool.name, arguments) not in gold and candidate not in candidates:
                    candidates.append(candidate)
        if not candidates:
            return None
        rng.shuffle(candidates)
        candidates.sort(key=lambda c: not c[0])  # a forbidden call first, else in the seeded order
        scratch = scratch_copy(conv)
        for _, name, arguments in candidates:
            if scratch is None or changes_state(scratch, name, arguments):
                return {"tool": name, "arguments": arguments}
        return {"tool": candidates[0][1], "arguments": candidates[0][2]}


def changes_state(env: ToolEnvironment, name: str, arguments: dict[str, Any]) -> bool:
    """Whether the call succeeds and changes the state (a failed call leaves it as it was)."""
    before = env.state_hash()
    return env.call(name, arguments).ok and env.state_hash() != before
