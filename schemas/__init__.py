"""The AgentRecord (E, q, τ, v), its steps, Arrow schema, IO and ADP mapping."""

import importlib

# Names resolved on first use (PEP 562), so importing one submodule (schemas.stage_config for a
# command's flags, say) does not build every record model first.
_SUBMODULE = {
    **dict.fromkeys(
        (
            "SCHEMA_VERSION",
            "AgentRecord",
            "Environment",
            "Lineage",
            "Scores",
            "Source",
            "StateRef",
            "Task",
            "Tool",
            "Verifier",
            "VerifierResult",
            "record_id",
            "stable_id",
        ),
        "schemas.record",
    ),
    **dict.fromkeys(
        ("ApiAction", "CodeAction", "ImageObservation", "MessageAction", "Step", "TextObservation", "WebObservation"),
        "schemas.steps",
    ),
}


def __getattr__(name: str):
    if name in _SUBMODULE:
        return getattr(importlib.import_module(_SUBMODULE[name]), name)
    raise AttributeError(f"module 'schemas' has no attribute {name!r}")


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
