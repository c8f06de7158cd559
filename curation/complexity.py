"""Complexity: how much a record asks of an agent, structurally and relative to a declared learner.

Structural features (curation/views.py says what the actions of a record are):

- ``turns``: dialogue turns, user turns plus agent messages;
- ``tool_calls``: tool and code calls (a task record counts its gold actions);
- ``distinct_tools``: distinct tools called;
- ``write_actions``: calls of tools E marks as ``write``;
- ``constraints``: constraints of q;
- ``tokens``: text length in tokens, estimated as characters / 4 (no tokenizer needed).

**Structural complexity** = the mean over the six features of
``min(1, log(1 + x) / log(1 + cap))``, with caps ``FEATURE_CAPS`` (a value at
its cap or above counts 1). Logarithms, because the tenth tool call adds less
difficulty than the second; caps, so one very long record does not squash
everyone else's score. It is in [0, 1] and lands in ``scores.complexity``.

**Learner-relative difficulty** (curation/learner.py): a declared learner
solves the task in ``passes`` of ``k`` rollouts, pass rate ``p = passes / k``;
``difficulty = 1 - p``; the task is at the learner's **frontier** when
``0 < p < 1`` (it can learn from it by RL: some rollouts earn reward, some do not).
Each rollout also has a reward in [0, 1] (verifiers/reward.py: 1 for a pass, partial
credit for progress toward the gold end state): ``reward_mean``, ``reward_spread``
(highest minus lowest: 0 when every rollout of the task earned the same, so a GRPO
group on it has no advantage to learn from) and ``learnability`` = m (1 - m) of the
mean reward m (Foster et al. 2025; p (1 - p) when the rewards are 1 or 0).

**Levels** (the SFT selection keeps a mix of them): ``low`` below 1/3,
``medium`` below 2/3, ``high`` from 2/3 on.
"""

from __future__ import annotations

import math

from curation.views import record_text, tool_calls
from schemas.record import AgentRecord
from schemas.steps import CodeAction, MessageAction, TextObservation

FEATURE_CAPS = {
    "turns": 20,
    "tool_calls": 15,
    "distinct_tools": 8,
    "write_actions": 4,
    "constraints": 6,
    "tokens": 4000,
}
LEVELS = ("low", "medium", "high")
CHARS_PER_TOKEN = 4


def structural_features(record: AgentRecord) -> dict[str, int]:
    calls = tool_calls(record)
    code_steps = [step for step in record.trajectory if isinstance(step, CodeAction)]
    writes = {tool.name for tool in record.environment.tools if tool.access == "write"}
    turns = sum(
        isinstance(step, MessageAction) or (isinstance(step, TextObservation) and step.source == "user")
        for step in record.trajectory
    )
    return {
        "turns": turns,
        "tool_calls": len(calls) + len(code_steps),
        "distinct_tools": len({name for name, _ in calls} | {f"code:{step.language}" for step in code_steps}),
        "write_actions": sum(name in writes for name, _ in calls),
        "constraints": len(record.task.constraints),
        "tokens": len(record_text(record)) // CHARS_PER_TOKEN,
    }


def structural_complexity(features: dict[str, int]) -> float:
    parts = [min(1.0, math.log1p(features[name]) / math.log1p(cap)) for name, cap in FEATURE_CAPS.items()]
    return round(sum(parts) / len(parts), 6)


def complexity_level(complexity: float) -> str:
    return LEVELS[min(len(LEVELS) - 1, int(complexity * len(LEVELS)))]


def learner_columns(passes: int, rewards: tuple[float, ...]) -> dict[str, float]:
    """The learner-relative columns of one task from its rollouts' passes and rewards: pass_rate, difficulty,
    frontier (1.0 or 0.0), learner_k, reward_mean, reward_spread, learnability."""
    k = len(rewards)
    p, mean = passes / k, sum(rewards) / k
    return {
        "pass_rate": p,
        "difficulty": 1.0 - p,
        "frontier": float(0 < passes < k),
        "learner_k": float(k),
        "reward_mean": round(mean, 6),
        "reward_spread": round(max(rewards) - min(rewards), 6),
        "learnability": round(mean * (1.0 - mean), 6),
    }
