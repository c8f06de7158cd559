"""Counts of a synthesis run: made = kept + rejected (by reason code), plus scenario fallbacks and paraphrases
(tried = kept + rejected by reason code; a rejected paraphrase leaves the original reason)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

OnProgress = Callable[[int, int], None]  # (done, total)


@dataclass
class SynthStats:
    made: int = 0
    kept: int = 0
    rejected: Counter = field(default_factory=Counter)
    scenario_fallbacks: Counter = field(default_factory=Counter)
    paraphrases_tried: int = 0
    paraphrases_kept: int = 0
    paraphrase_rejected: Counter = field(default_factory=Counter)
    extra: dict[str, Any] = field(default_factory=dict)  # stage-specific counts (exploration episodes, ...)

    def reject(self, code: str) -> None:
        self.rejected[code] += 1

    def trivial_passes(self) -> int:
        return sum(count for code, count in self.rejected.items() if code.startswith("trivial_pass:"))

    def as_dict(self) -> dict[str, Any]:
        solved = self.kept + self.trivial_passes()
        return {
            "made": self.made,
            "kept": self.kept,
            # of the drafts whose gold run passed, the share a do-nothing agent passed too (all rejected)
            "trivial_pass_rate": round(self.trivial_passes() / solved, 4) if solved else 0.0,
            "rejected": sum(self.rejected.values()),
            "rejected_by_reason": dict(self.rejected.most_common()),
            "scenario_fallbacks": dict(self.scenario_fallbacks.most_common()),
            "paraphrases": {
                "tried": self.paraphrases_tried,
                "kept": self.paraphrases_kept,
                "rejected_by_reason": dict(self.paraphrase_rejected.most_common()),
            },
            **self.extra,
        }
