"""Code tasks (issue 9 part 5): a model proposes a Python function task; the sandbox decides whether to keep it.

A proposal is structured output (``PROPOSAL_SCHEMA``: entry point, prompt,
signature, a reference solution, assert tests), enforced by the backend where
it supports JSON schemas and otherwise asked for in the prompt and checked
here. ``check_proposal`` keeps it only when

1. it parses and fits the schema (``unparseable``, ``invalid_proposal``), the
   model having been asked once more, with its bad answer shown, when not
   (schemas.structured_output);
2. the reference passes every test in the sandbox, environments/code
   (``reference_fails:<sandbox status>``);
3. a trivially wrong solution, ``return None``, fails them (``trivial_passes``:
   tests that accept anything check nothing);
4. no earlier proposal of the run had the same entry point and prompt (``duplicate``).

A kept task becomes a task record in the contract's shape (E: the code
sandbox; q: the CodeTask prompt and hidden tests, a scenario, gold actions =
submit the reference; v: unit tests), so ``synth rollouts`` can roll it out.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field, ValidationError

from environments.code import CodeEnvironment, CodeTask, SandboxLimits, run_python, sandbox_config
from environments.to_record import to_record_environment
from generators.llm.config import BackendConfig
from generators.rollouts.config import THROUGHPUT_ONLY
from schemas.generation import ChatRequest, SamplingParams
from schemas.record import AgentRecord, Lineage, Source, Verifier, aceforge_version, stable_id
from schemas.structured_output import NO_JSON, SCHEMA_INVALID, StructuredOutput, generate_structured

SYNTHESIZER, VERSION = "code_proposer", "1"
TASK_FORMAT = "synth_tasks"
PROPOSAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "entry_point": {"type": "string", "minLength": 1, "maxLength": 60},
        "prompt": {"type": "string", "minLength": 10, "maxLength": 800},
        "signature": {"type": "string", "minLength": 5, "maxLength": 200},
        "reference": {"type": "string", "minLength": 10, "maxLength": 3000},
        "tests": {
            "type": "array",
            "items": {"type": "string", "minLength": 5, "maxLength": 400},
            "minItems": 1,
            "maxItems": 8,
        },
    },
    "required": ["entry_point", "prompt", "signature", "reference", "tests"],
    "additionalProperties": False,
}
PROPOSAL = StructuredOutput(PROPOSAL_SCHEMA)
# This stage's reason codes for what structured output finds wrong (no JSON at all counts as unparseable).
_REASONS = {NO_JSON: "unparseable", SCHEMA_INVALID: "invalid_proposal"}
PROPOSAL_SAMPLING = {"temperature": 0.8, "max_tokens": 768}  # proposals must differ; a reference and tests take room
TOPICS = (
    "strings",
    "lists of integers",
    "dictionaries",
    "counting",
    "sorting",
    "prime numbers",
    "dates written as text",
    "matrices as lists of lists",
    "parsing simple formats",
    "sets",
    "running totals",
    "words in a sentence",
)
EXAMPLE = {
    "entry_point": "count_vowels",
    "prompt": "Count the vowels (a, e, i, o, u, either case) in a string.",
    "signature": "def count_vowels(text: str) -> int:",
    "reference": "def count_vowels(text):\n    return sum(ch in 'aeiouAEIOU' for ch in text)\n",
    "tests": ["assert count_vowels('') == 0", "assert count_vowels('Banana') == 3", "assert count_vowels('xyz') == 0"],
}


class CodeTaskConfig(BackendConfig):
    """``aceforge synth code``: code tasks proposed by a model, kept only when the sandbox agrees."""

    n: int = Field(20, ge=1)
    """Proposals to ask the model for (each kept or rejected with a reason code)."""
    seed: int = 0
    """Seed of the run: topics and each proposal's sampling seed derive from it."""
    sampling: SamplingParams = Field(default_factory=lambda: SamplingParams(**PROPOSAL_SAMPLING))
    """Sampling of the proposals; the seed is replaced by each proposal's own."""
    min_tests: int = Field(3, ge=1)
    """Fewest tests a proposal must carry."""


@dataclass
class Verdict:
    task: CodeTask | None
    reason: str | None = None  # None: kept
    evidence: dict[str, Any] = field(default_factory=dict)


def proposal_request(index: int, cfg: CodeTaskConfig, structured: bool) -> ChatRequest:
    topic = TOPICS[(cfg.seed + index) % len(TOPICS)]
    ask = (
        f"Propose one small, self-contained Python programming exercise about {topic}. Answer with one JSON object "
        "with: entry_point (the function's name), prompt (what the function must do), signature (its def line), "
        "reference (a correct implementation, no imports beyond the standard library), tests (3 to 6 assert "
        f"statements that call the function). Example:\n{json.dumps(EXAMPLE)}"
    )
    return ChatRequest(
        messages=[
            {"role": "system", "content": "You write Python exercises with tests."},
            {"role": "user", "content": ask},
        ],
        json_schema=PROPOSAL_SCHEMA if structured else None,
        sampling=cfg.sampling.model_copy(update={"seed": int(stable_id("code", cfg.seed, index)[:8], 16) & 0x7FFFFFFF}),
    )


def parse_proposal(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The proposal object, or (None, reason code)."""
    parsed = PROPOSAL.parse(text)
    return (parsed.value, None) if parsed.ok else (None, _REASONS.get(parsed.reason, parsed.reason))


def check_proposal(proposal: dict[str, Any], min_tests: int, limits: SandboxLimits) -> Verdict:
    """Keep a parsed proposal only if its reference passes and ``return None`` fails (see the module docstring)."""
    entry = proposal["entry_point"]
    if not entry.isidentifier() or len(proposal["tests"]) < min_tests:
        return Verdict(None, "invalid_proposal", {"detail": "entry point not an identifier, or too few tests"})
    key = stable_id(entry, proposal["prompt"], proposal["reference"], proposal["tests"])
    try:
        task = CodeTask(id=f"{entry}_{key[:8]}", **proposal)
    except ValidationError as exc:
        return Verdict(None, "invalid_proposal", {"detail": str(exc)[:300]})
    reference = run_python(task.reference, task.tests, entry, limits=limits)
    if not reference.ok:
        return Verdict(None, f"reference_fails:{reference.status}", {"reference": _summary(reference)})
    trivial = run_python(f"def {entry}(*args, **kwargs):\n    return None\n", task.tests, entry, limits=limits)
    evidence = {"reference": _summary(reference), "trivial": _summary(trivial)}
    if trivial.ok:
        return Verdict(None, "trivial_passes", evidence)
    return Verdict(task, None, evidence)


def _summary(run) -> dict[str, Any]:
    return {"status": run.status, "tests_passed": run.tests_passed, "tests_total": run.tests_total}


def code_task_record(task: CodeTask, verdict: Verdict, dataset: str, lineage: dict[str, Any]) -> AgentRecord:
    """A kept task in the task contract's shape; rollouts submit the reference as the gold action."""
    environment = to_record_environment(
        CodeEnvironment(task_id=task.id),
        snapshot_id=f"code-task-{task.id}",
        sandbox={"env_params": {"task_id": task.id}},
        kind="code_sandbox",
    )
    q = task.to_task()
    q.user_scenario = {
        "persona": "A developer who needs a function written.",
        "reason": task.instruction(),
        "known_info": {"function name": task.entry_point, "signature": task.signature},
        "unknown_info": ["the hidden tests"],
        "instructions": ["End the conversation once the function is submitted."],
    }
    q.expected_outputs.update(
        gold_actions=[{"name": "submit_solution", "arguments": {"code": task.reference}}],
        gold_label="model_proposed_sandbox_checked",
        outcome="write",
    )
    q.metadata.update(
        task_kind="code_function",
        complexity=len(task.tests),
        constraint_kinds=["unit_tests"],
        synthesizer=SYNTHESIZER,
        synthesizer_version=VERSION,
        seed=lineage.get("seed"),
        parents=[],
        filter=verdict.evidence,
    )
    return AgentRecord(
        id=f"code-{stable_id(SYNTHESIZER, task.id, task.tests)}",
        environment=environment,
        task=q,
        verifier=Verifier(kind="unit_tests"),
        source=Source(dataset=dataset, format=TASK_FORMAT, original_id=task.id),
        lineage=Lineage(generator=lineage, config_hash=lineage.get("config_hash"), pipeline_version=aceforge_version()),
    )


@dataclass
class CodeTaskRun:
    records: list[AgentRecord] = field(default_factory=list)
    rejected: list[tuple[int, str, str]] = field(default_factory=list)  # (proposal index, reason, raw text)

    def as_dict(self) -> dict[str, Any]:
        reasons = Counter(reason for _, reason, _ in self.rejected)
        return {
            "made": len(self.records) + len(self.rejected),
            "kept": len(self.records),
            "rejected": len(self.rejected),
            "rejected_by_reason": dict(reasons.most_common()),
        }


def run_code_tasks(cfg: CodeTaskConfig, generator, dataset: str, on_progress=lambda done, total: None) -> CodeTaskRun:
    """Ask for ``cfg.n`` proposals in one batch (and once more, in one batch, for those that do not parse or fit),
    then filter each in the sandbox; made = kept + rejected."""
    structured = bool(generator.capabilities.supports_json_schema)
    requests = [proposal_request(i, cfg, structured) for i in range(cfg.n)]
    answers = generate_structured(generator, requests, cfg.sampling, PROPOSAL)
    lineage = {
        "synthesizer": SYNTHESIZER,
        "version": VERSION,
        "backend": cfg.backend_name(),
        **generator.model_id,
        "sampling": cfg.sampling.model_dump(),
        "structured_output": structured,
        "seed": cfg.seed,
        "config_hash": stable_id(
            "synth code", cfg.model_dump(mode="json", include=set(CodeTaskConfig.model_fields) - THROUGHPUT_ONLY)
        ),
    }
    run, seen = CodeTaskRun(), set()
    limits = sandbox_config().limits
    for index, answer in enumerate(answers):
        if answer.text is None:
            run.rejected.append((index, answer.reason, answer.detail))
        else:
            reason = _REASONS.get(answer.reason, answer.reason)
            verdict = check_proposal(answer.value, cfg.min_tests, limits) if answer.ok else Verdict(None, reason)
            if verdict.task is not None and (verdict.task.entry_point, verdict.task.prompt) in seen:
                verdict = Verdict(None, "duplicate")
            if verdict.task is None:
                run.rejected.append((index, verdict.reason, answer.text))
            else:
                seen.add((verdict.task.entry_point, verdict.task.prompt))
                run.records.append(code_task_record(verdict.task, verdict, dataset, {**lineage, "proposal": index}))
        on_progress(index + 1, cfg.n)
    return run
