"""The one fixed Arrow schema of an AgentRecord, and row <-> record conversion.

Steps are a list of one flat struct (every step field, null where a step kind
lacks it), so DuckDB can query trajectories directly. Free-form values
(tool kwargs, DB states, tool schemas, details) are JSON strings: nested
structs inferred per shard differ between shards and break casts.
"""

from __future__ import annotations

from typing import Any

import orjson
import pyarrow as pa
from pydantic_core import to_jsonable_python

from schemas.record import (
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
)
from schemas.steps import (
    ApiAction,
    BoundingBox,
    CodeAction,
    ImageAnnotation,
    ImageObservation,
    MessageAction,
    Step,
    TextObservation,
    WebObservation,
)

STEP_TYPE = pa.struct(
    [
        ("class_", pa.string()),
        ("content", pa.string()),
        ("source", pa.string()),
        ("name", pa.string()),
        ("tool_call_id", pa.string()),
        ("reasoning", pa.string()),
        ("function", pa.string()),
        ("kwargs", pa.string()),  # JSON object
        ("language", pa.string()),
        ("html", pa.string()),
        ("axtree", pa.string()),
        ("url", pa.string()),
        ("extra", pa.string()),  # JSON: image_observation, viewport_size, annotations
    ]
)

SOURCE_TYPE = pa.struct(
    [
        ("dataset", pa.string()),
        ("format", pa.string()),
        ("original_id", pa.string()),
        ("license", pa.string()),
        ("uri", pa.string()),
    ]
)

SCORES_TYPE = pa.struct(
    [
        ("accuracy", pa.float64()),
        ("complexity", pa.float64()),
        ("diversity", pa.float64()),
        ("extra", pa.string()),  # JSON object
        ("learner", pa.string()),
    ]
)

RECORD_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("schema_version", pa.string()),
        ("env_kind", pa.string()),
        ("environment", pa.string()),  # JSON of Environment
        ("instruction", pa.string()),
        ("task", pa.string()),  # JSON of Task
        ("trajectory", pa.list_(STEP_TYPE)),
        ("num_steps", pa.int32()),
        ("verifier_kind", pa.string()),
        ("verifier_passed", pa.bool_()),
        ("verifier_score", pa.float64()),
        ("verifier", pa.string()),  # JSON of Verifier
        ("source", SOURCE_TYPE),
        ("lineage", pa.string()),  # JSON of Lineage
        ("scores", SCORES_TYPE),
        ("details", pa.string()),  # JSON object
    ]
)

# Min/max statistics only for short scalar columns: on the JSON and text columns they copy whole values
# into the metadata (a third of a small shard's bytes), cost a quarter of the writing time, and nobody
# filters on them.
STATISTICS_COLUMNS = [
    *("id", "schema_version", "env_kind", "num_steps", "verifier_kind", "verifier_passed", "verifier_score"),
    *("source.dataset", "source.format", "source.license", "scores.accuracy", "scores.complexity", "scores.diversity"),
]

QUARANTINE_SCHEMA = pa.schema(
    [
        ("source", pa.string()),  # input file (or stage) the row came from
        ("index", pa.int64()),  # position in that input
        ("error", pa.string()),
        ("raw_excerpt", pa.string()),
    ]
)

# The plain string columns of a step, read back as they are (class_ and the JSON columns are read apart).
_STEP_COLUMNS = tuple(f.name for f in STEP_TYPE if f.name not in ("class_", "kwargs", "extra"))
_STEP_EXTRA = ("image_observation", "viewport_size", "annotations")


def json_text(value: Any) -> str:
    """``value`` as compact JSON text (non-string keys written as strings)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


# orjson raises on these (and on non-string keys and ints over 64 bits) instead of
# writing them its own way, which is not always pydantic's (datetimes, str subclasses).
_PLAIN_JSON_ONLY = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS


# The schema's own models have plain fields (no aliases, computed fields, custom serializers
# or extra fields), so their field values are what pydantic dumps. Other models go through pydantic.
_SCHEMA_MODELS = frozenset(
    {AgentRecord, Environment, Task, Verifier, VerifierResult, Source, Lineage, Scores, Tool, StateRef}
    | {
        MessageAction,
        ApiAction,
        CodeAction,
        TextObservation,
        ImageObservation,
        WebObservation,
        ImageAnnotation,
        BoundingBox,
    }
)


def _model_fields(value: Any) -> dict[str, Any]:
    if type(value) in _SCHEMA_MODELS:
        return value.__dict__
    raise TypeError(f"{type(value).__name__} is not plain JSON")


def _to_json(value: Any) -> str:
    """``value`` (a model, or a free-form dict) as the JSON text of its ``model_dump(mode="json")``.

    orjson writes models from their field values directly, several times faster
    than dumping them through pydantic first; values that are not plain JSON
    make it raise, and then they do go through pydantic, so the text is the same.
    """
    try:
        return orjson.dumps(value, default=_model_fields, option=_PLAIN_JSON_ONLY).decode()
    except TypeError:
        return json_text(to_jsonable_python(value))


_EXTRA_KINDS = frozenset({"web_observation", "image_observation"})  # fields not in STEP_TYPE go to "extra"


def _step_to_row(step: Step) -> dict[str, Any]:
    """One step as a STEP_TYPE row: its field values, with the JSON columns added.

    Arrow reads a row's fields by name, fills the ones a step kind lacks with
    null and ignores keys it has no column for (the nested values left in the
    row), so a row only needs its JSON columns built; dumping every step through
    pydantic first cost more than the rest of the row.
    """
    row = step.__dict__.copy()  # a copy: the row must not change if the record does before it is written
    if step.class_ == "api_action":
        row["kwargs"] = _to_json(step.kwargs)
    elif step.class_ in _EXTRA_KINDS:
        extra = {k: row[k] for k in _STEP_EXTRA if row.get(k) is not None}
        row["extra"] = _to_json(extra) if extra else None
    return row


def record_to_row(record: AgentRecord) -> dict[str, Any]:
    verifier, scores = record.verifier, record.scores
    return {
        "id": record.id,
        "schema_version": record.schema_version,
        "env_kind": record.environment.kind,
        "environment": _to_json(record.environment),
        "instruction": record.task.instruction,
        "task": _to_json(record.task),
        "trajectory": [_step_to_row(s) for s in record.trajectory],
        "num_steps": len(record.trajectory),
        "verifier_kind": verifier.kind,
        "verifier_passed": verifier.result.passed if verifier.result else None,
        "verifier_score": verifier.result.score if verifier.result else None,
        "verifier": _to_json(verifier),
        "source": record.source.__dict__.copy(),
        "lineage": _to_json(record.lineage),
        "scores": {**scores.__dict__, "extra": _to_json(scores.extra)},
        "details": _to_json(record.details),
    }


def _step_from_row(row: dict[str, Any]) -> dict[str, Any]:
    step: dict[str, Any] = {"class_": row["class_"]}
    for key in _STEP_COLUMNS:
        if row.get(key) is not None:
            step[key] = row[key]
    if row.get("kwargs") is not None:
        step["kwargs"] = orjson.loads(row["kwargs"])
    if row.get("extra"):
        step.update(orjson.loads(row["extra"]))
    return step


def row_to_record(row: dict[str, Any]) -> AgentRecord:
    scores = dict(row["scores"] or {})
    scores["extra"] = orjson.loads(scores["extra"]) if scores.get("extra") else {}
    return AgentRecord.model_validate(
        {
            "id": row["id"],
            "schema_version": row["schema_version"],
            "environment": orjson.loads(row["environment"]),
            "task": orjson.loads(row["task"]),
            "trajectory": [_step_from_row(s) for s in row["trajectory"] or []],
            "verifier": orjson.loads(row["verifier"]),
            "source": {k: v for k, v in row["source"].items() if v is not None},
            "lineage": orjson.loads(row["lineage"]),
            "scores": scores,
            "details": orjson.loads(row["details"]),
        }
    )
