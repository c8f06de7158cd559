"""The verification chain: pick the checks a record needs, run them cheap to expensive, combine.

Which checks (from ``v.kind`` and the record):

| v.kind        | chain                                            |
|---------------|--------------------------------------------------|
| constraints   | structure → replay → constraints                 |
| state_hash    | structure → replay (final hash vs v.spec)        |
| unit_tests    | [structure → replay, if τ calls tools] → unit_tests |
| answer_match  | [structure, if τ calls tools] → answer_match     |
| judge         | llm_judge                                        |

``v.spec["judge"]`` (true or an options dict) appends the LLM judge to any chain.

Stopping rule: structure and replay are *hard* checks: when one fails, the
later checks would judge a trajectory that never happened, so the chain stops
there (score 0). Outcome checks (constraints, unit tests, answer match) all
run, so every failed outcome is reported. The judge, the only paid check, runs
last and only when every deterministic check passed.

Combination: ``passed`` = every stage passed (None when the only verdict is an
unavailable judge); ``score`` = the lowest stage score; ``reasons`` = all
stages' reasons in order; ``evidence`` = {stage name: its evidence} plus
``stages`` (each stage's verdict); ``version`` names every stage and version,
so a changed verifier shows up as a changed version string.

An exception inside a stage becomes the hard reason ``verifier_error:<Type>``;
nothing escapes ``verify_record``.
"""

from __future__ import annotations

from typing import Any

from schemas.record import AgentRecord, VerifierResult
from schemas.steps import ApiAction
from verifiers.answer_match import AnswerMatchVerifier
from verifiers.base import CheckContext, EnvFactory, RecordVerifier, default_env_factory
from verifiers.constraints import ConstraintsVerifier
from verifiers.llm_judge import LLMJudge
from verifiers.replay import ReplayVerifier
from verifiers.structure import StructureVerifier
from verifiers.unit_tests import UnitTestVerifier

CHAIN_NAME = "chain"
VERIFIABLE_KINDS = frozenset({"constraints", "state_hash", "unit_tests", "answer_match", "judge"})


def plan(record: AgentRecord, judge: Any = None) -> list[RecordVerifier]:
    """The checks for one record, cheap to expensive; empty when the record is not verifiable."""
    kind, spec = record.verifier.kind, record.verifier.spec
    calls_tools = any(isinstance(step, ApiAction) for step in record.trajectory)
    chain: list[RecordVerifier] = []
    if kind in ("constraints", "state_hash"):
        chain = [StructureVerifier(), ReplayVerifier()] + ([ConstraintsVerifier()] if kind == "constraints" else [])
    elif kind == "unit_tests":
        replay = [StructureVerifier(), ReplayVerifier()] if calls_tools and record.environment.name else []
        chain = replay + [UnitTestVerifier()]
    elif kind == "answer_match":
        chain = ([StructureVerifier()] if calls_tools else []) + [AnswerMatchVerifier()]
    if kind == "judge" or (spec.get("judge") and kind in VERIFIABLE_KINDS):
        chain.append(LLMJudge(judge) if not isinstance(judge, LLMJudge) else judge)
    return chain


def is_verifiable(record: AgentRecord) -> bool:
    return record.verifier.kind in VERIFIABLE_KINDS


def _run_stage(stage: RecordVerifier, ctx: CheckContext) -> VerifierResult:
    try:
        return stage.check(ctx)
    except Exception as exc:  # bad input must become a reason code, never a crashed run
        return VerifierResult(
            passed=False,
            score=0.0,
            reasons=[f"verifier_error:{type(exc).__name__}"],
            evidence={"detail": str(exc)[:500]},
            verifier=stage.name,
            version=stage.version,
        )


def chain_version(chain: list[RecordVerifier]) -> str:
    return "+".join(f"{stage.name}@{stage.version}" for stage in chain)


def verify_record(
    record: AgentRecord, env_factory: EnvFactory = default_env_factory, judge: Any = None
) -> VerifierResult:
    """Run the record's chain and combine the stage results into one VerifierResult."""
    chain = plan(record, judge)
    ctx = CheckContext(record=record, env_factory=env_factory)
    results: list[VerifierResult] = []
    for stage in chain:
        if isinstance(stage, LLMJudge) and any(r.passed is False for r in results):
            break  # the paid check is not spent on a trajectory already rejected
        result = _run_stage(stage, ctx)
        results.append(result)
        crashed = any(reason.startswith("verifier_error:") for reason in result.reasons)
        if result.passed is False and (stage.hard or crashed):
            break
    return combine(results, chain_version(chain))


def combine(results: list[VerifierResult], version: str) -> VerifierResult:
    if not results:
        return VerifierResult(passed=None, reasons=["not_verifiable"], verifier=CHAIN_NAME, version=version)
    verdicts = [r.passed for r in results if r.passed is not None]
    passed = all(verdicts) if verdicts else None
    scores = [r.score for r in results if r.score is not None]
    hard_stop = results[-1].passed is False and results[-1].verifier in ("structure", "replay")
    return VerifierResult(
        passed=passed,
        score=0.0 if hard_stop else (min(scores) if scores else None),
        reasons=list(dict.fromkeys(reason for r in results for reason in r.reasons)),
        evidence={
            "stages": [
                {
                    "verifier": r.verifier,
                    "version": r.version,
                    "passed": r.passed,
                    "score": r.score,
                    "reasons": r.reasons,
                }
                for r in results
            ],
            **{r.verifier: r.evidence for r in results},
        },
        verifier=CHAIN_NAME,
        version=version,
    )


def apply_verification(
    record: AgentRecord, env_factory: EnvFactory = default_env_factory, judge: Any = None
) -> AgentRecord:
    """A copy of the record with v.result (and v.version) recomputed; unverifiable records come back unchanged."""
    if not is_verifiable(record):
        return record
    result = verify_record(record, env_factory, judge)
    verifier = record.verifier.model_copy(update={"result": result, "version": result.version})
    return record.model_copy(update={"verifier": verifier})
