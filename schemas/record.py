"""The AgentRecord: one (E, q, τ, v) row, plus source, lineage and scores.

See ../shared/DESIGN.md for what each part means. Free-form parts (tool
argument schemas, DB states, details) are plain dicts here and JSON strings in
Parquet (schemas/arrow_schema.py), so shards always share one Arrow schema.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from schemas.steps import Step
from schemas.versions import SCHEMA_VERSION, SchemaError, check_version, unknown_fields_message, upgraded


class _Model(BaseModel):
    # defer_build: pydantic builds a model's validator at its first use, not at import, so commands that
    # import the schema without validating (`aceforge formats`, listing commands) start faster.
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Tool(_Model):
    """A tool the agent may call: OpenAI function-tool shape, plus read/write."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})
    # "write" tools change the environment's state; verifiers penalize needless writes.
    access: Literal["read", "write"] | None = None


class StateRef(_Model):
    """Where the environment's initial state lives and what it hashes to."""

    snapshot_id: str
    content_hash: str | None = None


class Environment(_Model):
    """E: what the agent acts in."""

    # e.g. none, chat, tool_world, code_sandbox, shell, web, swe_repo
    kind: str = "none"
    name: str | None = None
    tools: list[Tool] = Field(default_factory=list)
    policy: str | None = None
    initial_state: StateRef | None = None
    sandbox: dict[str, Any] = Field(default_factory=dict)


class Task(_Model):
    """q: the instruction and everything that defines success."""

    instruction: str = ""
    # Persona, known/unknown information for a simulated user (τ-bench style).
    user_scenario: dict[str, Any] | None = None
    # Machine-checkable constraints, in the constraint language of verifiers/.
    constraints: list[dict[str, Any]] = Field(default_factory=list)
    expected_outputs: dict[str, Any] | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


VerdictOrigin = Literal["computed", "imported", "undecided"]


class VerifierResult(_Model):
    passed: bool | None = None
    score: float | None = None
    reasons: list[str] = Field(default_factory=list)
    evidence: dict[str, Any] = Field(default_factory=dict)
    verifier: str = ""
    version: str = ""
    # Who decided: "computed" by aceforge's verifier chain, "undecided" when it ran and could not decide;
    # None for a verdict that came with the data (read as "imported", see ``provenance``).
    origin: VerdictOrigin | None = None

    @property
    def provenance(self) -> VerdictOrigin:
        if self.origin is not None:
            return self.origin
        return "undecided" if self.passed is None else "imported"


class Verifier(_Model):
    """v: how success is checked, and what the check said."""

    # none, constraints, state_hash, unit_tests, answer_match, judge, reward (imported)
    kind: str = "none"
    spec: dict[str, Any] = Field(default_factory=dict)
    version: str | None = None
    result: VerifierResult | None = None


class AgentIdentity(_Model):
    """The agent that made an imported trajectory, as its own file says; None where the file does not say."""

    framework: str | None = None  # the agent's framework or tool (claude-code, codex, smolagents, ...)
    model: str | None = None  # the model it ran on: the first one the file names
    version: str | None = None  # the framework's version
    other_models: list[str] = Field(default_factory=list)  # further models the file names (a switch, a subagent)


class Source(_Model):
    dataset: str
    format: str
    original_id: str | None = None
    license: str | None = None
    uri: str | None = None
    # The agent of an imported trajectory (schema 1.3; lineage.generator before). None for aceforge's own records,
    # whose generator (backend, model, sampling, seed) is lineage.generator.
    agent: AgentIdentity | None = None


@cache
def aceforge_version() -> str:
    """The installed aceforge's version: what ``lineage.pipeline_version`` says of the records aceforge makes
    (read once: the package metadata is parsed on every call, a tenth of synthesis time)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("aceforge")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


class Lineage(_Model):
    # How it was generated: aceforge's backend, model, sampling params and seed; for an imported trajectory the
    # agent's settings its file states beside its identity (an edit format, a reasoning effort, ...).
    generator: dict[str, Any] | None = None
    parents: list[str] = Field(default_factory=list)
    pipeline_version: str | None = None
    config_hash: str | None = None
    usage: dict[str, Any] = Field(default_factory=dict)  # tokens in/out, latency, calls


class Scores(_Model):
    accuracy: float | None = None
    complexity: float | None = None
    diversity: float | None = None
    extra: dict[str, float] = Field(default_factory=dict)
    # Id of the declared learner whose pass rate is in extra (the hash of its policy configuration).
    learner: str | None = None


class AgentRecord(_Model):
    id: str
    schema_version: str = SCHEMA_VERSION
    environment: Environment = Field(default_factory=Environment)
    task: Task = Field(default_factory=Task)
    trajectory: list[Step] = Field(default_factory=list)
    verifier: Verifier = Field(default_factory=Verifier)
    source: Source
    lineage: Lineage = Field(default_factory=Lineage)
    scores: Scores = Field(default_factory=Scores)
    # Source fields with no place above (patches, eval logs, ...), kept rather than dropped.
    details: dict[str, Any] = Field(default_factory=dict)


def load_record(data: dict[str, Any]) -> AgentRecord:
    """A record as stored by any version this aceforge reads (a JSON object, or a Parquet row's parts), as the
    current version: fields it lacks take their defaults. Raises a SchemaError for a newer version or a field no
    version has (never dropped), pydantic's ValidationError for anything else wrong.
    """
    if not isinstance(data, dict):
        raise ValueError(f"a record is a JSON object, got {type(data).__name__}")
    version = data.get("schema_version", SCHEMA_VERSION)
    check_version(version)
    data = upgraded(data, version)
    try:
        return AgentRecord.model_validate({**data, "schema_version": SCHEMA_VERSION})
    except ValidationError as exc:
        errors = exc.errors()
        unknown = [".".join(map(str, e["loc"])) for e in errors if e["type"] == "extra_forbidden"]
        if unknown and len(unknown) == len(errors):  # a record but for fields no version has: a newer one's
            raise SchemaError(unknown_fields_message(unknown, [version])) from None
        raise


def canonical_json(value: Any) -> bytes:
    """Canonical JSON: sorted keys (non-string keys as strings), no whitespace. Ids and state hashes hash this."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)


def stable_id(*parts: Any) -> str:
    """A short content id: the same parts give the same id on every run and machine."""
    return hashlib.blake2b(canonical_json(list(parts)), digest_size=12).hexdigest()


def record_id(dataset: str, fmt: str, original_id: Any, fallback: Any = None) -> str:
    """The id of a converted record: by its original id when it has one, else by content."""
    key = original_id if original_id not in (None, "") else stable_id(fallback)
    return f"{dataset}-{stable_id(fmt, dataset, key)}"
