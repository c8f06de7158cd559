"""Whether a judge model may decide what the rules leave undecided: only with its agreement measured.

``bench/judge_agreement.py`` runs the LLM judge alone on the hand-labelled trajectories (bench/labelled/) and
writes a ``JudgeAgreement`` file: the judge's identity and, per kind of case, how often its verdict matched the
person's label on right and on wrong trajectories. ``aceforge verify --judge-agreement FILE`` reads it; the judge
decides undecided records only when the file names this very model (name and weights hash) and the judge agrees
with the labels on at least ``minimum`` of the right AND of the wrong trajectories (a judge that passes everything
agrees with every right one). Records whose own v asks for a judge are judged either way: their data chose it.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError


class Agreement(BaseModel):
    """Judge verdicts against hand labels, on right and on wrong trajectories."""

    model_config = ConfigDict(extra="forbid")

    right: int = 0
    right_agreed: int = 0  # the judge passed a right trajectory
    wrong: int = 0
    wrong_agreed: int = 0  # the judge failed a wrong trajectory (no verdict counts as disagreeing)

    def add(self, label: str, verdict: bool | None) -> None:
        if label == "right":
            self.right += 1
            self.right_agreed += verdict is True
        else:
            self.wrong += 1
            self.wrong_agreed += verdict is False

    def __add__(self, other: Agreement) -> Agreement:
        return Agreement(**{field: getattr(self, field) + getattr(other, field) for field in Agreement.model_fields})

    @property
    def on_right(self) -> float:
        return self.right_agreed / self.right if self.right else 0.0

    @property
    def on_wrong(self) -> float:
        return self.wrong_agreed / self.wrong if self.wrong else 0.0

    @property
    def overall(self) -> float:
        cases = self.right + self.wrong
        return (self.right_agreed + self.wrong_agreed) / cases if cases else 0.0

    def line(self) -> str:
        return (
            f"{self.right + self.wrong:>4} cases: agreement {self.overall:.3f} "
            f"(right {self.right_agreed}/{self.right}, wrong {self.wrong_agreed}/{self.wrong})"
        )


class JudgeAgreement(BaseModel):
    """What bench/judge_agreement.py measured for one judge model."""

    model_config = ConfigDict(extra="forbid")

    judge: dict[str, str]  # the generator's model_id: {"model", "hash"}
    labelled_set: str  # which hand-labelled cases (their domains and count), to read the figures by
    by_kind: dict[str, Agreement]

    @property
    def total(self) -> Agreement:
        return sum(self.by_kind.values(), Agreement())


def why_untrusted(path: Path | None, judge: dict[str, str], minimum: float) -> str | None:
    """None when the agreement file lets this judge decide undecided records, else one line saying why not."""
    if path is None:
        return "its agreement with the hand labels was not measured (bench/judge_agreement.py, then --judge-agreement)"
    try:
        measured = JudgeAgreement.model_validate_json(path.read_bytes())
    except (OSError, ValidationError, ValueError) as exc:
        return f"{path} is not an agreement file bench/judge_agreement.py wrote ({type(exc).__name__})"
    if measured.judge != judge:
        return f"{path} measured another model ({measured.judge.get('model')}, hash {measured.judge.get('hash')})"
    total = measured.total
    if min(total.on_right, total.on_wrong) < minimum:
        return (
            f"it agrees with the hand labels on {total.on_right:.2f} of right and {total.on_wrong:.2f} of wrong "
            f"trajectories, below the {minimum:.2f} required"
        )
    return None
