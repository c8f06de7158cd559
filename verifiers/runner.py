"""The verification chain: pick the checks a record needs, run them cheap to expensive, combine.

Which checks (from ``v.kind`` and the record), by their names in the verifier
registry (verifiers/registry.py), so a plug-in can replace a built-in stage:

| v.kind        | chain                                               |
|---------------|-----------------------------------------------------|
| constraints   | structure → replay → [final_state, if q has gold actions] → constraints → grounding → statements → policy |
| state_hash    | structure → replay (final hash vs v.spec)           |
| unit_tests    | [structure → replay, if τ calls tools] → unit_tests |
| answer_match  | [structure, if τ calls tools] → answer_match        |
| judge         | llm_judge                                           |

``v.spec["judge"]`` (true or an options dict) appends the LLM judge to any chain. Given a judge model
(``aceforge verify --judge-*``), a record the rules leave undecided (nothing failed; a stage could not decide,
its evidence ``undecided`` names what) goes to the judge, whose verdict decides it.

What each stage declares (verifiers/base.py), the only thing the runner reads
about a stage:

| stage        | hard | needs_env | needs_model |
|--------------|------|-----------|-------------|
| structure    | yes  |           |             |
| replay       | yes  | yes       |             |
| final_state  |      | yes       |             |
| constraints  |      | yes       |             |
| grounding    |      | yes       |             |
| statements   |      | yes       |             |
| policy       |      | yes       |             |
| unit_tests   |      |           |             |
| answer_match |      |           |             |
| llm_judge    |      |           | yes         |

- ``hard``: a failure means later checks would judge a trajectory that never
  happened, so the chain stops there with score 0. Outcome checks are not
  hard: they all run, so every failed outcome is reported.
- ``needs_env`` / ``needs_model``: the runner passes ``env_factory`` and
  ``model`` through the CheckContext. A stage whose need was not given (None)
  is not run and has no verdict (passed None, reason ``<need>_unavailable`` or
  the stage's own, e.g. ``judge_unavailable``); when that stage is hard, the
  chain stops undecided.
- A stage that needs a model (the costly kind) runs only when every earlier
  stage passed: no model call is spent on a trajectory already rejected.
- A stage that had what it needs and still reached no verdict (a judge whose
  backend failed: ``judge_error``) stops the chain undecided: an error is never
  a pass, nor a failed trajectory.

Provenance: the combined result's ``origin`` is ``computed`` (aceforge reached a verdict) or
``undecided`` (passed None: a judge error, a missing model or environment); a verdict that came with
the data (a converter's) has none and reads as ``imported`` (schemas.record.VerifierResult.provenance).

Combination: ``passed`` = every stage passed (None when no stage gave a
verdict, or a hard stage could not run); ``score`` = the lowest stage score;
``reasons`` = all stages' reasons in order; ``evidence`` = {stage name: its
evidence} plus ``stages`` (each stage's verdict); ``version`` names every
stage and version, so a changed verifier shows up as a changed version string.

An exception inside a stage becomes the reason ``verifier_error:<Type>`` and
stops the chain; nothing escapes ``verify_record``.
"""

from __future__ import annotations

from environments.registry import EnvironmentFactory
from schemas.generation import Generator
from schemas.record import AgentRecord, VerifierResult
from schemas.steps import ApiAction
from verifiers.base import CheckContext, RecordVerifier, default_env_factory
from verifiers.final_state import gold_actions
from verifiers.registry import make_verifier

CHAIN_NAME = "chain"
JUDGE = "llm_judge"
VERIFIABLE_KINDS = frozenset({"constraints", "state_hash", "unit_tests", "answer_match", "judge"})


def stage_names(record: AgentRecord) -> list[str]:
    """The names of the checks for one record, cheap to expensive; empty when the record is not verifiable."""
    kind, spec = record.verifier.kind, record.verifier.spec
    calls_tools = any(isinstance(step, ApiAction) for step in record.trajectory)
    names: list[str] = []
    if kind == "state_hash":
        names = ["structure", "replay"]
    elif kind == "constraints":
        gold = ["final_state"] if gold_actions(record) is not None else []
        names = ["structure", "replay", *gold, "constraints", "grounding", "statements", "policy"]
    elif kind == "unit_tests":
        names = (["structure", "replay"] if calls_tools and record.environment.name else []) + ["unit_tests"]
    elif kind == "answer_match":
        names = (["structure"] if calls_tools else []) + ["answer_match"]
    if kind == "judge" or (spec.get("judge") and kind in VERIFIABLE_KINDS):
        names.append("llm_judge")
    return names


def plan(record: AgentRecord) -> list[RecordVerifier]:
    """The stages for one record, built by name from the verifier registry (verifiers/registry.py)."""
    return [make_verifier(name) for name in stage_names(record)]


def asks_for_judge(record: AgentRecord) -> bool:
    """Whether the record's own v names the LLM judge (v.kind judge, or v.spec["judge"])."""
    return JUDGE in stage_names(record)


def is_verifiable(record: AgentRecord) -> bool:
    return record.verifier.kind in VERIFIABLE_KINDS


def can_decide(
    record: AgentRecord, env_factory: EnvironmentFactory | None = default_env_factory, model: Generator | None = None
) -> bool:
    """Whether what is given lets the record's chain reach a verdict: some stage can run and no hard one lacks a need.

    When it cannot (a judge-only record without a model), a caller keeps the record's stored verdict.
    """
    ctx = CheckContext(record=record, env_factory=env_factory, model=model)
    missing = [(stage, stage.missing(ctx)) for stage in plan(record)]
    return any(not needs for _, needs in missing) and not any(needs and stage.hard for stage, needs in missing)


def _run_stage(stage: RecordVerifier, ctx: CheckContext) -> VerifierResult:
    missing = stage.missing(ctx)
    if missing:
        return stage.unavailable(missing)
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


def _stops_chain(stage: RecordVerifier, result: VerifierResult) -> bool:
    """A hard stage that did not pass (failed or could not run) stops the chain; so does a crashed stage."""
    crashed = any(reason.startswith("verifier_error:") for reason in result.reasons)
    return crashed or (stage.hard and result.passed is not True)


def chain_version(chain: list[RecordVerifier]) -> str:
    return "+".join(f"{stage.name}@{stage.version}" for stage in chain)


def verify_record(
    record: AgentRecord,
    env_factory: EnvironmentFactory | None = default_env_factory,
    model: Generator | None = None,
    first_failure: bool = False,
) -> VerifierResult:
    """Run the record's chain and combine the stage results into one VerifierResult; ``first_failure``: stop at
    the first stage that fails (a gate that only needs to know whether it passes, not every reason)."""
    ctx = CheckContext(record=record, env_factory=env_factory, model=model)
    return run_chain(plan(record), ctx, first_failure)


def run_chain(chain: list[RecordVerifier], ctx: CheckContext, first_failure: bool = False) -> VerifierResult:
    """Run any chain of stages on ctx's record by the stopping rules above, and combine the results. When the
    rules leave the record undecided (nothing failed, something could not be decided) and a judge model is
    given, the judge decides it. ``first_failure``: stop at the first failed stage."""
    if ctx.model is not None and not any(stage.needs_model for stage in chain):
        chain = [*chain, make_verifier(JUDGE)]
        ctx.memo["judge_decides_only"] = True
    results: list[VerifierResult] = []
    stopped = False
    for stage in chain:
        if stage.name == JUDGE and ctx.memo.get("judge_decides_only") and not any(undecided(r) for r in results):
            break  # a judge added to decide what the rules could not: nothing to decide here
        if stage.needs_model and any(r.passed is False for r in results):
            break  # the costly check is not spent on a trajectory already rejected
        given = not stage.missing(ctx)
        results.append(_run_stage(stage, ctx))
        if first_failure and results[-1].passed is False:
            break
        if _stops_chain(stage, results[-1]) or (given and results[-1].passed is None and not undecided(results[-1])):
            stopped = True
            break
    return combine(results, chain_version(chain), stopped)


def undecided(result: VerifierResult) -> bool:
    """A stage that ran and could not decide what it checks (evidence ``undecided`` names what)."""
    return result.passed is None and bool(result.evidence.get("undecided"))


def combine(results: list[VerifierResult], version: str, stopped: bool = False) -> VerifierResult:
    """One verdict from the stage results; ``stopped``: the last result stopped the chain. A failure anywhere
    fails the record; otherwise a stage that could not decide leaves it undecided, never passed."""
    if not results:
        return VerifierResult(
            passed=None, reasons=["not_verifiable"], verifier=CHAIN_NAME, version=version, origin="undecided"
        )
    verdicts = [r.passed for r in results if r.passed is not None]
    scores = [r.score for r in results if r.score is not None]
    open_question = (stopped and results[-1].passed is None) or any(undecided(r) for r in results)
    judged = results[-1].verifier == JUDGE and results[-1].passed is not None
    if open_question and judged and False not in verdicts[:-1]:  # the judge decides what the rules left open
        open_question = False
    if False in verdicts:
        passed, score = False, 0.0 if stopped else (min(scores) if scores else None)
    elif open_question or not verdicts:
        passed, score = None, None
    else:
        passed, score = True, min(scores) if scores else None
    return VerifierResult(
        passed=passed,
        score=score,
        origin="undecided" if passed is None else "computed",
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
    record: AgentRecord, env_factory: EnvironmentFactory | None = default_env_factory, model: Generator | None = None
) -> AgentRecord:
    """A copy of the record with v.result (and v.version) recomputed; unverifiable records come back unchanged."""
    if not is_verifiable(record):
        return record
    result = verify_record(record, env_factory, model)
    verifier = record.verifier.model_copy(update={"result": result, "version": result.version})
    return record.model_copy(update={"verifier": verifier})
