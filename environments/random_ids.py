"""Random ids for seeded generators: a prefix plus fixed-width digits, never repeated."""

from __future__ import annotations

import random


class UniqueIds:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()

    def new(self, prefix: str, digits: int) -> str:
        while True:
            candidate = f"{prefix}{self.rng.randrange(10**digits):0{digits}d}"
            if candidate not in self.used:
                self.used.add(candidate)
                return candidate
