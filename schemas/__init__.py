"""The AgentRecord (E, q, τ, v), its steps, Arrow schema, IO and ADP mapping."""

from schemas.record import (
    SCHEMA_VERSION,
    AgentRecord,
    Environment,
    Lineage,
    Scores,
    Source,
    StateRef,
    Task,
    Tool,
    Verifier,
    VerifierResult,
    record_id,
    stable_id,
)
from schemas.steps import (
    ApiAction,
    CodeAction,
    ImageObservation,
    MessageAction,
    Step,
    TextObservation,
    WebObservation,
)

__all__ = [
    "SCHEMA_VERSION",
    "AgentRecord",
    "ApiAction",
    "CodeAction",
    "Environment",
    "ImageObservation",
    "Lineage",
    "MessageAction",
    "Scores",
    "Source",
    "StateRef",
    "Step",
    "Task",
    "TextObservation",
    "Tool",
    "Verifier",
    "VerifierResult",
    "WebObservation",
    "record_id",
    "stable_id",
]
