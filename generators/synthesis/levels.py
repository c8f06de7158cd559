"""The difficulty ladder: what a task of each level is made of, and the mix ``synth tasks --difficulty`` draws.

1. one lookup and an answer (one read goal);
2. one write, or one request the policy refuses;
3. several goals (2 to 4): a write, then a write or a fact to tell, then any;
4. a conditional goal (the database decides the branch: conditions.py), mostly with further goals, and a
   user who behaves like a person (changes their mind, insists after a refusal: behaviours.py).

A small learner and a large one both find a frontier on such a ladder; the default mix keeps level 1 in
so the smallest has one. A goal's **class** is ``conditional`` for conditional specs, else its outcome.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the config imports this module; goal specs import the environments
    from generators.synthesis.goals import GoalSpec

PLAIN = ("read", "write", "refusal")


@dataclass(frozen=True)
class Level:
    goals: tuple[int, int]  # how many goals, at least and at most
    first: tuple[str, ...]  # the classes the first goal is drawn from; the others are plain
    # Tried first for the second goal: a write or a fact to tell beside a write is work of two kinds.
    second: tuple[str, ...] = PLAIN


LEVELS = {
    1: Level((1, 1), ("read",)),
    2: Level((1, 1), ("write", "refusal")),
    3: Level((2, 4), ("write",), ("write", "read")),
    4: Level((1, 4), ("conditional",), ("write", "read")),
}
# The level whose users behave like people (behaviours.py).
BEHAVING = 4
# One more request of the same user, beside a stored task (evolve's compose).
COMPANION = Level((1, 1), PLAIN)
DEFAULT_MIX = "1:0.1,2:0.1,3:0.35,4:0.45"
_WEIGHTED = re.compile(r"^\s*([1-4])\s*(?::\s*(\d+(?:\.\d*)?|\.\d+))?\s*$")


def goal_class(spec: GoalSpec) -> str:
    return "conditional" if spec.conditional else spec.outcome


def parse_mix(text: str) -> dict[int, float]:
    """'4' (only level 4), '1,2' (equal shares) or '1:0.1,2:0.3,...' (weights, normalised) -> {level: share}."""
    weights: dict[int, float] = {}
    for part in text.split(","):
        match = _WEIGHTED.match(part)
        if not match:
            raise ValueError(f"expected levels 1-4 as '4', '1,2' or '1:0.2,4:0.8', got {text!r}")
        weights[int(match.group(1))] = float(match.group(2) or 1.0)
    total = sum(weights.values())
    if total <= 0:
        raise ValueError(f"the weights of {text!r} add up to 0")
    return {level: weight / total for level, weight in sorted(weights.items()) if weight > 0}


def level_sequence(mix: dict[int, float], n: int, rng: random.Random) -> list[int]:
    """``n`` levels in the mix's shares (normalised; largest remainder, so 10 tasks of '1:0.1,...' hold exactly one of level
    1), in a seeded random order."""
    total = sum(mix.values())
    exact = {level: share / total * n for level, share in mix.items()}
    counts = {level: int(value) for level, value in exact.items()}
    by_remainder = sorted(mix, key=lambda level: (-(exact[level] - counts[level]), level))
    for level in by_remainder[: n - sum(counts.values())]:
        counts[level] += 1
    levels = [level for level, count in counts.items() for _ in range(count)]
    rng.shuffle(levels)
    return levels
